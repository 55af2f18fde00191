import * as real from "@asteasolutions/zod-to-openapi";
import { describe, expect, it } from "vitest";
import * as runtime from "../../src/core/openapi-runtime";

/** What wrangler.toml's alias gives the Worker in place of the package: its run-time part, no generators. */
describe("the Worker's zod-to-openapi", () => {
  it("is the package's own schema extension and registry", () => {
    expect(runtime.extendZodWithOpenApi).toBe(real.extendZodWithOpenApi);
    expect(runtime.getOpenApiMetadata).toBe(real.getOpenApiMetadata);
    expect(runtime.OpenAPIRegistry).toBe(real.OpenAPIRegistry);
  });

  it("refuses to generate a document, which is built at build time", () => {
    expect(() => new runtime.OpenApiGeneratorV3()).toThrow(/built at build time/);
    expect(() => new runtime.OpenApiGeneratorV31()).toThrow(/built at build time/);
  });
});
