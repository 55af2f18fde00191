/**
 * `npm run docs:check`: how long `/docs` takes to show its first operation in headless Chromium,
 * the time an integrator waits. Uses the `wrangler dev` answering at DOCS_URL (default
 * http://127.0.0.1:8787) or starts one of its own on a free port; drives `chromium` (Debian's) or
 * `chromium-browser` from PATH over the DevTools protocol on a pipe (no package needed); skips,
 * saying so, when neither is installed. Each run opens the page in a fresh profile (nothing cached)
 * and reports the milliseconds from navigation to the first operation in the DOM. Exits 1 when a run
 * is over DOCS_CHECK_BUDGET_MS (default 3000). Writes its figures, and the documents' sizes, to
 * their section of docs/benchmarks.md (`npm run bench` keeps it).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT, start, stopAll, WRANGLER } from "./processes";

const BUDGET_MS = Number(process.env.DOCS_CHECK_BUDGET_MS ?? 3000);
const RUNS = Number(process.env.DOCS_CHECK_RUNS ?? 3);
const PAGES = (process.env.DOCS_CHECK_PAGES ?? "/docs,/docs?api=all").split(",");

function findChromium(): string | undefined {
  for (const name of ["chromium", "chromium-browser"]) {
    try {
      return execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim() || undefined;
    } catch {
      // not this one
    }
  }
  return undefined;
}

async function answers(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/docs`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/** A running `wrangler dev`, or one started here (stopped at the end). */
async function server(): Promise<string> {
  const given = process.env.DOCS_URL ?? "http://127.0.0.1:8787";
  if (await answers(given)) return given;
  const port = 8700 + Math.floor(Math.random() * 90);
  process.stdout.write(`> no server at ${given}: starting wrangler dev on port ${port}\n`);
  execFileSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts/docs-assets.ts")], { stdio: "inherit" });
  start(WRANGLER, ["dev", "-c", "wrangler.toml", "--port", String(port), "--ip", "127.0.0.1"]);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    if (await answers(base)) return base;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("wrangler dev did not answer /docs within 2 minutes");
}

/** The DevTools protocol over `--remote-debugging-pipe`: JSON messages ended by NUL, fd 3 in, fd 4 out. */
class Browser {
  private nextId = 1;
  private waiting = new Map<number, (m: { result?: any; error?: { message: string } }) => void>();
  private buffer = "";
  private readonly child: ChildProcess;
  private readonly profile = mkdtempSync(join(tmpdir(), "docs-check-"));

  constructor(binary: string) {
    this.child = spawn(
      binary,
      ["--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", `--user-data-dir=${this.profile}`],
      { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] },
    );
    (this.child.stdio[4] as NodeJS.ReadableStream).on("data", (chunk: Buffer) => {
      this.buffer += chunk.toString("utf8");
      let end = this.buffer.indexOf("\0");
      while (end >= 0) {
        const message = JSON.parse(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 1);
        this.waiting.get(message.id)?.(message);
        this.waiting.delete(message.id);
        end = this.buffer.indexOf("\0");
      }
    });
  }

  send(method: string, params: object = {}, sessionId?: string): Promise<any> {
    const id = this.nextId++;
    const done = new Promise<any>((resolve, reject) =>
      this.waiting.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result))),
    );
    (this.child.stdio[3] as NodeJS.WritableStream).write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
    return done;
  }

  /** Stops the browser, then removes its profile (which it writes to until it has exited). */
  async close(): Promise<void> {
    const exited = new Promise((r) => this.child.once("exit", r));
    if (this.child.exitCode === null) {
      await this.send("Browser.close").catch(() => this.child.kill());
      await exited;
    }
    // Its helper processes may still be flushing the profile for a moment.
    for (let i = 0; i < 20; i++) {
      try {
        rmSync(this.profile, { recursive: true, force: true });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
}

/** Set before the page's own scripts run: the time the first operation enters the DOM. */
const OBSERVER = `new MutationObserver(function (_, observer) {
  if (document.querySelector(".opblock")) { window.__firstOperationMs = performance.now(); observer.disconnect(); }
}).observe(document, { childList: true, subtree: true });`;

/** Milliseconds from navigation to the first operation shown, in a fresh tab. */
async function timeToFirstOperation(browser: Browser, url: string): Promise<number> {
  const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
  await browser.send("Page.enable", {}, sessionId);
  await browser.send("Page.addScriptToEvaluateOnNewDocument", { source: OBSERVER }, sessionId);
  await browser.send("Page.navigate", { url }, sessionId);
  const deadline = Date.now() + 120_000;
  try {
    while (Date.now() < deadline) {
      const { result } = await browser.send(
        "Runtime.evaluate",
        { expression: "window.__firstOperationMs ?? null", returnByValue: true },
        sessionId,
      );
      if (typeof result?.value === "number") return Math.round(result.value);
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`${url}: no operation shown within 2 minutes`);
  } finally {
    await browser.send("Target.closeTarget", { targetId });
  }
}

const binary = findChromium();
if (!binary) {
  process.stdout.write("docs:check skipped: neither `chromium` nor `chromium-browser` is on PATH.\n");
  process.exit(0);
}
const HEADING = "## API reference: time to the first operation";
const DOCUMENTS = [
  "/openapi.json",
  "/openapi/merchant.json",
  "/openapi/customer.json",
  "/openapi/public.json",
  "/openapi/platform.json",
];

/** Replaces (or adds) this script's section of docs/benchmarks.md. */
function writeSection(lines: string[]): void {
  const file = join(ROOT, "docs/benchmarks.md");
  const doc = readFileSync(file, "utf8");
  const start = doc.indexOf(`\n${HEADING}\n`);
  const next = start < 0 ? -1 : doc.indexOf("\n## ", start + 1);
  const before = start < 0 ? doc.trimEnd() : doc.slice(0, start).trimEnd();
  const after = next < 0 ? "" : doc.slice(next);
  writeFileSync(file, `${before}\n\n${[HEADING, "", ...lines].join("\n")}\n${after}`);
}

let failed = false;
const report: string[] = [];
try {
  const base = await server();
  report.push(
    `Written by \`npm run docs:check\` (scripts/docs-check.ts), ${new Date().toISOString().slice(0, 10)}, load average ` +
      `${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores at the start; Chromium headless, a fresh profile each run, ` +
      "milliseconds from navigation to the first operation in the DOM (budget " +
      `${BUDGET_MS} ms).`,
    "",
    "| document | bytes | gzipped |",
    "|---|---:|---:|",
  );
  for (const path of DOCUMENTS) {
    const text = await (await fetch(`${base}${path}`)).text();
    report.push(`| \`${path}\` | ${text.length} | ${gzipSync(text).length} |`);
  }
  report.push("", "| page | runs (ms) |", "|---|---|");
  for (const page of PAGES) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // A browser per run: a fresh profile, so nothing comes from its cache.
      const browser = new Browser(binary);
      try {
        times.push(await timeToFirstOperation(browser, `${base}${page}`));
      } finally {
        await browser.close();
      }
    }
    const worst = Math.max(...times);
    if (worst > BUDGET_MS) failed = true;
    report.push(`| \`${page}\` | ${times.join(", ")} |`);
    process.stdout.write(
      `${page}: first operation shown after ${times.join(", ")} ms (${RUNS} cold runs; budget ${BUDGET_MS} ms)` +
        `${worst > BUDGET_MS ? " OVER BUDGET" : ""}\n`,
    );
  }
  writeSection(report);
} finally {
  await stopAll();
}
process.exit(failed ? 1 : 0);
