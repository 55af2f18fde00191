/**
 * `npm run start:check [-- --rounds 5]`: starts `npm start` in a fresh clone of this checkout (its
 * last commit, with this node_modules) several times in a row, each on an empty local state, and for
 * each round: waits for the banner, runs every command of the banner as printed (bash, its quoting
 * and line breaks as they are), stops npm with SIGTERM or SIGINT (in turn) sent to npm's own process,
 * and checks that everything it started is gone and the port free. Prints a line per round and
 * exits non-zero when one failed. Minutes long, so not part of `npm test`; PORT=… picks the port (8797).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "./processes";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" } } });
const ROUNDS = Number(values.rounds);
const PORT = Number(process.env.PORT ?? 8797);
const BANNER_END = "Press Ctrl+C to stop.";

/** The banner's commands: a line that starts with `curl`, `NAME=$(curl` or `npm run cron`, with its `\` continuations. */
export function bannerCommands(banner: string): string[] {
  const commands: string[] = [];
  let current: string[] | null = null;
  for (const line of banner.split("\n")) {
    if (current) current.push(line);
    else if (/^\s+(curl |[A-Z_]+=\$\(curl |(PORT=\d+ )?npm run cron )/.test(line)) current = [line];
    if (current && !line.endsWith("\\")) {
      commands.push(current.join("\n").trim());
      current = null;
    }
  }
  return commands;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => resolve(socket.end() && true));
    socket.once("error", () => resolve(false));
  });

/** Processes whose working folder is `dir` or under it (Linux /proc): what npm start left behind. */
function processesIn(dir: string): string[] {
  const left: string[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (!readlinkSync(`/proc/${pid}/cwd`).startsWith(dir)) continue;
      left.push(`${pid} ${readlinkSync(`/proc/${pid}/exe`)}`);
    } catch {
      // gone, or not ours
    }
  }
  return left;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs the banner's commands with one bash, in order, as pasted into one shell (the login's code
 * is good once: its ACCESS= is set once, then read); each command's output is checked on its own.
 */
function runCommands(commands: string[], cwd: string): { command: string; ok: boolean; out: string }[] {
  const marker = (i: number) => `@@start-check command ${i}@@`;
  // What the login set, shortened.
  const showAccess = '\necho "ACCESS=$(printf %.16s "$ACCESS")..."';
  const script = commands
    .map((c, i) => `echo '${marker(i)}'\n${c}${c.startsWith("ACCESS=") ? showAccess : ""}\necho`)
    .join("\n");
  let all: string;
  try {
    all = execFileSync("bash", ["-c", script], { cwd, encoding: "utf8", timeout: 120_000 });
  } catch (error) {
    all = String((error as { stdout?: string }).stdout ?? "");
  }
  return commands.map((command, i) => {
    const start = all.indexOf(marker(i));
    const end = i + 1 < commands.length ? all.indexOf(marker(i + 1)) : all.length;
    const out = start < 0 ? "" : all.slice(start + marker(i).length, end < 0 ? undefined : end).trim();
    const problem =
      /"status":\s*[45]\d\d/.test(out) ||
      /^HTTP\/1\.1 [45]/m.test(out) ||
      out === "ACCESS=..." ||
      // npm run cron says so on success only (its failures go to stderr).
      (command.includes("npm run cron") && !out.includes("without error"));
    return { command, ok: out !== "" && !problem, out };
  });
}

async function round(n: number, signal: NodeJS.Signals): Promise<string | null> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "start-check-")));
  execFileSync("git", ["clone", "--quiet", ROOT, dir]);
  symlinkSync(realpathSync(join(ROOT, "node_modules")), join(dir, "node_modules"));
  const started = Date.now();
  // Its own process group: the signal under test goes to npm's pid alone, as `kill PID` sends it;
  // the group is there to clean up after a round that failed.
  const npm = spawn("npm", ["start"], {
    cwd: dir,
    env: { ...process.env, PORT: String(PORT) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  npm.stdout.on("data", (c: Buffer) => (output += c.toString()));
  npm.stderr.on("data", (c: Buffer) => (output += c.toString()));
  let exited = false;
  npm.on("exit", () => (exited = true));
  const fail = (why: string) => {
    // npm's group, and what npm start left in groups of their own.
    for (const pid of [npm.pid && -npm.pid, ...processesIn(dir).map((p) => Number(p.split(" ")[0]))])
      try {
        if (pid) process.kill(pid, "SIGKILL");
      } catch {}
    return `${why}\n--- its output (last 40 lines), in ${dir}:\n${output.split("\n").slice(-40).join("\n")}`;
  };

  while (!output.includes(BANNER_END)) {
    if (exited) return fail("npm start exited before its banner");
    if (Date.now() - started > 300_000) return fail("no banner within 5 minutes");
    await sleep(250);
  }
  const ready = ((Date.now() - started) / 1000).toFixed(0);
  const banner = output.slice(output.indexOf("The Commerce and Meals API is running"));
  const commands = bannerCommands(banner);
  const results = runCommands(commands, dir);
  const bad = results.filter((r) => !r.ok);
  const merchant = results.some((r) => r.ok && r.command.includes("Bearer cmk_"));
  const customer = results.some((r) => r.ok && r.command.includes("/api/v1/customer/profile/"));

  npm.pid && process.kill(npm.pid, signal);
  const stopAt = Date.now();
  while ((!exited || (await portOpen(PORT)) || processesIn(dir).length) && Date.now() - stopAt < 30_000)
    await sleep(250);
  const left = processesIn(dir);
  if (!exited || left.length || (await portOpen(PORT)))
    return fail(
      `after ${signal} to npm: npm ${exited ? "exited" : "still running"}, port ${PORT} ${(await portOpen(PORT)) ? "still open" : "free"}, left: ${left.join("; ") || "none"}`,
    );
  if (bad.length || !merchant || !customer)
    return fail(`banner commands failed:\n${bad.map((r) => `${r.command}\n=> ${r.out.slice(0, 300)}`).join("\n")}`);
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(
    `round ${n}: ok — banner after ${ready} s, ${commands.length} banner commands ran, stopped by ${signal} in ${((Date.now() - stopAt) / 1000).toFixed(1)} s, nothing left, port free\n`,
  );
  return null;
}

if (await portOpen(PORT)) {
  process.stderr.write(`start:check: port ${PORT} is in use; PORT=… picks another\n`);
  process.exit(2);
}
const failures: string[] = [];
for (let n = 1; n <= ROUNDS; n++) {
  const failure = await round(n, n % 2 ? "SIGTERM" : "SIGINT");
  if (failure) {
    process.stdout.write(`round ${n}: FAILED — ${failure}\n`);
    failures.push(`round ${n}`);
  }
}
process.stdout.write(
  `${ROUNDS - failures.length}/${ROUNDS} fresh starts passed${failures.length ? ` (failed: ${failures.join(", ")})` : ""}\n`,
);
process.exit(failures.length ? 1 : 0);
