import { and, eq } from "drizzle-orm";
import type { AssetFetcher } from "../../../core/assets";
import type { ServiceContext } from "../../../core/context";
import { toMajor } from "../../../core/money";
import { loadPdfFont } from "../../../core/pdf/font";
import { apps } from "../../../core/tenancy";
import { formatPhoneInternational, phoneRules, placesOf } from "../../customers";
import { couriers, type PlaceSnapshot, pickupLocations, shipments } from "../tables";
import { type Bilingual, type LabelDocument, type LabelParty, renderLabelPdf } from "./pdf";
import { findLabel } from "./service";

export type LabelPdf = { bytes: Uint8Array<ArrayBuffer>; filename: string };

const same = (text: string): Bilingual => ({ en: text, ar: text });

/** The label `id` of the store as an A6 PDF; 404 `shipping_label_not_found`. */
export async function labelPdf(ctx: ServiceContext, id: number, assets: AssetFetcher): Promise<LabelPdf> {
  const { db, appId } = ctx;
  // The label first: a 404 needs no font.
  const label = await findLabel(ctx, id);
  const [font, phones, [[shipment], [courier], [store]]] = await Promise.all([
    loadPdfFont(assets),
    phoneRules({ assets }),
    db.batch([
      db
        .select()
        .from(shipments)
        .where(and(eq(shipments.appId, appId), eq(shipments.id, label.shipmentId))),
      db
        .select({ nameEn: couriers.nameEn, nameAr: couriers.nameAr })
        .from(couriers)
        .where(and(eq(couriers.appId, appId), eq(couriers.id, label.courierId))),
      db.select({ nameEn: apps.nameEn, nameAr: apps.nameAr }).from(apps).where(eq(apps.id, appId)),
    ]),
  ]);
  // A label's shipment is never deleted (it is not removable once it has one): a broken link is a bug.
  if (!shipment) throw new Error(`shipping label ${id}: its shipment ${label.shipmentId} is missing`);
  const { origin, destination } = shipment;
  // The store's side is the snapshot of a pickup location; without one, the origin of a forward
  // shipment (a return travels from the customer back to the store).
  const storeIsOrigin =
    origin.pickup_location_id != null || (destination.pickup_location_id == null && shipment.direction === "forward");
  const pickupId = (storeIsOrigin ? origin : destination).pickup_location_id ?? shipment.originPickupLocationId;
  const [pickup] = pickupId
    ? await db
        .select({ nameEn: pickupLocations.nameEn, nameAr: pickupLocations.nameAr })
        .from(pickupLocations)
        .where(and(eq(pickupLocations.appId, appId), eq(pickupLocations.id, pickupId)))
    : [];
  const places = await placesOf(
    ctx,
    [origin.city_id, destination.city_id].filter((v): v is number => v !== null),
    [origin.district_id, destination.district_id].filter((v): v is number => v !== null),
  );
  const area = (p: PlaceSnapshot): Bilingual | null => {
    const names = [
      p.district_id !== null ? places.districts.get(p.district_id) : undefined,
      p.city_id !== null ? places.cities.get(p.city_id) : undefined,
    ].filter((n) => n !== undefined);
    if (!names.length) return null;
    return { en: names.map((n) => n.name_en).join(", "), ar: names.map((n) => n.name_ar).join("، ") };
  };
  const storeName: Bilingual = store ? { en: store.nameEn, ar: store.nameAr } : same(origin.name ?? "");
  const storeSide: Bilingual = pickup
    ? { en: `${storeName.en} (${pickup.nameEn})`, ar: `${storeName.ar} (${pickup.nameAr})` }
    : storeName;
  const party = (name: Bilingual, p: PlaceSnapshot): LabelParty => ({
    name,
    address: p.address1,
    area: area(p),
    phone: p.phone ? formatPhoneInternational(phones, p.phone) : null,
  });
  const nameOf = (p: PlaceSnapshot, isStore: boolean) => (isStore ? storeSide : same(p.name ?? ""));
  const doc: LabelDocument = {
    tracking_number: label.trackingNumber,
    shipment_id: shipment.id,
    order_reference: `#${shipment.orderId}`,
    courier: courier ? { en: courier.nameEn, ar: courier.nameAr } : same("-"),
    service: shipment.service,
    sender: party(nameOf(origin, storeIsOrigin), origin),
    recipient: party(nameOf(destination, !storeIsOrigin), destination),
    cod_amount: toMajor(shipment.codAmountMinor),
    currency: shipment.currency,
    weight: shipment.weightG ? shipment.weightG / 1000 : null,
    packages: Math.max(1, shipment.packages.length),
    date: label.createdAt.slice(0, 10),
    voided: label.voidedAt?.slice(0, 10) ?? null,
  };
  return {
    bytes: renderLabelPdf(font, doc),
    filename: `label-${label.trackingNumber.replace(/[^A-Za-z0-9-]/g, "")}.pdf`,
  };
}
