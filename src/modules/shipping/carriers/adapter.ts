import type { CourierService, PackageDims, PlaceSnapshot, ShipmentStatus } from "../tables";

/**
 * An integrated carrier, as the shipping module speaks to it. Every adapter maps its carrier's own
 * statuses onto `ShipmentStatus` (design reference 8); the module never sees a carrier's words
 * except as `carrier_status` in the history.
 */

/** What a carrier needs of the Worker's environment (its secrets, its base URL). */
export type CarrierEnv = {
  LINK_SIGNING_SECRET: string;
  ENVIRONMENT?: string;
  /** Aramex (./aramex.ts): offered only when all six credentials are set (secrets). */
  ARAMEX_BASE_URL?: string;
  ARAMEX_USERNAME?: string;
  ARAMEX_PASSWORD?: string;
  ARAMEX_ACCOUNT_NUMBER?: string;
  ARAMEX_ACCOUNT_PIN?: string;
  ARAMEX_ACCOUNT_ENTITY?: string;
  ARAMEX_ACCOUNT_COUNTRY_CODE?: string;
};

/** A city as a carrier that addresses by name needs it (the shipment's snapshots keep only ids). */
export type CarrierCity = { name_en: string; country_code: string };

/** The courier row an adapter is mirrored as, per store (read-only to the merchant). */
export type CarrierProfile = {
  name_en: string;
  name_ar: string;
  logo: string | null;
  services: CourierService[];
  cod_supported: boolean;
  estimated_days_min: number;
  estimated_days_max: number;
};

export type CarrierShipmentInput = {
  appId: number;
  orderId: number;
  service: string;
  direction: "forward" | "return";
  origin: PlaceSnapshot;
  destination: PlaceSnapshot;
  packages: PackageDims[];
  weightG: number;
  codAmountMinor: number;
  currency: string;
  /** The origin's and destination's cities by name, for carriers that address by name (Aramex). */
  originCity?: CarrierCity | null;
  destinationCity?: CarrierCity | null;
};

export type CarrierShipment = {
  /** The carrier's id of the shipment (its AWB or waybill number, when it has no other). */
  carrierReference: string;
  trackingNumber: string;
  trackingUrl: string | null;
  /** What the carrier charges, minor units, when it says. */
  costMinor: number | null;
};

export type QuoteInput = {
  origin: { cityId: number };
  destination: { cityId: number; districtId: number | null };
  packages: PackageDims[];
  codAmountMinor: number;
};

export type CarrierQuote = { service: string; priceMinor: number; estimatedDays: number };

/** One status update, normalised. */
export type CarrierStatusUpdate = {
  carrierReference: string;
  status: ShipmentStatus;
  /** The carrier's own word for it. */
  carrierStatus: string;
  at: string;
  note: string | null;
};

/**
 * A webhook request as the route hands it over: raw body (the signature covers its bytes), headers,
 * and the store its URL names (`app_id`: the request ran on that store's shard, docs/shards.md).
 */
export type WebhookRequest = { appId: number; body: string; headers: Headers };

/**
 * What cancelling did to the label's charge: `refunded` when the carrier credits an unused label back
 * (the store wallet then gets the label's cost back), false when it keeps or never took it.
 */
export type CarrierVoid = { refunded: boolean };

export type CarrierLabel = { pdf: Uint8Array } | { url: string };

export interface CarrierAdapter {
  /** Stable code: the courier row's `code`, and the webhook path's `{carrier}`. */
  readonly code: string;
  readonly profile: CarrierProfile;
  /** Prices for a destination and packages; an empty list when the carrier does not serve it. */
  quote(env: CarrierEnv, input: QuoteInput): Promise<CarrierQuote[]>;
  createShipment(env: CarrierEnv, input: CarrierShipmentInput): Promise<CarrierShipment>;
  /** Cancels at the carrier (voiding its label); throws when the carrier refuses (it was picked up already). */
  cancelShipment(env: CarrierEnv, carrierReference: string): Promise<CarrierVoid>;
  label(env: CarrierEnv, carrierReference: string): Promise<CarrierLabel>;
  /** The status history the carrier knows, oldest first. */
  tracking(env: CarrierEnv, carrierReference: string): Promise<CarrierStatusUpdate[]>;
  /**
   * Verifies the webhook's signature and parses it: null when the signature is missing or wrong, or
   * does not cover the store the URL names (the route then changes nothing), else the updates it carries.
   */
  parseWebhook(env: CarrierEnv, request: WebhookRequest): Promise<CarrierStatusUpdate[] | null>;
  /** False when the environment lacks the carrier's credentials: it is then not offered. */
  configured?(env: CarrierEnv): boolean;
  /**
   * A carrier without a signed webhook: the scheduled poll asks it for many shipments at once
   * (at most `pollBatch` references a call), each reference's history oldest first.
   */
  trackMany?(env: CarrierEnv, carrierReferences: string[]): Promise<Map<string, CarrierStatusUpdate[]>>;
  readonly pollBatch?: number;
}

/** A carrier's refusal or failure, with the carrier's words, answered as 502 `carrier_error`. */
export class CarrierError extends Error {
  constructor(
    readonly carrier: string,
    message: string,
  ) {
    super(message);
  }
}
