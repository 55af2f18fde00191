import { makeServiceContext } from "../../../core/context";
import type { JobHandler } from "../../../core/jobs";
import { storeDb } from "../../../db/shards";
import { renewSubscriptions } from "./renewal";

/** The `subscriptions.renew` job: one store's due subscriptions, renewed by the clock's day. */
export const renewSubscriptionsJob: JobHandler<"subscriptions.renew"> = async (payload, job) => {
  const ctx = makeServiceContext(await storeDb(job.env, job.appId), job.appId, job.env, (p) => job.ctx.waitUntil(p));
  await renewSubscriptions(ctx, payload.ids);
};
