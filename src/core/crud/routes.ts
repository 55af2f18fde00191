import type { OpenAPIHono, RouteConfig, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Permission } from "../auth";
import { type ServiceContext, serviceContext } from "../context";
import type { ErrorCode, NotFoundCode } from "../errors";
import { envelopeOf, type ListQuery, type ListSpec, listQueryOf, listQuerySchema, type Page } from "../listing";
import { type ErrorsByStatus, idParam, jsonBody, jsonContent } from "../openapi";
import { merchantRoute } from "../routes";

/**
 * The standard routes of a simple resource: list, details, create, update and delete, with their
 * statuses (200, 200, 201, 200, 204), the 404 of the resource's code on the member routes, and the
 * codes each operation adds. A resource gives its paths, schemas and service functions; each
 * operation keeps its own operationId, summary and spec id.
 */

type Operation = {
  operationId: string;
  summary: string;
  permission: Permission;
  description?: string;
  /** Codes beyond the resource's 404 (e.g. a delete's "still in use" 409). */
  errors?: ErrorsByStatus;
} & ({ specId: string; beyondSpec?: never } | { specId?: never; beyondSpec: string });

export type CrudResource<V extends z.ZodType, C extends z.ZodType, U extends z.ZodType> = {
  tag: string;
  /** The record's name in the responses' descriptions: `{ one: "item category", many: "item categories" }`. */
  names?: { one: string; many: string };
  /** The collection path (list, create), with `{parent}` when records belong to one. */
  collection: string;
  /** The member path, with `{param}`. */
  member: string;
  param: string;
  /** The parent's path parameter in `collection`, and its 404 code. */
  parent?: { param: string; notFound: NotFoundCode };
  notFound: NotFoundCode;
  /** The record as every operation answers it. */
  view: V;
  list?: Operation & {
    spec: ListSpec;
    schema: z.ZodType;
    run: (ctx: ServiceContext, q: ListQuery, parentId: number | undefined) => Promise<Page<z.infer<V>>>;
  };
  get?: Operation & { run: (ctx: ServiceContext, id: number) => Promise<z.infer<V>> };
  create?: Operation & {
    body: C;
    run: (ctx: ServiceContext, body: z.infer<C>, parentId: number | undefined) => Promise<z.infer<V>>;
  };
  update?: Operation & { body: U; run: (ctx: ServiceContext, id: number, body: z.infer<U>) => Promise<z.infer<V>> };
  remove?: Operation & { run: (ctx: ServiceContext, id: number) => Promise<void> };
};

/**
 * The validated value of one part of the request. The route's validator has checked it against the
 * schema the route declares, which is the one the resource's `run` takes: the type is that schema's.
 */
function valid<T>(c: Context<AppEnv>, target: "json" | "param"): T {
  return (c.req as unknown as { valid(target: string): T }).valid(target);
}

const withCodes = (own: ErrorsByStatus | undefined, ...notFound: NotFoundCode[]): ErrorsByStatus => ({
  ...own,
  404: [...notFound, ...(own?.[404] ?? [])] as ErrorCode[],
});

/** Mounts the resource's routes on `router`. */
export function crudRoutes<V extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  router: OpenAPIHono<AppEnv>,
  r: CrudResource<V, C, U>,
): void {
  const memberParams = idParam(r.param);
  const parentParams = r.parent ? idParam(r.parent.param) : undefined;
  const parentId = (c: Context<AppEnv>) =>
    r.parent ? valid<Record<string, number>>(c, "param")[r.parent.param] : undefined;
  const id = (c: Context<AppEnv>) => valid<Record<string, number>>(c, "param")[r.param] as number;
  const mount = (route: RouteConfig, handler: (c: Context<AppEnv>) => Promise<Response>) =>
    router.openapi(route, handler);
  const one = r.names?.one ?? "record";
  const many = r.names?.many ?? "records";
  const base = ({ run: _run, errors: _errors, ...op }: Operation & { run: unknown }) => ({ ...op, tags: [r.tag] });

  if (r.list) {
    const { spec, schema, ...op } = r.list;
    const run = r.list.run;
    mount(
      merchantRoute({
        ...base(op),
        method: "get",
        path: r.collection,
        errors: r.parent ? withCodes(op.errors, r.parent.notFound) : op.errors,
        request: { query: listQuerySchema(spec), ...(parentParams && { params: parentParams }) },
        responses: { 200: jsonContent(schema, `A page of ${many}.`) },
      }),
      async (c) => c.json(envelopeOf(c, await run(serviceContext(c), listQueryOf(c, spec), parentId(c))), 200),
    );
  }
  if (r.get) {
    const run = r.get.run;
    mount(
      merchantRoute({
        ...base(r.get),
        method: "get",
        path: r.member,
        errors: withCodes(r.get.errors, r.notFound),
        request: { params: memberParams },
        responses: { 200: jsonContent(r.view, `The ${one}.`) },
      }),
      async (c) => c.json(await run(serviceContext(c), id(c)), 200),
    );
  }
  if (r.create) {
    const { body, ...op } = r.create;
    const run = r.create.run;
    mount(
      merchantRoute({
        ...base(op),
        method: "post",
        path: r.collection,
        errors: r.parent ? withCodes(op.errors, r.parent.notFound) : op.errors,
        request: { body: jsonBody(body), ...(parentParams && { params: parentParams }) },
        responses: { 201: jsonContent(r.view, `The new ${one}.`) },
      }),
      async (c) => c.json(await run(serviceContext(c), valid<z.infer<C>>(c, "json"), parentId(c)), 201),
    );
  }
  if (r.update) {
    const { body, ...op } = r.update;
    const run = r.update.run;
    mount(
      merchantRoute({
        ...base(op),
        method: "patch",
        path: r.member,
        errors: withCodes(op.errors, r.notFound),
        request: { params: memberParams, body: jsonBody(body) },
        responses: { 200: jsonContent(r.view, `The ${one} as it is now.`) },
      }),
      async (c) => c.json(await run(serviceContext(c), id(c), valid<z.infer<U>>(c, "json")), 200),
    );
  }
  if (r.remove) {
    const run = r.remove.run;
    mount(
      merchantRoute({
        ...base(r.remove),
        method: "delete",
        path: r.member,
        errors: withCodes(r.remove.errors, r.notFound),
        request: { params: memberParams },
        responses: { 204: { description: "Deleted (a soft delete)." } },
      }),
      async (c) => {
        await run(serviceContext(c), id(c));
        return c.body(null, 204);
      },
    );
  }
}
