import type { PlaceSnapshot, ShipmentStatus } from "../tables";
import {
  type CarrierAdapter,
  type CarrierCity,
  type CarrierEnv,
  CarrierError,
  type CarrierShipmentInput,
  type CarrierStatusUpdate,
} from "./adapter";

/**
 * Aramex, through its JSON web services (the same WCF services as its SOAP API, `/json/<Method>`):
 *
 * - "Aramex's Guide to Embedding the Shipping Services API" (Shipping Services API Manual,
 *   https://www.aramex.com/docs/default-source/resourses/resourcesdata/shipping-services-api-manual.pdf):
 *   POST `{base}/Shipping/Service_1_0.svc/json/CreateShipments` (ClientInfo, LabelInfo, Shipments[]
 *   → Shipments[].ID, the waybill number, and ShipmentLabel.LabelURL) and `.../json/PrintLabel`
 *   (ShipmentNumber, ProductGroup, OriginEntity, LabelInfo → ShipmentLabel.LabelURL).
 * - "Aramex's Guide to Embedding the Tracking API" (Tracking API Manual): POST
 *   `{base}/Tracking/Service_1_0.svc/json/TrackShipments` (Shipments: waybill numbers,
 *   GetLastTrackingUpdateOnly → TrackingResults [{Key, Value: TrackingResult[]}] with UpdateCode,
 *   UpdateDescription, UpdateDateTime, and NonExistingWaybills).
 *
 * Every call carries `ClientInfo` (UserName, Password, Version, AccountNumber, AccountPin,
 * AccountEntity, AccountCountryCode) in its body; every answer says `HasErrors` with
 * `Notifications` [{Code, Message}]. Aramex documents no signed status webhook: its statuses are
 * polled (`trackMany`) by the scheduled handler. Its Shipping API cancels pickups (CancelPickup by
 * PickupGUID), not waybills, and this adapter creates no pickups: cancelling asks TrackShipments
 * whether Aramex has picked the shipment up, refuses if so, and otherwise leaves the waybill unused.
 * Aramex bills the account by its contract for what it carries, not per waybill printed: it charges
 * no label, so a cancelled one has nothing to refund (`refunded: false`; its `costMinor` is null).
 * Prices are the account's contract rates (Rate Calculator API), not integrated: quotes are refused.
 */

export const ARAMEX_CARRIER = "aramex";
/** Aramex's test environment; production is `https://ws.aramex.net/ShippingAPI.V2` (ARAMEX_BASE_URL). */
export const ARAMEX_TEST_BASE_URL = "https://ws.sbx.aramex.net/ShippingAPI.V2";
export const ARAMEX_TIMEOUT_MS = 10_000;
/** The label report Aramex documents for a 4×6 label, fetched as a URL. */
const LABEL_INFO = { ReportID: 9201, ReportType: "URL" } as const;
/** Waybills per TrackShipments call. */
const TRACK_BATCH = 50;

/**
 * Aramex's tracking update codes, as our statuses. A code not listed here is an intermediate scan
 * (sorting, customs, a note) that changes nothing of ours; its words stay unread.
 */
export const ARAMEX_UPDATE_CODES: Record<string, ShipmentStatus> = {
  SH012: "picked_up", // Picked up from the shipper
  SH001: "in_transit", // Received at an Aramex facility
  SH002: "in_transit", // Departed an Aramex facility
  SH003: "out_for_delivery", // Out for delivery
  SH005: "delivered", // Delivered
  SH006: "delivered", // Collected by the consignee
  SH004: "failed_attempt", // Delivery attempted, not delivered
  SH033: "failed_attempt", // Consignee not available
  SH008: "exception", // On hold
  SH069: "returned_to_sender", // Returned to the shipper
};

