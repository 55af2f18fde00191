// Dependency rules for src/, checked by `npm run lint` (depcruise src --config .dependency-cruiser.cjs).
// They encode "Shape of the code" in the design: core knows no domain, modules talk to each other
// through their index.ts (or declared events.ts), tables stay inside their module, a resource folder
// never imports what composes it, and there are no import cycles. Only src/ is cruised, so tests and scripts may reach anywhere.
//
// Paths below are matched against module paths relative to the repo root, e.g. "src/core/auth.ts".
// "$1" in a `to` pattern is replaced by the first group captured by the rule's `from.path`.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "core-imports-no-module",
      comment:
        "src/core knows no domain: it may import only itself, src/db/client.ts, src/db/shards.ts and src/db/directory.ts (and the directory schema), src/env.ts and npm packages. " +
        "Not src/modules/**, src/app.ts, src/index.ts, nor src/db/schema.ts (which re-exports every module's " +
        "tables for drizzle-kit), nor the event/webhook plumbing outside core. A domain plugs into core " +
        "through parameters and interfaces, not imports.",
      severity: "error",
      from: { path: "^src/core/" },
      to: {
        path: "^src/",
        pathNot: [
          "^src/core/",
          "^src/db/client\\.ts$",
          "^src/db/shards\\.ts$",
          "^src/db/directory\\.ts$",
          "^src/db/directory-schema\\.ts$",
          "^src/env\\.ts$",
        ],
      },
    },
    {
      name: "modules-talk-through-index",
      comment:
        "A module may use another module only through that module's index.ts (its service functions) or " +
        "events.ts (the events it declares); never its tables, services, schemas or routers, so a domain " +
        "can change its internals without breaking its neighbours. Inside one module anything goes.",
      severity: "error",
      // A module's tables.ts is held to its own rule below (foreign keys).
      from: { path: "^src/modules/([^/]+)/", pathNot: "^src/modules/[^/]+/tables\\.ts$" },
      to: {
        path: "^src/modules/[^/]+/",
        pathNot: ["^src/modules/$1/", "^src/modules/[^/]+/(index|events)\\.ts$"],
      },
    },
    {
      name: "no-tables-across-modules",
      comment:
        "A module's drizzle tables (tables.ts, or <resource>/tables.ts when split) are private to it: " +
        "nothing outside src/modules/<a>/ imports them, so tenancy and soft-delete rules live in one place. " +
        "The one exception is src/db/schema.ts, which re-exports every table for drizzle-kit. " +
        "The group is 'modules/<a>' for a file in a module and the first path segment otherwise " +
        "(core, events, app.ts, ...), so '^src/$1/' only ever excuses the file's own module.",
      severity: "error",
      from: { path: "^src/((?:modules/)?[^/]+)", pathNot: ["^src/db/schema\\.ts$", "^src/modules/[^/]+/tables\\.ts$"] },
      to: {
        // "src/modules/<a>/tables.ts" and "src/modules/<a>/<resource>/tables.ts" alike.
        path: "^src/modules/.+/tables\\.ts$",
        pathNot: "^src/$1/",
      },
    },
    {
      name: "tables-reference-only-tables",
      comment:
        "A foreign key is a relation the database enforces, so a module's tables.ts may name another module's " +
        "table in `.references(() => other.id)` (tickets.item_id → items.id). That is all it may import of " +
        "another module: never its services, schemas or routers.",
      severity: "error",
      from: { path: "^src/modules/([^/]+)/tables\\.ts$" },
      to: { path: "^src/modules/", pathNot: ["^src/modules/$1/", "^src/modules/[^/]+/tables\\.ts$"] },
    },
    {
      name: "resource-imports-no-composer",
      comment:
        "A module's top level composes its resources: index.ts (what the app and other modules use), the " +
        "audience routers (merchant.ts, customer.ts, public.ts, platform.ts) and events.ts (the module's event catalogue) " +
        "import the resource folders. A resource folder (src/modules/<m>/<resource>/**) never imports them " +
        "back: it depends on its own files, its siblings' files, the module's leaf files and core.",
      severity: "error",
      from: { path: "^src/modules/([^/]+)/[^/]+/" },
      to: { path: "^src/modules/$1/(index|merchant|customer|public|platform|events)\\.ts$" },
    },
    {
      name: "module-leaves-import-no-resource",
      comment:
        "The other top-level files of a module (tables.ts, errors.ts, shared.ts, rules.ts, ...) are the leaves " +
        "its resources share, so they import no resource folder of their module: a resource that imports one " +
        "never reaches, through it, back down into the resources (up and down again). What composes " +
        "resources for other modules lives in a folder of its own (meals/commerce/) or in index.ts. " +
        "A tables.ts may still name its resources' tables (<resource>/tables.ts, leaves themselves).",
      severity: "error",
      from: {
        path: "^src/modules/([^/]+)/[^/]+\\.ts$",
        pathNot: "^src/modules/[^/]+/(index|merchant|customer|public|platform|events)\\.ts$",
      },
      to: { path: "^src/modules/$1/[^/]+/", pathNot: "^src/modules/$1/[^/]+/tables\\.ts$" },
    },
    {
      name: "no-circular",
      comment:
        "No import cycles anywhere in src. Type-only cycles are included on purpose: they are harmless at " +
        "runtime but still mean two layers know each other; move the shared type to the lower layer.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      comment:
        "Every import must resolve to a file or an installed package (a typo, or a dependency missing from package.json).",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: "no-orphans",
      comment:
        "A file nothing imports is dead code (or forgotten wiring). src/index.ts is the API Worker's entry, " +
        "src/webhooks-worker.ts the webhooks' consumer Worker's (wrangler.webhooks.toml); " +
        "declaration files are picked up by the compiler, not by imports; src/core/zod/index.ts is what the " +
        'bundle gets for "zod" (wrangler.toml\'s alias).',
      severity: "error",
      from: {
        orphan: true,
        pathNot: ["^src/index\\.ts$", "^src/webhooks-worker\\.ts$", "\\.d\\.ts$", "^src/core/zod/index\\.ts$"],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Keep type-only imports in the graph (import type ... is erased by the compiler) so the rules,
    // no-circular included, see them too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      extensions: [".ts", ".d.ts", ".js", ".mjs", ".cjs", ".json"],
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
