/**
 * Where a request's CPU goes in the Worker's isolate (`npm run bench`, Reads at the floor): the
 * runtime's own sampling profiler (V8's, through the inspector Miniflare opens on workerd), over
 * REQUESTS requests sent one at a time, on the bundle as built but not minified, so that each
 * sample's frames name their module (esbuild writes `// path` above each module it bundles).
 * Each sample goes to the part of the work of its innermost frame that belongs to one of PARTS.
 *
 *   node --experimental-websocket --import tsx scripts/bench/profile.ts -c CONFIG --persist-to DIR \
 *     --path /api/v1/restaurants/ [--header name:value]... [--var NAME:VALUE]... --out FILE.json
 *
 * Only WARMUP + REQUESTS requests: under its profiler the local runtime has stopped answering after
 * 100-200 requests. Node 20 has WebSocket behind --experimental-websocket.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { deployedWorker, nameValue, parseWorkerArgs } from "./bundle";

const REQUESTS = 80;
const WARMUP = 20;
const INSPECTOR_PORT = 9239;
const PORT = 8799;

/** The parts of a request's work, by the module of the frame doing it; the first that matches wins. */
const PARTS: { name: string; match: (module: string) => boolean }[] = [
  { name: "D1's client (the runtime's binding)", match: (m) => m.startsWith("cloudflare-internal:") },
  { name: "building the SQL text (Drizzle)", match: (m) => m.includes("node_modules/drizzle-orm/") },
  {
    name: "the query's validation (zod, the list query)",
    match: (m) =>
      m.includes("node_modules/zod/") ||
      m.includes("node_modules/@hono/zod-openapi/") ||
      m.includes("node_modules/hono/dist/validator/") ||
      /src\/core\/(listing|list-spec|validation|fields)\.ts$/.test(m),
  },
  {
    name: "the list's rows: decoding and assembling the spec's objects",
    match: (m) => /src\/core\/(list-page|json-rows)\.ts$/.test(m) || m.includes("src/modules/"),
  },
  { name: "the cache: serialising, ETag, gzip, lookup", match: (m) => /src\/core\/(cache|crypto)\.ts$/.test(m) },
  { name: "the request log line", match: (m) => m.endsWith("src/core/logging.ts") },
  {
    name: "Hono and the app's middleware: routing, context, headers",
    match: (m) => m.includes("node_modules/hono/") || m.includes("src/") || m.endsWith("entry.ts"),
  },
];
const GC = "the garbage collector";
const OTHER = "the runtime, outside any module of the bundle";

type CallFrame = { url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[] };

/** The module of each line of the unminified bundle, from esbuild's `// path` comments. */
function modulesByLine(script: string): (line: number) => string {
  const starts: { line: number; module: string }[] = [];
  for (const [i, text] of script.split("\n").entries()) {
    const m = /^\/\/ (\S+\.[cm]?[jt]s)$/.exec(text);
    if (m) starts.push({ line: i, module: m[1]! });
  }
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = "";
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]!.line <= line) {
        found = starts[mid]!.module;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/** Each sample's part (see PARTS), as shares of the samples; idle samples left out. */
function breakdown(profile: Profile, moduleAt: (line: number) => string, script: string) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const moduleOf = (f: CallFrame) =>
    f.url.startsWith("cloudflare-internal:") ? f.url : f.url.endsWith(script) ? moduleAt(f.lineNumber) : "";
  const counts = new Map<string, number>();
  let total = 0;
  for (const sample of profile.samples) {
    const name = byId.get(sample)?.callFrame;
    const fn = (name as { functionName?: string } | undefined)?.functionName;
    if (fn === "(idle)") continue;
    total++;
    let part = fn === "(garbage collector)" ? GC : OTHER;
    if (part !== GC)
      for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
        const m = moduleOf(byId.get(id)!.callFrame);
        const found = m ? PARTS.find((p) => p.match(m)) : undefined;
        if (found) {
          part = found.name;
          break;
        }
      }
    counts.set(part, (counts.get(part) ?? 0) + 1);
  }
  return {
    samples: total,
    parts: [...counts].map(([name, n]) => ({ name, share: n / total })).sort((a, b) => b.share - a.share),
  };
}

async function main() {
  let path = "";
  let out = "";
  const headers: Record<string, string> = {};
  const worker = parseWorkerArgs(process.argv.slice(2), (flag, value) => {
    if (flag === "--path") path = value;
    else if (flag === "--out") out = value;
    else if (flag === "--header") {
      const [name, v] = nameValue(flag, value);
      headers[name] = v;
    } else return false;
    return true;
  });
  const { mf, script } = deployedWorker(worker, {
    outDir: ".bench/build-profile",
    unminified: true,
    host: "127.0.0.1",
    port: PORT,
    inspectorPort: INSPECTOR_PORT,
    handleRuntimeStdio: () => undefined,
  });
  try {
    await mf.ready;
    const url = `http://127.0.0.1:${PORT}${path}`;
    const get = async () => {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    };
    for (let i = 0; i < WARMUP; i++) await get();
    const targets = (await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json()) as {
      id: string;
      title?: string;
      webSocketDebuggerUrl?: string;
    }[];
    const target = targets.find((t) => t.title?.includes("bench")) ?? targets[0];
    if (!target) throw new Error("the runtime's inspector lists no isolate");
    // Node 20's WebSocket (--experimental-websocket), typed here: the scripts are typed without the DOM.
    type Socket = {
      send(data: string): void;
      close(): void;
      addEventListener(type: "open" | "message" | "error", fn: (e: { data?: unknown }) => void): void;
    };
    const WS = (globalThis as unknown as { WebSocket?: new (url: string) => Socket }).WebSocket;
    if (!WS) throw new Error("no WebSocket: run with node --experimental-websocket");
    const ws = new WS(target.webSocketDebuggerUrl ?? `ws://127.0.0.1:${INSPECTOR_PORT}/${target.id}`);
    await new Promise((ok, fail) => {
      ws.addEventListener("open", ok);
      ws.addEventListener("error", () => fail(new Error("the inspector refused the connection")));
    });
    let next = 0;
    const waiting = new Map<number, (result: unknown) => void>();
    ws.addEventListener("message", (e) => {
      const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
      if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result);
    });
    const send = (method: string, params: object = {}) =>
      new Promise<unknown>((ok) => {
        const id = ++next;
        waiting.set(id, ok);
        ws.send(JSON.stringify({ id, method, params }));
      });
    await send("Profiler.enable");
    await send("Profiler.setSamplingInterval", { interval: 50 });
    await send("Profiler.start");
    const started = performance.now();
    for (let i = 0; i < REQUESTS; i++) await get();
    const wall = (performance.now() - started) / REQUESTS;
    const { profile } = (await send("Profiler.stop")) as { profile: Profile };
    ws.close();
    const text = readFileSync(script, "utf8");
    const name = script.slice(script.lastIndexOf("/") + 1);
    const result = { requests: REQUESTS, msPerRequest: wall, ...breakdown(profile, modulesByLine(text), name) };
    writeFileSync(out, JSON.stringify(result, null, 2));
  } finally {
    await mf.dispose();
  }
}

await main();
process.exit(0);
