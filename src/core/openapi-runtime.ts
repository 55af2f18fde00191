/**
 * What the Worker needs of `@asteasolutions/zod-to-openapi` at run time: the `.openapi()` method on
 * zod schemas and the registry `OpenAPIHono` records its routes in. The document generators are
 * not: the OpenAPI document is built at build time (scripts/openapi-json.ts, in Node, with the real
 * package) and served from the static assets. wrangler.toml's `[alias]` maps the package here for
 * the Worker's bundles only, so that the generators (and zod's JSON Schema code they use) are left
 * out of them.
 */
export {
  extendZodWithOpenApi,
  getOpenApiMetadata,
  OpenAPIRegistry,
} from "@asteasolutions/zod-to-openapi/dist/index.mjs";

const builtAtBuildTime = () => {
  throw new Error("The OpenAPI document is built at build time (npm run openapi:json), not in the Worker.");
};

export class OpenApiGeneratorV3 {
  constructor() {
    builtAtBuildTime();
  }
}

export class OpenApiGeneratorV31 {
  constructor() {
    builtAtBuildTime();
  }
}
