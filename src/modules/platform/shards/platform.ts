import { z } from "@hono/zod-openapi";
import { ApiError } from "../../../core/errors";
import { createRouter, jsonBody, jsonContent } from "../../../core/openapi";
import { platformRoute } from "../../../core/routes";
import { setShardAcceptsStores, shardStates } from "../../../db/placement";
import { PLATFORM_TAGS, platformAuditOf } from "../shared";

const SHARDS = "/shards/";
const tags = PLATFORM_TAGS;
const beyondSpec =
  "The stores' rows live on several databases (shards); the operator sees how full each is and which take new stores.";

const SHARD_NAME = /^SHARD_[1-9]\d{0,3}$/;

export const ShardSchema = z
  .object({
    name: z.string().openapi({ description: "The shard's binding name.", example: "SHARD_1" }),
    size_bytes: z.number().int().openapi({
      description: "The database's size at its last measurement (the cron's `measure-shard` task); 0 before the first.",
    }),
    stores: z.number().int().openapi({ description: "The stores it holds now." }),
    accepts_stores: z.boolean().openapi({
      description: "Whether placement may put new stores here; a closed shard grows only with its stores.",
    }),
    measured_at: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("Shard");

const ShardListSchema = z.object({ results: z.array(ShardSchema) }).openapi("ShardList");

const UpdateShardSchema = z
  .object({
    accepts_stores: z.boolean().openapi({ description: "Open (true) or close (false) the shard to new stores." }),
  })
  .strict()
  .openapi("UpdateShard");

const params = z.object({
  shard: z
    .string()
    .regex(SHARD_NAME, "A shard's name, as List Shards gives it (SHARD_1).")
    .openapi({ example: "SHARD_2" }),
});

const listRoute = platformRoute({
  method: "get",
  path: SHARDS,
  operationId: "listShards",
  summary: "List Shards",
  tags,
  beyondSpec,
  description:
    "Every shard the Worker is bound to, in order, with its last measured size, its stores and whether it takes " +
    "new stores. Create Store places a store on the open shard with the smallest size, then the fewest stores, " +
    "unless its `shard` pins it. Not paginated: a deployment binds a few shards (docs/shards.md).",
  responses: { 200: jsonContent(ShardListSchema, "The shards.") },
});

const updateRoute = platformRoute({
  method: "patch",
  path: `${SHARDS}{shard}/`,
  operationId: "updateShard",
  summary: "Update Shard",
  tags,
  beyondSpec,
  description:
    "Opens or closes a shard to new stores, recorded in the platform's audit trail (`shard.updated`). Its stores keep working either way, and Create Store may still pin a " +
    "store to a closed shard. Closing every shard leaves new stores only the pinned way (409 `no_shard_open`).",
  errors: { 404: ["shard_not_found"], 409: ["no_shard_open"] },
  request: { params, body: jsonBody(UpdateShardSchema) },
  responses: { 200: jsonContent(ShardSchema, "The shard, as it is now.") },
});

/** The shards: how full each is, and whether placement may use it. */
export const shardsPlatformRouter = createRouter()
  .openapi(listRoute, async (c) => c.json({ results: await shardStates(c.env) }, 200))
  .openapi(updateRoute, async (c) => {
    const name = c.req.valid("param").shard;
    const { accepts_stores } = c.req.valid("json");
    const states = await shardStates(c.env);
    const shard = states.find((s) => s.name === name);
    if (!shard)
      throw new ApiError(
        404,
        "shard_not_found",
        `No shard is named ${name}; the shards are ${states.map((s) => s.name).join(", ")}.`,
      );
    // Placement needs one open shard; a store may still be pinned anywhere.
    if (!accepts_stores && !states.some((s) => s.name !== name && s.accepts_stores))
      throw ApiError.conflict("no_shard_open", `${name} is the only shard open to new stores; open another first.`);
    const { requestId } = platformAuditOf(c);
    await setShardAcceptsStores(c.env, name, accepts_stores, { requestId, before: shard.accepts_stores });
    return c.json({ ...shard, accepts_stores }, 200);
  });
