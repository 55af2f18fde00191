/**
 * A Worker as deployed, on the runtime `wrangler dev` uses (workerd, through Miniflare): the bundle
 * `wrangler deploy` would upload, with the bindings, vars and queues of its wrangler config. Shared by
 * bench/serve.ts (what `npm run bench` loads) and bench/profile.ts (the same, profiled).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

/** What both scripts take on their command line: `-c CONFIG [--persist-to DIR] [--var NAME:VALUE]...`. */
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
 * Builds the config's bundle into `outDir` (as the config builds it, or not minified with
 * `unminified`) and serves it; the state is `--persist-to`'s, laid out as wrangler lays it out.
 */
export function deployedWorker(
  w: WorkerArgs,
  opts: {
    outDir: string;
    unminified?: boolean;
    host: string;
    port: number;
    inspectorPort?: number;
    handleRuntimeStdio: (stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) => void;
  },
): { mf: Miniflare; script: string } {
  const { outDir, unminified, ...serving } = opts;
  const out = resolve(outDir);
  mkdirSync(out, { recursive: true });
  const build = [
    "wrangler",
    "deploy",
    "--dry-run",
    "--outdir",
    out,
    "-c",
    w.config,
    ...(unminified ? ["--no-minify"] : []),
  ];
  execFileSync("npx", build, { stdio: "ignore" });
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
