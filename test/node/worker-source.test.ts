/**
 * `npm run deploy` bundles the Worker from a copy of src/ with the OpenAPI document's prose blanked
 * and examples (scripts/worker-source.ts); the document is built from src/ itself. What is blanked
 * must be the document's only, and every line must stay where it was (the source maps).
 */
import { readdirSync, readFileSync } from "node:fs";
import ts from "typescript";
import { expect, it } from "vitest";
import { blankProse } from "../../scripts/worker-source";

const SAMPLE = `
export const route = merchantRoute({
  operationId: "refundInvoice",
  summary: "Refund Invoice",
  description:
    "Refunds a paid invoice " +
    \`by \${LINES} or \${WHOLE.name}.\`,
  responses: { 201: jsonContent(InvoiceSchema, "The refund invoice."), 204: { description: "Gone." } },
  request: { body: jsonBody(RefundSchema, "What to refund.") },
});
const Amount = z.number().openapi({ description: "Major units.", example: 12.5 });
export const codes = defineErrorCodes({ nothing_to_refund: "Nothing is left to refund.", other: OTHER });
const row = { description: r.description, note: "kept", summary: summaryOf(r) };
const column = { description: text("description") };
const computed = { description: \`\${describe(x)}\` };
const detail = new ApiError(409, "nothing_to_refund", "Nothing is left to refund.");
`;

it("blanks the document's prose and leaves everything else as it was", () => {
  const { text, blanked } = blankProse("sample.ts", SAMPLE);
  expect(blanked.map((b) => `${b.line} ${b.key} ${b.within}`)).toEqual([
    "4 summary merchantRoute",
    "6 description merchantRoute",
    "8 description jsonContent",
    "8 description merchantRoute",
    "9 description jsonBody",
    "11 description .openapi",
    "11 example .openapi",
    "12 meaning defineErrorCodes",
  ]);
  expect(text).toBe(
    SAMPLE.replace('"Refund Invoice"', '""')
      .replace(/"Refunds a paid invoice " \+\n {4}`[^`]*`/, '""\n')
      .replace('"The refund invoice."', '""')
      .replace('"Gone."', '""')
      .replace('"What to refund."', '""')
      .replace('"Major units."', '""')
      .replace("example: 12.5", "example: undefined")
      .replace('nothing_to_refund: "Nothing is left to refund."', 'nothing_to_refund: ""'),
  );
  // Runtime data, a value computed by a call and an error's own detail are kept.
  expect(text).toContain("description: r.description");
  expect(text).toContain("summary: summaryOf(r)");
  expect(text).toContain('new ApiError(409, "nothing_to_refund", "Nothing is left to refund.")');
});

it("keeps every file of src/ valid TypeScript, each line at its number", () => {
  // Declaration files emit nothing: TypeScript has no output of theirs to check.
  const files = readdirSync("src", { recursive: true, encoding: "utf8" }).filter(
    (f) => f.endsWith(".ts") && !f.endsWith(".d.ts"),
  );
  let blanked = 0;
  for (const file of files) {
    const source = readFileSync(`src/${file}`, "utf8");
    const out = blankProse(file, source);
    blanked += out.blanked.length;
    expect(out.text.split("\n").length, file).toBe(source.split("\n").length);
    const { diagnostics } = ts.transpileModule(out.text, { reportDiagnostics: true, fileName: file });
    expect(diagnostics, file).toEqual([]);
  }
  // The route definitions and schemas carry more than a thousand of them.
  expect(blanked).toBeGreaterThan(1000);
});
