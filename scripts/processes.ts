/**
 * Child processes that are stopped with everything they started. `npx wrangler dev` is three
 * processes deep before workerd (npm exec, wrangler's launcher, its CLI), and npm exec does not pass
 * a SIGINT on: killing the first one left wrangler and workerd serving the port. Each child here is
 * the leader of a process group of its own, and stopping it signals the whole group.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The project's own wrangler, without npx in between. */
export const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");

/**
 * The environment wrangler runs in: no metrics, and no fetch of the `Request.cf` placeholder from
 * workers.cloudflare.com (offline it printed a stack trace at every start; the built-in one is used).
 */
export const WRANGLER_ENV = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

const running = new Set<ChildProcess>();

/**
 * What wrangler prints that a developer needs, once. Every wrangler command warns that `[secrets]`
 * is experimental, once per configuration: four times in one `npm start`. A warning block (its
 * `[WARNING]` line and the indented lines under it) is printed the first time its text is seen.
 * wrangler dev's "Your types might be out of date" is dropped: it compares against a configuration
 * merged with `--var`, and `npm run typecheck` (wrangler types --check) is the check that counts.
 */
const seenWarnings = new Set<string>();
const DROPPED = /Your types might be out of date/;
/** Colour codes, which wrangler writes inside `[WARNING]` itself. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

function filtered(from: NodeJS.ReadableStream, to: NodeJS.WritableStream): void {
  let partial = "";
  let block: string[] | null = null;
  let timer: NodeJS.Timeout | undefined;
  const flushBlock = () => {
    if (!block) return;
    // The block's text without its header's configuration name: the same warning for another file.
    const key = block
      .slice(1)
      .map((l) => l.replace(ANSI, "").trim())
      .filter(Boolean)
      .join("\n");
    if (!seenWarnings.has(key)) {
      seenWarnings.add(key);
      to.write(`${block.join("\n")}\n`);
    }
    block = null;
  };
  const line = (text: string) => {
    if (DROPPED.test(text)) return;
    if (text.replace(ANSI, "").includes("[WARNING]")) {
      flushBlock();
      block = [text];
    } else if (block && (text.trim() === "" || /^\s/.test(text))) block.push(text);
    else {
      flushBlock();
      to.write(`${text}\n`);
    }
  };
  from.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const l of lines) line(l);
    clearTimeout(timer);
    // A block's end is the next line; when none comes, a moment later.
    timer = setTimeout(flushBlock, 300);
  });
  from.on("end", () => {
    if (partial) line(partial);
    flushBlock();
  });
}

/**
 * Starts `cmd` in a process group of its own (stdin never: a group in the background may not read
 * the terminal); what it prints goes through the filter above, but for a stdout the caller reads.
 */
export function start(cmd: string, args: string[], options: { readStdout?: boolean } = {}): ChildProcess {
  // Colours as on a terminal, though wrangler writes to a pipe.
  const env = process.stdout.isTTY ? { ...WRANGLER_ENV, FORCE_COLOR: "1" } : WRANGLER_ENV;
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  if (!options.readStdout && child.stdout) filtered(child.stdout, process.stdout);
  if (child.stderr) filtered(child.stderr, process.stderr);
  running.add(child);
  child.on("exit", () => running.delete(child));
  return child;
}

/** Whether any process of the group led by `pid` is alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Waits until no process of the group is left, at most `ms`; then kills what is. */
async function groupGone(pid: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pid)) signalGroup(pid, "SIGKILL");
}

/** Stops a child's whole group: SIGTERM, then SIGKILL after `graceMs` for what is still there. */
export async function stopGroup(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.pid === undefined) return;
  signalGroup(child.pid, "SIGTERM");
  await groupGone(child.pid, graceMs);
}

/** Stops every child started here and still running. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stopGroup(child)));
}

/** On exit, whatever the reason, no child is left behind (synchronous: the last thing the process does). */
process.on("exit", () => {
  for (const child of running) if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
});

/**
 * Runs `cmd` to its end, and the end of everything it started (a workerd of `wrangler d1` still
 * exiting must not share the D1 files with the next step's); its stdout is returned, its stderr
 * shown. Rejects with `what` and the exit code.
 */
export function run(what: string, cmd: string, args: string[]): Promise<string> {
  const child = start(cmd, args, { readStdout: true });
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", async (code, signal) => {
      if (child.pid !== undefined) await groupGone(child.pid, 10_000);
      if (code === 0) resolve(out);
      else reject(new Error(`${what} failed (${signal ?? `exit code ${code}`})`));
    });
  });
}

/** The parent of `pid` (Linux: /proc; elsewhere ps); null when it cannot be known. */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    try {
      return Number(execFileSync("ps", ["-o", "ppid=", "-p", String(pid)], { encoding: "utf8" }).trim()) || null;
    } catch {
      return null;
    }
  }
}

/**
 * Calls `then` once the processes above this one change. npm passes SIGTERM and SIGINT to the
 * `sh -c` of its script, which does not pass them on (SIGTERM kills it, SIGINT it ignores while it
 * waits): package.json's `exec tsx …` puts tsx, which does, in its place. Should a shell or tsx
 * above this process go all the same (killed), that is the signal to stop.
 */
export function onOrphaned(then: () => void, everyMs = 500): void {
  const parent = process.ppid;
  const grandparent = parentOf(parent);
  if (grandparent === null) return;
  setInterval(() => {
    if (process.ppid !== parent || parentOf(parent) !== grandparent) then();
  }, everyMs).unref();
}
