/**
 * The sources `npm run deploy` bundles: a copy of src/ in which the OpenAPI document's prose is
 * blanked. Every `description` and `summary` written as text (string literals, joined with `+` or
 * templates of constants), the second argument of jsonContent/jsonBody and the error codes' meanings
 * become "", and every `example` written out becomes undefined: the route definitions, the schemas'
 * `.openapi({…})`, the events and the codes carry them for the document only, and the document is
 * built at build time from src/ itself (scripts/openapi-json.ts), so the Worker never reads them.
 * With the document out of the Worker, about 50 KiB of the gzipped bundle.
 * Lines keep their numbers, so that the source maps still lead stack traces to the right line.
 * Run it alone with `npx tsx scripts/worker-source.ts` (it prints what it blanked, per enclosing call).
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Git-ignored (.wrangler/), beside wrangler's own state. */
export const WORKER_SOURCE_DIR = path.join(ROOT, ".wrangler", "worker-source");
/** The entry to hand `wrangler deploy`: the copy's src/index.ts (wrangler.toml's `main`, blanked). */
export const WORKER_ENTRY = path.join(WORKER_SOURCE_DIR, "src", "index.ts");

const PROSE_KEYS = new Set(["description", "summary"]);
/** src/core/openapi.ts's helpers whose second argument is a description. */
const DESCRIBED_BY_SECOND = new Set(["jsonContent", "jsonBody"]);

/** Text only: literals, `+` of text, templates whose parts are names or other text. No call, no side effect. */
function isText(node: ts.Expression): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  if (ts.isParenthesizedExpression(node)) return isText(node.expression);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    return isText(node.left) && isText(node.right);
  }
  if (ts.isTemplateExpression(node)) {
    return node.templateSpans.every(
      (s) => isText(s.expression) || ts.isIdentifier(s.expression) || ts.isPropertyAccessExpression(s.expression),
    );
  }
  return false;
}

/** A value written out: text, a number, true, false, null, or an array or object of them. */
function isWrittenValue(node: ts.Expression): boolean {
  if (isText(node) || ts.isNumericLiteral(node)) return true;
  if ([ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword, ts.SyntaxKind.NullKeyword].includes(node.kind))
    return true;
  if (ts.isPrefixUnaryExpression(node)) return ts.isNumericLiteral(node.operand);
  if (ts.isArrayLiteralExpression(node)) return node.elements.every((e) => isWrittenValue(e));
  if (ts.isObjectLiteralExpression(node)) {
    return node.properties.every((p) => ts.isPropertyAssignment(p) && isWrittenValue(p.initializer));
  }
  return false;
}

/** The name of the call an object literal is (nested in) an argument of: what the prose was written for. */
function enclosingCall(node: ts.Node): string {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isCallExpression(n)) {
      const e = n.expression;
      return ts.isPropertyAccessExpression(e) ? `.${e.name.text}` : ts.isIdentifier(e) ? e.text : "(call)";
    }
    if (ts.isVariableDeclaration(n)) return ts.isIdentifier(n.name) ? `const ${n.name.text}` : "const";
  }
  return "(top level)";
}

export type Blanked = { file: string; line: number; key: string; within: string };

/** The file's text with its prose blanked (newlines kept), and what was blanked. */
export function blankProse(file: string, text: string): { text: string; blanked: Blanked[] } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: { start: number; end: number; key: string; node: ts.Node; by: string }[] = [];
  const blank = (value: ts.Expression, key: string, node: ts.Node, by = '""') =>
    edits.push({ start: value.getStart(source), end: value.end, key, node, by });
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const [first, second] = node.arguments;
      // A response's or a request body's description: the helpers' second argument.
      if (DESCRIBED_BY_SECOND.has(node.expression.text) && second && isText(second))
        blank(second, "description", second);
      // Each error code's meaning, for the document's list of codes.
      if (node.expression.text === "defineErrorCodes" && first && ts.isObjectLiteralExpression(first)) {
        for (const p of first.properties)
          if (ts.isPropertyAssignment(p) && isText(p.initializer)) blank(p.initializer, "meaning", p);
      }
    }
    if (
      ts.isPropertyAssignment(node) &&
      (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
      PROSE_KEYS.has(node.name.text) &&
      isText(node.initializer)
    ) {
      blank(node.initializer, node.name.text, node);
      return;
    }
    // An example of a schema's value: the document's only.
    if (
      ts.isPropertyAssignment(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === "example" &&
      isWrittenValue(node.initializer)
    ) {
      blank(node.initializer, "example", node, "undefined");
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let out = text;
  for (const e of [...edits].reverse()) {
    const newlines = text.slice(e.start, e.end).split("\n").length - 1;
    out = `${out.slice(0, e.start)}${e.by}${"\n".repeat(newlines)}${out.slice(e.end)}`;
  }
  const blanked = edits.map((e) => ({
    file,
    line: source.getLineAndCharacterOfPosition(e.start).line + 1,
    key: e.key,
    within: enclosingCall(e.node),
  }));
  return { text: out, blanked };
}

/** Writes the copy (afresh: a file deleted from src/ must not linger); returns what was blanked. */
export function buildWorkerSource(): Blanked[] {
  rmSync(WORKER_SOURCE_DIR, { recursive: true, force: true });
  const from = path.join(ROOT, "src");
  const to = path.join(WORKER_SOURCE_DIR, "src");
  const all: Blanked[] = [];
  for (const rel of readdirSync(from, { recursive: true, encoding: "utf8" })) {
    const src = path.join(from, rel);
    const dest = path.join(to, rel);
    mkdirSync(path.dirname(dest), { recursive: true });
    if (!rel.endsWith(".ts")) {
      if (!readdirSync(path.dirname(src)).includes(path.basename(src))) continue;
      try {
        cpSync(src, dest, { recursive: false });
      } catch {
        // a directory: its files come on their own
      }
      continue;
    }
    const { text, blanked } = blankProse(path.join("src", rel), readFileSync(src, "utf8"));
    writeFileSync(dest, text);
    all.push(...blanked);
  }
  return all;
}

/**
 * The entry `wrangler deploy` is given for `config`, after its flags: for the API's wrangler.toml, the
 * copy's (built afresh), as `npm run deploy` does; none for another Worker (its `main`).
 */
export function deployEntry(config: string): string[] {
  if (path.resolve(ROOT, config) !== path.join(ROOT, "wrangler.toml")) return [];
  buildWorkerSource();
  return [WORKER_ENTRY];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const blanked = buildWorkerSource();
  const byCall = new Map<string, number>();
  for (const b of blanked) byCall.set(b.within, (byCall.get(b.within) ?? 0) + 1);
  const summary = [...byCall].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`);
  process.stdout.write(
    `> worker source: src/ into ${path.relative(ROOT, WORKER_SOURCE_DIR)}/, ${blanked.length} texts blanked (${summary.join(", ")})\n`,
  );
}
