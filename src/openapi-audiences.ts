import { AUDIENCE_DOCUMENTS, type DocumentAudience } from "./core/docs";
import type { OpenApiDocument } from "./openapi-shared-parts";

/**
 * One document per audience, cut from the whole one: the operations of that audience (the
 * `x-audience` of each), the components they reach, the tags they use. An integrator of the
 * customer app loads a tenth of the whole; each is a complete document of its own.
 */

// biome-ignore lint/suspicious/noExplicitAny: a generated document walked by key; its shape is OpenAPI's, not a type here
type Json = Record<string, any>;

/** Which operations each document holds: their `x-audience`, and whether the events and `/health` go with them. */
const AUDIENCE_SCOPE: Record<DocumentAudience, { audiences: string[]; events: boolean; meta: boolean }> = {
  merchant: { audiences: ["merchant"], events: true, meta: false },
  customer: { audiences: ["customer"], events: false, meta: false },
  public: { audiences: ["public"], events: false, meta: true },
  platform: { audiences: ["platform"], events: false, meta: false },
};

/** Every `#/components/<kind>/<name>` that `value` references, directly. */
function references(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) references(v, out);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/")) out.add(v);
      else references(v, out);
    }
  }
  return out;
}

/** The document of one audience. */
export function audienceDocument(whole: OpenApiDocument, audience: DocumentAudience): OpenApiDocument {
  const scope = AUDIENCE_SCOPE[audience];
  const paths: Record<string, Record<string, Json>> = {};
  for (const [path, methods] of Object.entries(whole.paths)) {
    const kept = Object.entries(methods).filter(([, op]) =>
      op["x-audience"] ? scope.audiences.includes(op["x-audience"]) : scope.meta,
    );
    if (kept.length) paths[path] = Object.fromEntries(kept);
  }
  const webhooks = scope.events ? (whole.webhooks as Json | undefined) : undefined;

  // The components the kept parts reach, following references through the components themselves.
  const components = (whole.components ?? {}) as Record<string, Record<string, Json>>;
  const reached = references([paths, webhooks], new Set());
  const pending = [...reached];
  while (pending.length) {
    const [kind, name] = pending.pop()!.slice("#/components/".length).split("/") as [string, string];
    for (const ref of references(components[kind]?.[name], new Set())) {
      if (!reached.has(ref)) {
        reached.add(ref);
        pending.push(ref);
      }
    }
  }
  const securityUsed = new Set(
    Object.values(paths).flatMap((methods) =>
      Object.values(methods).flatMap((op) => (op.security ?? []).flatMap((s: Json) => Object.keys(s))),
    ),
  );
  const keptComponents: Record<string, Record<string, Json>> = {};
  for (const [kind, all] of Object.entries(components)) {
    const kept = Object.entries(all).filter(([name]) =>
      kind === "securitySchemes" ? securityUsed.has(name) : reached.has(`#/components/${kind}/${name}`),
    );
    if (kept.length) keptComponents[kind] = Object.fromEntries(kept);
  }

  const tagsUsed = new Set(
    [...Object.values(paths), ...Object.values(webhooks ?? {})].flatMap((methods) =>
      Object.values<Json>(methods).flatMap((op) => op.tags ?? []),
    ),
  );
  const { title, ...info } = whole.info as Json;
  const { paths: _p, components: _c, webhooks: _w, tags, "x-tagGroups": groups, ...rest } = whole as Json;
  return {
    ...rest,
    info: { title: `${title}: ${AUDIENCE_DOCUMENTS[audience].title}`, ...info },
    tags: (tags as Json[]).filter((t) => tagsUsed.has(t.name)),
    ...(groups && {
      "x-tagGroups": (groups as Json[])
        .map((g) => ({ ...g, tags: g.tags.filter((t: string) => tagsUsed.has(t)) }))
        .filter((g) => g.tags.length),
    }),
    components: keptComponents,
    paths,
    ...(webhooks && { webhooks }),
  };
}
