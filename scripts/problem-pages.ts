/**
 * The pages a problem's `type` URL opens (`/problems/<code>`), and the list of every code
 * (`/problems/`): static HTML built with the OpenAPI document (scripts/openapi-json.ts), so that
 * they are served without the Worker and open offline. What each code means comes from the error
 * catalogue; the statuses and operations that answer it, from the document.
 */
import { PROBLEMS_PAGE_PATH } from "../src/core/docs.js";

type Json = Record<string, any>;

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
/** The catalogue's meanings use Markdown's `code` spans, and only those. */
const prose = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, "<code>$1</code>");
const slug = (code: string) => code.replaceAll("_", "-");

/** Per code, the statuses it is answered with and the operations that can answer it. */
function whereAnswered(doc: Json): Map<string, { statuses: Set<number>; operations: string[] }> {
  const out = new Map<string, { statuses: Set<number>; operations: string[] }>();
  const responses = doc.components?.responses ?? {};
  for (const [path, methods] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(methods)) {
      for (const [status, ref] of Object.entries<Json>(op.responses ?? {})) {
        const response = ref.$ref ? responses[ref.$ref.split("/").pop()] : ref;
        const own = response?.content?.["application/problem+json"]?.schema?.allOf?.[1]?.properties;
        for (const code of own?.code?.enum ?? []) {
          const entry = out.get(code) ?? { statuses: new Set<number>(), operations: [] };
          entry.statuses.add(Number(status));
          entry.operations.push(`${method.toUpperCase()} ${path}`);
          out.set(code, entry);
        }
      }
    }
  }
  return out;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}</title>
    <style>
      body { font-family: sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5 }
      code { background: #f3f3f3; padding: 0 .2em }
      dt { margin-top: 1rem; font-weight: bold }
      :target { background: #fff6d5 }
    </style>
  </head>
  <body>
${body}
  </body>
</html>
`;
}

/** File name (under public/problems/) → HTML. */
export function problemPages(doc: Json, errorCodes: Record<string, string>): Map<string, string> {
  const where = whereAnswered(doc);
  const statuses = (code: string) => [...(where.get(code)?.statuses ?? [])].sort().join(", ") || "none yet";
  const pages = new Map<string, string>();
  const entries = Object.entries(errorCodes).sort(([a], [b]) => (a < b ? -1 : 1));
  const list = entries
    .map(
      ([code, meaning]) =>
        `      <dt id="${slug(code)}"><a href="${PROBLEMS_PAGE_PATH}${slug(code)}"><code>${code}</code></a> (HTTP ${statuses(code)})</dt>\n` +
        `      <dd>${prose(meaning)}</dd>`,
    )
    .join("\n");
  pages.set(
    "index.html",
    page(
      "Error codes",
      `    <h1>Error codes</h1>
    <p>Every error is an RFC 9457 problem (<code>application/problem+json</code>) with a stable <code>code</code> to
    switch on; its <code>type</code> is the address of the code's page here. Each operation of the
    <a href="/docs">API reference</a> lists, per status, the codes it can answer.</p>
    <dl>
${list}
    </dl>`,
    ),
  );
  for (const [code, meaning] of entries) {
    const ops = where.get(code)?.operations ?? [];
    const shown = ops.slice(0, 50).map((o) => `      <li><code>${escapeHtml(o)}</code></li>`);
    if (ops.length > shown.length) shown.push(`      <li>and ${ops.length - shown.length} more</li>`);
    pages.set(
      `${slug(code)}.html`,
      page(
        code,
        `    <p><a href="${PROBLEMS_PAGE_PATH}">All error codes</a> · <a href="/docs">API reference</a></p>
    <h1><code>${code}</code></h1>
    <p>HTTP ${statuses(code)}</p>
    <p>${prose(meaning)}</p>
    <h2>Answered by</h2>
    <ul>
${shown.join("\n") || "      <li>no operation yet</li>"}
    </ul>`,
      ),
    );
  }
  return pages;
}
