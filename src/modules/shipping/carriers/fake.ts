import { randomToken, signLink, verifyLink } from "../../../core/crypto";
import type { ShipmentStatus } from "../tables";
import {
  type CarrierAdapter,
  type CarrierEnv,
  CarrierError,
  type CarrierQuote,
  type CarrierStatusUpdate,
  type QuoteInput,
  type WebhookRequest,
} from "./adapter";

/**
 * The development carrier: it accepts every shipment, prices by a fixed formula, and its status
 * updates are callbacks posted to our webhook route with the store in its query (`?app_id=`), signed
 * like every link of this Worker (HMAC-SHA256 under LINK_SIGNING_SECRET of purpose, store, timestamp
 * and body: a callback for one store cannot be sent to another's shard). Tests sign them the same
 * way. Not offered in production.
 */

export const FAKE_CARRIER = "fake";
export const FAKE_SIGNATURE_HEADER = "X-Fake-Carrier-Signature";
export const FAKE_TIMESTAMP_HEADER = "X-Fake-Carrier-Timestamp";
const PURPOSE = "fake-carrier-webhook";
/** A callback older or newer than this is refused (a replay of a stale one). */
const TOLERANCE_S = 300;

/** The fake carrier's own status words, as a real carrier has its own. */
export const FAKE_STATUS_WORDS: Record<string, ShipmentStatus> = {
  PICKED_UP: "picked_up",
  IN_TRANSIT: "in_transit",
  OUT_FOR_DELIVERY: "out_for_delivery",
  DELIVERED: "delivered",
  DELIVERY_FAILED: "failed_attempt",
  EXCEPTION: "exception",
  RETURNED: "returned_to_sender",
};

/** The signature of store `appId`'s callback body sent at `timestamp` (Unix seconds): what the carrier puts in its header. */
export const signFakeCallback = (secret: string, appId: number, timestamp: number | string, body: string) =>
  signLink(secret, PURPOSE, appId, timestamp, body);

/** Standard 15.00, and 2.00 per started kilogram past the first; express 10.00 more. */
function fakeQuote(input: Pick<QuoteInput, "packages">): CarrierQuote[] {
  const grams = input.packages.reduce((sum, p) => sum + p.weight_g, 0);
  const extraKg = Math.max(0, Math.ceil(grams / 1000) - 1);
  const standard = 1500 + 200 * extraKg;
  return [
    { service: "standard", priceMinor: standard, estimatedDays: 3 },
    { service: "express", priceMinor: standard + 1000, estimatedDays: 1 },
  ];
}

type Callback = { events?: unknown };

async function parseWebhook(env: CarrierEnv, request: WebhookRequest): Promise<CarrierStatusUpdate[] | null> {
  const signature = request.headers.get(FAKE_SIGNATURE_HEADER);
  const timestamp = request.headers.get(FAKE_TIMESTAMP_HEADER);
  if (!signature || !timestamp || !/^\d{1,12}$/.test(timestamp)) return null;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_S) return null;
  if (!(await verifyLink(env.LINK_SIGNING_SECRET, signature, PURPOSE, request.appId, timestamp, request.body)))
    return null;
  let parsed: Callback;
  try {
    parsed = JSON.parse(request.body) as Callback;
  } catch {
    return [];
  }
  if (!Array.isArray(parsed.events)) return [];
  const updates: CarrierStatusUpdate[] = [];
  for (const e of parsed.events.slice(0, 100) as Record<string, unknown>[]) {
    const word = typeof e?.status === "string" ? e.status : "";
    const status = FAKE_STATUS_WORDS[word];
    if (typeof e?.reference !== "string" || !status) continue;
    updates.push({
      carrierReference: e.reference.slice(0, 100),
      status,
      carrierStatus: word,
      at:
        typeof e.at === "string" && !Number.isNaN(Date.parse(e.at))
          ? new Date(e.at).toISOString()
          : new Date().toISOString(),
      note: typeof e.note === "string" ? e.note.slice(0, 500) : null,
    });
  }
  return updates;
}

export const fakeCarrier: CarrierAdapter = {
  code: FAKE_CARRIER,
  profile: {
    name_en: "Fake Carrier (development)",
    name_ar: "ناقل تجريبي (للتطوير)",
    logo: null,
    services: [
      { code: "standard", name_en: "Standard", name_ar: "عادي", cod_supported: true },
      { code: "express", name_en: "Express", name_ar: "سريع", cod_supported: false },
    ],
    cod_supported: true,
    estimated_days_min: 1,
    estimated_days_max: 3,
  },
  quote: async (_env, input) => fakeQuote(input),
  createShipment: async (_env, input) => {
    if (input.packages.some((p) => p.weight_g > 30_000)) {
      throw new CarrierError(FAKE_CARRIER, "A package is heavier than 30 kg.");
    }
    const reference = randomToken("fk_", 12);
    return {
      carrierReference: reference,
      trackingNumber: `FK${reference
        .slice(3)
        .replace(/[^A-Za-z0-9]/g, "0")
        .toUpperCase()}`,
      trackingUrl: null,
      costMinor: fakeQuote(input).find((q) => q.service === input.service)?.priceMinor ?? null,
    };
  },
  // Like the label APIs that charge per label (and refund an unused one when it is voided), the fake
  // charges its quote at creation and gives all of it back when the shipment is cancelled before pickup.
  cancelShipment: async () => ({ refunded: true }),
  label: async () => {
    throw new CarrierError(FAKE_CARRIER, "The fake carrier prints no label of its own: the Worker renders it.");
  },
  tracking: async () => [],
  parseWebhook,
};
