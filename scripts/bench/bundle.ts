/**
 * A Worker as deployed, on the runtime `wrangler dev` uses (workerd, through Miniflare): the bundle
 * `wrangler deploy` would upload, with the bindings, vars and queues of its wrangler config, for
 * bench/serve.ts (what `npm run bench` loads).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { deployEntry } from "../worker-source";

/** What serve.ts takes on its command line: `-c CONFIG [--persist-to DIR] [--var NAME:VALUE]...`. */
export type WorkerArgs = { config: string; persist: string | undefined; vars: Record<string, string> };

/** A flag's `NAME:VALUE`, split at the first colon. */
export function nameValue(flag: string, v: string): [string, string] {
  const at = v.indexOf(":");
  if (at <= 0) throw new Error(`${flag} takes NAME:VALUE, not ${v}`);
  return [v.slice(0, at), v.slice(at + 1)];
}

/**
 * Reads the flags of WorkerArgs from `argv`, and hands any other flag with its value to `other`
 * (which returns false for a flag it does not know either).
 */
export function parseWorkerArgs(argv: string[], other: (flag: string, value: string) => boolean): WorkerArgs {
  const o: WorkerArgs = { config: "wrangler.toml", persist: undefined, vars: {} };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "-c" || flag === "--config") o.config = value;
    else if (flag === "--persist-to") o.persist = value;
    else if (flag === "--var") {
      const [name, v] = nameValue(flag, value);
      o.vars[name] = v;
    } else if (!other(flag, value)) throw new Error(`unknown flag ${flag}`);
  }
  return o;
}

/**
 * Builds the config's bundle into `outDir` (as the config builds it) and serves it; the state is
 * `--persist-to`'s, laid out as wrangler lays it out.
 */
export function deployedWorker(
  w: WorkerArgs,
  opts: {
    outDir: string;
    host: string;
    port: number;
    handleRuntimeStdio: (stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) => void;
  },
): { mf: Miniflare; script: string } {
  const { outDir, ...serving } = opts;
  const out = resolve(outDir);
  mkdirSync(out, { recursive: true });
  const args = ["wrangler", "deploy", "--dry-run", "--outdir", out, "-c", w.config, ...deployEntry(w.config)];
  execFileSync("npx", args, { stdio: "ignore" });
  const script = readdirSync(out).find((f) => f.endsWith(".js"));
  if (!script) throw new Error(`wrangler deploy --dry-run left no script in ${out}`);
  const { workerOptions } = unstable_getMiniflareWorkerOptions(w.config);
  const mf = new Miniflare({
    workers: [
      {
        ...workerOptions,
        name: "bench",
        modules: true,
        modulesRoot: out,
        scriptPath: `${out}/${script}`,
        bindings: { ...workerOptions.bindings, ...w.vars },
      },
    ],
    ...serving,
    ...(w.persist && { defaultPersistRoot: resolve(w.persist, "v3") }),
  });
  return { mf, script: `${out}/${script}` };
}

/**
 * The API's wrangler.toml for a bench entry `main` (a file in .bench/, where the config is written):
 * its paths rebased there, and without the static assets. Nothing measured reads them (the /docs
 * files, the PDFs' font). Cloudflare matches a request against them before the Worker runs, outside
 * its CPU time; the local runtime runs that matching as two more Workers in the same process, which
 * cost a request about three times the bare route's CPU (measured by this bench before it served the
 * API without them), a cost no deployed Worker pays. The scheduled trigger also reaches the Worker only without them (the
 * assets' router has no scheduled handler).
 */
export function benchWranglerToml(main: string): string {
  // The webhooks' consumer Worker (wrangler.webhooks.toml) is served inside the bench's one Worker:
  // its queue consumers join the API's, and the bench entry hands those batches to its handler.
  const consumers = readFileSync("wrangler.webhooks.toml", "utf8").match(
    /^\[\[queues\.consumers\]\]\n(?:[^[\n].*\n|\n)*/gm,
  );
  return (
    readFileSync("wrangler.toml", "utf8")
      .replace(/^main = "(.*)"$/m, () => `main = "${main}"`)
      .replace(/^migrations_dir = "(.*)"$/gm, 'migrations_dir = "../$1"')
      // The bundle's aliases (zod's, the document runtime's), as deployed: wrangler resolves them from
      // the config's folder, one level below the repository here.
      .replace(/^alias = \{.*\}$/m, (line) => line.replaceAll('= "./', '= "../'))
      .replace(/^\[assets\]\n(?:[^[\n].*\n|\n)*/m, "") + `\n${(consumers ?? []).join("\n")}`
  );
}
