import { validate } from "@readme/openapi-parser";
import { expect, it } from "vitest";
import { OPENAPI_INFO, createApp } from "../../src/app";

it("the OpenAPI document validates as OpenAPI 3.1", async () => {
  const doc = createApp().getOpenAPI31Document({ ...OPENAPI_INFO, servers: [{ url: "https://api.test" }] });
  const result = await validate(structuredClone(doc) as never);
  expect(result.valid ? [] : result.errors, JSON.stringify(result, null, 2).slice(0, 3000)).toEqual([]);
  expect(doc.openapi).toBe("3.1.0");
});
