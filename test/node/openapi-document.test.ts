import { validate } from "@readme/openapi-parser";
import { expect, it } from "vitest";

// The Worker's sources are typed against the Workers runtime, these Node tests against Node: the
// path is not a literal so that the Node type check does not pull the Worker's sources in.
const appModule = "../../src/app";
const { createApp, OPENAPI_INFO } = (await import(appModule)) as {
  createApp: () => { getOpenAPI31Document: (config: object) => { openapi: string } };
  OPENAPI_INFO: object;
};

it("the OpenAPI document validates as OpenAPI 3.1", async () => {
  const doc = createApp().getOpenAPI31Document({ ...OPENAPI_INFO, servers: [{ url: "https://api.test" }] });
  const result = await validate(structuredClone(doc) as never);
  expect(result.valid ? [] : result.errors, JSON.stringify(result, null, 2).slice(0, 3000)).toEqual([]);
  expect(doc.openapi).toBe("3.1.0");
});