type Notification = { Code?: string | null; Message?: string | null };
type Answer = { HasErrors?: boolean; Notifications?: Notification[] | null };
type ProcessedShipment = Answer & {
  ID?: string | null;
  ShipmentLabel?: { LabelURL?: string | null; LabelFileContents?: unknown } | null;
};
type TrackingResult = {
  WaybillNumber?: string | null;
  UpdateCode?: string | null;
  UpdateDescription?: string | null;
  UpdateDateTime?: string | null;
  UpdateLocation?: string | null;
  Comments?: string | null;
};
type TrackAnswer = Answer & {
  TrackingResults?: { Key?: string; Value?: TrackingResult[] | null }[] | null;
  NonExistingWaybills?: string[] | null;
};

const CREDENTIALS = [
  "ARAMEX_USERNAME",
  "ARAMEX_PASSWORD",
  "ARAMEX_ACCOUNT_NUMBER",
  "ARAMEX_ACCOUNT_PIN",
  "ARAMEX_ACCOUNT_ENTITY",
  "ARAMEX_ACCOUNT_COUNTRY_CODE",
] as const;

export const aramexConfigured = (env: CarrierEnv) => CREDENTIALS.every((k) => (env[k] ?? "").trim() !== "");

export const clientInfoOf = (env: CarrierEnv) => ({
  UserName: env.ARAMEX_USERNAME ?? "",
  Password: env.ARAMEX_PASSWORD ?? "",
  Version: "v1.0",
  AccountNumber: env.ARAMEX_ACCOUNT_NUMBER ?? "",
  AccountPin: env.ARAMEX_ACCOUNT_PIN ?? "",
  AccountEntity: env.ARAMEX_ACCOUNT_ENTITY ?? "",
  AccountCountryCode: env.ARAMEX_ACCOUNT_COUNTRY_CODE ?? "",
});

/** Aramex's words for a refusal: each notification, `CODE: message`. */
const wordsOf = (notes: Notification[] | null | undefined, fallback: string) =>
  (notes ?? []).map((n) => `${n.Code ?? "?"}: ${n.Message ?? ""}`.trim()).join("; ") || fallback;

/** A WCF JSON date, `/Date(1714557600000+0300)/`, as an ISO instant (the milliseconds are UTC). */
export function dateOfWcf(value: string | null | undefined): string | null {
  const m = /^\/Date\((-?\d{1,15})([+-]\d{4})?\)\/$/.exec(value ?? "");
  if (m) return new Date(Number(m[1])).toISOString();
  return value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : null;
}

const wcfDate = (ms: number) => `/Date(${ms})/`;

function partyOf(env: CarrierEnv, place: PlaceSnapshot, city: CarrierCity, ref: string, account: boolean) {
  return {
    Reference1: ref,
    ...(account && { AccountNumber: env.ARAMEX_ACCOUNT_NUMBER }),
    PartyAddress: {
      Line1: place.address1 ?? "",
      City: city.name_en,
      CountryCode: city.country_code,
      ...(place.lat !== null && place.lng !== null && { Latitude: place.lat, Longitude: place.lng }),
    },
    Contact: {
      PersonName: place.name ?? "",
      CompanyName: place.name ?? "",
      PhoneNumber1: place.phone ?? "",
      CellPhone: place.phone ?? "",
    },
  };
}

