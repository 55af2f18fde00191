import { and, eq, sql } from "drizzle-orm";
import { makeServiceContext } from "../../../core/context";
import { notDeleted } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import type { Db } from "../../../db/client";
import { carrierOf, type ShippingEnv } from "../carriers";
import type { CarrierEnv, CarrierStatusUpdate, WebhookRequest } from "../carriers/adapter";
import { couriers, shipments } from "../tables";
import { applyStatus, shipmentLinks } from "./status";

export type Deps = {
  db: Db;
  env: ShippingEnv & Pick<Env, "EVENTS" | "JOBS">;
  waitUntil: (p: Promise<unknown>) => void;
};
export type WebhookResult = {
  received: true;
  applied: number;
  ignored: { reference: string; status: string; reason: string }[];
};

/**
 * A carrier's webhook for store `request.appId` (its URL's; `deps.db` is that store's shard): verified
 * by its adapter (an unsigned or wrongly signed one is a 400 and changes nothing), then each update
 * applied to the store's shipment the carrier's reference names. An update the machine refuses (a
 * repeat, out of order) is reported as ignored.
 */
export async function receiveCarrierWebhook(
  deps: Deps,
  carrier: string,
  request: WebhookRequest,
): Promise<WebhookResult> {
  const adapter = carrierOf(deps.env, carrier);
  if (!adapter) throw ApiError.notFound("route_not_found", `Carrier ${carrier}`);
  const updates = await adapter.parseWebhook(deps.env as CarrierEnv, request);
  if (updates === null)
    throw new ApiError(
      400,
      "webhook_signature_invalid",
      "The webhook is not signed, or not as it was sent: nothing was changed.",
    );
  const result: WebhookResult = { received: true, applied: 0, ignored: [] };
  // A fan-out: one update after another, each its read and its guarded batch (2 D1 waits), since a
  // later update may move the same shipment again and is judged from the state the earlier left.
  for (const u of updates) {
    const reason = await applyUpdate(deps, request.appId, carrier, u);
    if (reason === null) result.applied++;
    else result.ignored.push({ reference: u.carrierReference, status: u.status, reason });
  }
  return result;
}

/**
 * One update to store `appId`'s shipment applied through the status path: null when applied, else why
 * it was not. Ids and references are the store's only (ids are unique per shard), so the lookup is its.
 */
export async function applyUpdate(
  deps: Deps,
  appId: number,
  carrier: string,
  u: CarrierStatusUpdate,
): Promise<string | null> {
  const named = and(
    eq(shipments.appId, appId),
    eq(shipments.carrierReference, u.carrierReference),
    eq(couriers.code, carrier),
    notDeleted(shipments),
  );
  // The shipment and its links in one round trip: the links' read finds the shipment by the same reference.
  const [[found], links] = await Promise.all([
    deps.db
      .select({ shipment: shipments })
      .from(shipments)
      .innerJoin(couriers, eq(couriers.id, shipments.courierId))
      .where(named)
      .limit(1),
    shipmentLinks(
      deps.db,
      sql`SELECT ${shipments.id} FROM ${shipments} INNER JOIN ${couriers} ON ${couriers.id} = ${shipments.courierId}
        WHERE ${named} LIMIT 1`,
    ),
  ]);
  if (!found) return "No shipment of this carrier has that reference.";
  const row = found.shipment;
  if (row.status === u.status) return `The shipment is ${u.status} already.`;
  const ctx = makeServiceContext(deps.db, row.appId, deps.env, deps.waitUntil);
  try {
    await applyStatus(
      ctx,
      row,
      {
        to: u.status as Exclude<typeof u.status, "created">,
        source: "carrier",
        note: u.note,
        carrierStatus: u.carrierStatus,
        at: u.at,
      },
      links,
    );
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return error.detail;
    throw error;
  }
}
