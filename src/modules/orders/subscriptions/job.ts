import { makeServiceContext } from "../../../core/context";
import type { JobHandler } from "../../../core/jobs";
import { createDb } from "../../../db/client";
import { renewSubscriptions } from "./renewal";

/** The `subscriptions.renew` job: one store's due subscriptions, renewed by the clock's day. */
export const renewSubscriptionsJob: JobHandler<"subscriptions.renew"> = async (payload, job) => {
  const ctx = makeServiceContext(createDb(job.env.DB), job.appId, job.env, (p) => job.ctx.waitUntil(p));
  await renewSubscriptions(ctx, payload.ids);
};