/** The CreateShipments body for one shipment (domestic: Aramex's DOM product group). */
export function createShipmentsBody(env: CarrierEnv, input: CarrierShipmentInput, now = Date.now()) {
  const { originCity, destinationCity } = input;
  if (!originCity || !destinationCity)
    throw new CarrierError(ARAMEX_CARRIER, "The origin and the destination need a city Aramex can name.");
  if (originCity.country_code !== destinationCity.country_code)
    throw new CarrierError(ARAMEX_CARRIER, "Only domestic shipments (origin and destination in one country).");
  const ref = `order ${input.orderId}`;
  const [shipper, consignee] =
    input.direction === "forward"
      ? [
          partyOf(env, input.origin, originCity, ref, true),
          partyOf(env, input.destination, destinationCity, ref, false),
        ]
      : // A return: the customer ships, the store receives and pays (the account is the consignee's).
        [
          partyOf(env, input.origin, originCity, ref, false),
          partyOf(env, input.destination, destinationCity, ref, true),
        ];
  const cod = input.codAmountMinor > 0;
  const first = input.packages[0];
  return {
    ClientInfo: clientInfoOf(env),
    LabelInfo: LABEL_INFO,
    Shipments: [
      {
        Reference1: String(input.orderId),
        Shipper: shipper,
        Consignee: consignee,
        ShippingDateTime: wcfDate(now),
        DueDate: wcfDate(now + 7 * 86_400_000),
        Comments: input.direction === "return" ? `Return of order ${input.orderId}` : `Order ${input.orderId}`,
        PickupLocation: "Reception",
        Details: {
          // Dimensions describe one piece: sent only for a single package.
          ...(input.packages.length === 1 &&
            first && {
              Dimensions: { Length: first.length_cm, Width: first.width_cm, Height: first.height_cm, Unit: "CM" },
            }),
          ActualWeight: { Value: input.weightG / 1000, Unit: "KG" },
          ProductGroup: "DOM",
          ProductType: input.service,
          PaymentType: input.direction === "forward" ? "P" : "C",
          PaymentOptions: "",
          Services: cod ? "CODS" : "",
          NumberOfPieces: Math.max(1, input.packages.length),
          DescriptionOfGoods: `Order ${input.orderId}`,
          GoodsOriginCountry: originCity.country_code,
          ...(cod && {
            CashOnDeliveryAmount: { Value: input.codAmountMinor / 100, CurrencyCode: input.currency },
          }),
        },
      },
    ],
    Transaction: { Reference1: String(input.orderId), Reference2: String(input.appId) },
  };
}

/** One TrackingResult as a normalised update, or null when its code changes nothing of ours. */
export function updateOf(r: TrackingResult): CarrierStatusUpdate | null {
  const code = r.UpdateCode ?? "";
  const status = ARAMEX_UPDATE_CODES[code];
  if (!status || !r.WaybillNumber) return null;
  const note = [r.UpdateDescription, r.UpdateLocation, r.Comments].filter((s) => s?.trim()).join(" · ");
  return {
    carrierReference: r.WaybillNumber,
    status,
    carrierStatus: code,
    at: dateOfWcf(r.UpdateDateTime) ?? new Date().toISOString(),
    note: note ? note.slice(0, 500) : null,
  };
}

