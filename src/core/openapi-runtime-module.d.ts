// The package's own file, which src/core/openapi-runtime.ts re-exports (wrangler.toml aliases the
// package name itself to that file): the same types as the package.
declare module "@asteasolutions/zod-to-openapi/dist/index.mjs" {
  export * from "@asteasolutions/zod-to-openapi";
}
