import { and, asc, eq, inArray, isNotNull, max, notInArray } from "drizzle-orm";
import { notDeleted } from "../../../core/crud/tenant-table";
import { carriersOf } from "../carriers";
import { type CarrierAdapter, type CarrierEnv, CarrierError } from "../carriers/adapter";
import { couriers, shipmentStatusHistory, shipments } from "../tables";
import { FINAL_STATUSES } from "./machine";
import { applyUpdate, type Deps } from "./webhooks";

/** Shipments of one carrier asked about per scheduled run: at most this many, least recently changed first. */
export const POLL_LIMIT = 200;

export type PollResult = { carrier: string; polled: number; applied: number; ignored: number; error?: string };

/**
 * The scheduled poll of carriers that post no signed webhook (Aramex): the open shipments of each,
 * asked in the carrier's batches; each update newer than the last one it recorded from the carrier goes
 * through the same status path as a webhook's. Older ones are skipped, so that replaying the
 * carrier's whole history never moves a shipment back (out for delivery after a failed attempt).
 */
export async function pollCarrierTracking(deps: Deps, adapters?: CarrierAdapter[]): Promise<PollResult[]> {
  const results: PollResult[] = [];
  for (const adapter of adapters ?? carriersOf(deps.env).filter((a) => a.trackMany)) {
    try {
      results.push(await pollCarrier(deps, adapter));
    } catch (error) {
      // One carrier down does not stop the others; the next run asks again.
      if (!(error instanceof CarrierError)) throw error;
      results.push({ carrier: adapter.code, polled: 0, applied: 0, ignored: 0, error: error.message });
    }
  }
  return results;
}

async function pollCarrier(deps: Deps, adapter: CarrierAdapter): Promise<PollResult> {
  const open = await deps.db
    .select({ id: shipments.id, appId: shipments.appId, ref: shipments.carrierReference })
    .from(shipments)
    .innerJoin(couriers, eq(couriers.id, shipments.courierId))
    .where(
      and(
        eq(couriers.code, adapter.code),
        notDeleted(shipments),
        isNotNull(shipments.carrierReference),
        notInArray(shipments.status, [...FINAL_STATUSES]),
      ),
    )
    .orderBy(asc(shipments.modifiedAt), asc(shipments.id))
    .limit(POLL_LIMIT);
  const result: PollResult = { carrier: adapter.code, polled: open.length, applied: 0, ignored: 0 };
  if (!open.length || !adapter.trackMany) return result;
  const lastAt = new Map(
    (
      await deps.db
        .select({ id: shipmentStatusHistory.shipmentId, at: max(shipmentStatusHistory.at) })
        .from(shipmentStatusHistory)
        // The carrier's own clock: our `created` row's time says nothing of its scans' times.
        .where(
          and(
            eq(shipmentStatusHistory.source, "carrier"),
            inArray(
              shipmentStatusHistory.shipmentId,
              open.map((s) => s.id),
            ),
          ),
        )
        .groupBy(shipmentStatusHistory.shipmentId)
    ).map((r) => [r.id, r.at ?? ""]),
  );
  const batch = adapter.pollBatch ?? 50;
  for (let i = 0; i < open.length; i += batch) {
    const slice = open.slice(i, i + batch);
    const tracked = await adapter.trackMany(
      deps.env as CarrierEnv,
      slice.map((s) => s.ref!),
    );
    for (const s of slice) {
      const since = lastAt.get(s.id) ?? "";
      for (const u of tracked.get(s.ref!) ?? []) {
        if (u.at <= since) continue;
        if ((await applyUpdate(deps, s.appId, adapter.code, u)) === null) result.applied++;
        else result.ignored++;
      }
    }
  }
  return result;
}
