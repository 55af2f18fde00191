import { expect, it } from "vitest";
import { call, json } from "../helpers/request";
// A copy of the interface's operation list (spec/operations.tsv of the shared interface).
import operationsTsv from "./operations.tsv?raw";

const specIds = new Map(
  operationsTsv
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split("\t"))
    .map(([id, family, group, name]) => [id!, `${family}/${group}: ${name}`]),
);

it("every x-spec-id names an operation of the interface, and the coverage is reported", async () => {
  const doc = await json<{ paths: Record<string, Record<string, { "x-spec-id"?: string }>> }>(
    await call("/openapi.json", { appId: null }),
  );
  const served = new Set<string>();
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) {
      if (!op["x-spec-id"]) continue;
      expect(specIds.has(op["x-spec-id"]), `unknown x-spec-id ${op["x-spec-id"]}`).toBe(true);
      served.add(op["x-spec-id"]);
    }
  }
  const missing = [...specIds.keys()].filter((id) => !served.has(id));
  console.info(`interface coverage: ${served.size}/${specIds.size} operations served; not yet: ${missing.join(" ")}`);
  expect(served.size + missing.length).toBe(specIds.size);
});
