/**
 * The webhooks' consumer Worker's configuration for local runs. `wrangler dev -c wrangler.toml -c
 * wrangler.webhooks.toml` runs both Workers in one process (one set of local queues, one D1), but
 * hands `--var` to the first configuration's Worker only: the consumer's local values (deliveries to
 * a receiver on this machine, a test's short retries) go into a copy of wrangler.webhooks.toml,
 * its paths made absolute so that the copy works from any folder.
 *
 *   tsx scripts/local-webhooks-config.ts [NAME:VALUE]...   (writes .wrangler/wrangler.webhooks.local.toml)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Where `npm start` and `npm run dev` find it (git-ignored, beside wrangler's own local state). */
export const LOCAL_WEBHOOKS_CONFIG = join(ROOT, ".wrangler", "wrangler.webhooks.local.toml");

/** Writes the copy to `file` with `vars` in place of the [vars] of the same names; returns `file`. */
export function writeLocalWebhooksConfig(vars: Record<string, string>, file = LOCAL_WEBHOOKS_CONFIG): string {
  const path = (p: string) => JSON.stringify(resolve(ROOT, p));
  let text = readFileSync(join(ROOT, "wrangler.webhooks.toml"), "utf8")
    .replace(/^main = "(.*)"$/m, (_, p: string) => `main = ${path(p)}`)
    // The bundle's zod (src/core/zod): wrangler resolves the alias from the config's folder.
    .replace(/^alias = \{ "zod" = "(.*)" \}$/m, (_, p: string) => `alias = { "zod" = ${path(p)} }`);
  for (const [name, value] of Object.entries(vars)) {
    const line = new RegExp(`^${name} = ".*"$`, "m");
    if (!line.test(text)) throw new Error(`wrangler.webhooks.toml has no [vars] ${name}`);
    text = text.replace(line, () => `${name} = ${JSON.stringify(value)}`);
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  copySecrets(text, dirname(file));
  return file;
}

/**
 * The copy's required secrets from the project's `.dev.vars` (scripts/dev-vars.ts writes them) into a
 * `.dev.vars` beside it: wrangler reads a Worker's local secrets from its configuration's folder.
 */
function copySecrets(config: string, folder: string): void {
  const names = JSON.parse(/^required = (\[.*\])$/m.exec(config)?.[1] ?? "[]") as string[];
  const source = join(ROOT, ".dev.vars");
  if (!names.length || !existsSync(source)) return;
  const lines = readFileSync(source, "utf8")
    .split("\n")
    .filter((line) => names.some((name) => line.startsWith(`${name}=`)));
  writeFileSync(join(folder, ".dev.vars"), lines.length ? `${lines.join("\n")}\n` : "");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pairs = process.argv.slice(2).map((arg) => {
    const at = arg.indexOf(":");
    if (at < 1) throw new Error(`expected NAME:VALUE, got ${arg}`);
    return [arg.slice(0, at), arg.slice(at + 1)] as const;
  });
  writeLocalWebhooksConfig(Object.fromEntries(pairs));
}