export function aramexCarrier(fetcher?: typeof fetch, opts: { timeoutMs?: number } = {}): CarrierAdapter {
  const timeoutMs = opts.timeoutMs ?? ARAMEX_TIMEOUT_MS;

  async function post<T extends Answer>(env: CarrierEnv, path: string, body: unknown): Promise<T> {
    if (!aramexConfigured(env)) throw new CarrierError(ARAMEX_CARRIER, "Aramex credentials are not set.");
    const base = (env.ARAMEX_BASE_URL?.trim() || ARAMEX_TEST_BASE_URL).replace(/\/+$/, "");
    let res: Response;
    try {
      // The global fetch is read per call: tests stub it.
      res = await (fetcher ?? fetch)(`${base}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const what = (error as Error)?.name === "TimeoutError" ? `no answer in ${timeoutMs} ms` : String(error);
      throw new CarrierError(ARAMEX_CARRIER, `${path}: ${what}`);
    }
    let answer: T;
    try {
      answer = (await res.json()) as T;
    } catch {
      throw new CarrierError(ARAMEX_CARRIER, `${path} answered ${res.status} without JSON`);
    }
    if (!res.ok && !answer?.HasErrors) throw new CarrierError(ARAMEX_CARRIER, `${path} answered ${res.status}`);
    if (answer?.HasErrors) throw new CarrierError(ARAMEX_CARRIER, wordsOf(answer.Notifications, "Aramex refused"));
    return answer;
  }

  const SHIPPING = "/Shipping/Service_1_0.svc/json";
  const TRACKING = "/Tracking/Service_1_0.svc/json";

  async function trackMany(env: CarrierEnv, refs: string[]): Promise<Map<string, CarrierStatusUpdate[]>> {
    const out = new Map<string, CarrierStatusUpdate[]>();
    for (let i = 0; i < refs.length; i += TRACK_BATCH) {
      const answer = await post<TrackAnswer>(env, `${TRACKING}/TrackShipments`, {
        ClientInfo: clientInfoOf(env),
        Transaction: { Reference1: "" },
        Shipments: refs.slice(i, i + TRACK_BATCH),
        GetLastTrackingUpdateOnly: false,
      });
      for (const entry of answer.TrackingResults ?? []) {
        const updates = (entry.Value ?? [])
          .map(updateOf)
          .filter((u): u is CarrierStatusUpdate => u !== null)
          // Aramex lists the newest first; our history wants them in the order they happened (ties
          // keep Aramex's order, reversed).
          .reverse()
          .sort((a, b) => a.at.localeCompare(b.at));
        if (entry.Key) out.set(entry.Key, updates);
      }
    }
    return out;
  }

  return {
    code: ARAMEX_CARRIER,
    profile: {
      name_en: "Aramex",
      name_ar: "أرامكس",
      logo: null,
      services: [{ code: "ONP", name_en: "Domestic parcel", name_ar: "شحنة محلية", cod_supported: true }],
      cod_supported: true,
      estimated_days_min: 1,
      estimated_days_max: 3,
    },
    configured: aramexConfigured,
    pollBatch: TRACK_BATCH,
    quote: async () => {
      throw new CarrierError(ARAMEX_CARRIER, "Aramex prices by the account's contract; no quote is asked for.");
    },
    async createShipment(env, input) {
      const answer = await post<Answer & { Shipments?: ProcessedShipment[] | null }>(
        env,
        `${SHIPPING}/CreateShipments`,
        createShipmentsBody(env, input),
      );
      const shipment = answer.Shipments?.[0];
      if (!shipment?.ID) throw new CarrierError(ARAMEX_CARRIER, "CreateShipments answered no waybill number");
      if (shipment.HasErrors) throw new CarrierError(ARAMEX_CARRIER, wordsOf(shipment.Notifications, "refused"));
      return {
        carrierReference: shipment.ID,
        trackingNumber: shipment.ID,
        trackingUrl: `https://www.aramex.com/track/results?ShipmentNumber=${encodeURIComponent(shipment.ID)}`,
        costMinor: null,
      };
    },
    async cancelShipment(env, reference) {
      const history = (await trackMany(env, [reference])).get(reference) ?? [];
      if (history.length)
        throw new CarrierError(
          ARAMEX_CARRIER,
          `Aramex has scanned waybill ${reference} (${history.at(-1)!.carrierStatus}): it cannot be cancelled.`,
        );
      return { refunded: false };
    },
    async label(env, reference) {
      const answer = await post<Answer & { ShipmentLabel?: { LabelURL?: string | null } | null }>(
        env,
        `${SHIPPING}/PrintLabel`,
        {
          ClientInfo: clientInfoOf(env),
          Transaction: { Reference1: reference },
          ShipmentNumber: reference,
          ProductGroup: "DOM",
          OriginEntity: env.ARAMEX_ACCOUNT_ENTITY,
          LabelInfo: LABEL_INFO,
        },
      );
      const url = answer.ShipmentLabel?.LabelURL;
      if (!url) throw new CarrierError(ARAMEX_CARRIER, "PrintLabel answered no label URL");
      return { url };
    },
    tracking: async (env, reference) => (await trackMany(env, [reference])).get(reference) ?? [],
    trackMany,
    // Aramex posts no signed status callbacks: nothing arriving at the webhook route is believed.
    parseWebhook: async () => null,
  };
}
