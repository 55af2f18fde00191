/// <reference types="vite/client" />
/**
 * The contract suite runs one file per module (test/<module>/contract.test.ts, probes beside it in
 * test/<module>/probes.ts): nothing may fall between the files. Every operation the suite tries has
 * its probes in exactly one module, the one that serves it (test/helpers/contract/modules.ts), and
 * every module that serves operations has its contract file.
 */
import { expect, it } from "vitest";
import { MODULE_NAMES, moduleOf } from "../helpers/contract/modules";
import { type ModuleProbes, operationsInSuite } from "../helpers/contract/suite";
import { openApiDocument, operations } from "../helpers/openapi";

const probeFiles = import.meta.glob<ModuleProbes>("../*/probes.ts", { import: "probes", eager: true });
const contractFiles = import.meta.glob<string>("../*/contract.test.ts", {
  query: "?raw",
  import: "default",
  eager: true,
});
const folderOf = (file: string) => file.split("/")[1]!;

const inSuite = operationsInSuite();

it("gives every operation of the suite its probes in exactly one module, the one that serves it", () => {
  for (const kind of ["tenant", "otherCustomer"] as const) {
    const homes = new Map<string, string[]>();
    for (const [file, probes] of Object.entries(probeFiles))
      for (const id of Object.keys(probes[kind] ?? {})) homes.set(id, [...(homes.get(id) ?? []), folderOf(file)]);
    const needed = inSuite.filter((o) => kind === "tenant" || o.op["x-audience"] === "customer");
    for (const { op } of needed)
      expect(homes.get(op.operationId), `${kind} probe of ${op.operationId}`).toEqual([moduleOf(op.operationId)]);
    // No probe of an operation the suite does not try (or that no longer exists).
    const ids = new Set(needed.map((o) => o.op.operationId));
    expect(
      [...homes.keys()].filter((id) => !ids.has(id)),
      `${kind} probes of nothing`,
    ).toEqual([]);
  }
});

it("has a contract file for every module that serves an operation, running that module's", async () => {
  // The platform's operations are outside the suite (test/helpers/contract/suite.ts says why).
  const probed = operations(await openApiDocument()).filter((o) => o.op["x-audience"] !== "platform");
  const serving = new Set(probed.map((o) => moduleOf(o.op.operationId)));
  for (const module of MODULE_NAMES.filter((m) => serving.has(m))) {
    const text = contractFiles[`../${module}/contract.test.ts`];
    expect(text, `test/${module}/contract.test.ts`).toContain(`contractSuite("${module}"`);
  }
  console.info(
    `contract suite: ${operations(await openApiDocument()).length} operations in the document, ${inSuite.length} tried, ` +
      `in ${Object.keys(contractFiles).length} files`,
  );
});
