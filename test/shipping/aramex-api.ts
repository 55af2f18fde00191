/**
 * A local fake of Aramex's JSON web services, as the Shipping Services and Tracking API manuals
 * describe CreateShipments, PrintLabel and TrackShipments: credentials in the body's ClientInfo,
 * every answer `{Transaction, Notifications: [{Code, Message}], HasErrors, ...}`, dates as WCF
 * `/Date(ms+zone)/`. A test scans waybills (as Aramex's couriers would), makes it answer 500, and
 * reads what the adapter sent.
 */

export const ARAMEX_BASE = "https://ws.sbx.aramex.net/ShippingAPI.V2";
export const aramexCredentials = {
  ARAMEX_USERNAME: "testingapi@example.com",
  ARAMEX_PASSWORD: "test-aramex-password",
  ARAMEX_ACCOUNT_NUMBER: "20016",
  ARAMEX_ACCOUNT_PIN: "331421",
  ARAMEX_ACCOUNT_ENTITY: "RUH",
  ARAMEX_ACCOUNT_COUNTRY_CODE: "SA",
};

export type SentRequest = { method: string; url: string; path: string; contentType: string | null; body: any };
type Scan = { code: string; description: string; at: number };

const answer = (status: number, body: unknown) =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
const refused = (Code: string, Message: string, extra: Record<string, unknown> = {}) =>
  answer(200, { Transaction: null, Notifications: [{ Code, Message }], HasErrors: true, ...extra });

// Waybill numbers are unique across the fakes of a test file, as carrier references must be in its database.
let nextWaybill = 44_309_433_250;

export function fakeAramex() {
  const requests: SentRequest[] = [];
  const scans = new Map<string, Scan[]>();
  let override: (() => Response) | null = null;

  function handle(path: string, body: any): Response {
    const ci = body?.ClientInfo ?? {};
    if (ci.UserName !== aramexCredentials.ARAMEX_USERNAME || ci.Password !== aramexCredentials.ARAMEX_PASSWORD)
      return refused("ERR01", "Invalid username or password");
    switch (path) {
      case "/ShippingAPI.V2/Shipping/Service_1_0.svc/json/CreateShipments": {
        const s = body.Shipments?.[0];
        if (!s?.Consignee?.Contact?.PhoneNumber1)
          return refused("ERR52", "Shipment creation failed", {
            Shipments: [
              {
                ID: null,
                HasErrors: true,
                Notifications: [{ Code: "ERR06", Message: "Consignee - Phone Number 1 is required" }],
              },
            ],
          });
        const ID = String(nextWaybill++);
        scans.set(ID, []);
        return answer(200, {
          Transaction: body.Transaction,
          Notifications: [],
          HasErrors: false,
          Shipments: [
            {
              ID,
              Reference1: s.Reference1,
              HasErrors: false,
              Notifications: [],
              ShipmentLabel: {
                LabelURL: `https://ws.sbx.aramex.net/content/rpt_cache/${ID}.pdf`,
                LabelFileContents: null,
              },
            },
          ],
        });
      }
      case "/ShippingAPI.V2/Shipping/Service_1_0.svc/json/PrintLabel": {
        if (!scans.has(body.ShipmentNumber)) return refused("ERR03", `Shipment ${body.ShipmentNumber} not found`);
        return answer(200, {
          Transaction: body.Transaction,
          Notifications: [],
          HasErrors: false,
          ShipmentNumber: body.ShipmentNumber,
          ShipmentLabel: { LabelURL: `https://ws.sbx.aramex.net/content/rpt_cache/${body.ShipmentNumber}.pdf` },
        });
      }
      case "/ShippingAPI.V2/Tracking/Service_1_0.svc/json/TrackShipments": {
        const wanted: string[] = body.Shipments ?? [];
        const known = wanted.filter((w) => scans.get(w)?.length);
        return answer(200, {
          Transaction: body.Transaction,
          Notifications: [],
          HasErrors: false,
          // Aramex lists each waybill's updates newest first.
          TrackingResults: known.map((Key) => ({
            Key,
            Value: [...scans.get(Key)!].reverse().map((s) => ({
              WaybillNumber: Key,
              UpdateCode: s.code,
              UpdateDescription: s.description,
              UpdateDateTime: `/Date(${s.at}+0300)/`,
              UpdateLocation: "Riyadh, Saudi Arabia",
              Comments: "",
              ProblemCode: "",
            })),
          })),
          NonExistingWaybills: wanted.filter((w) => !scans.has(w)),
        });
      }
      default:
        return answer(404, "");
    }
  }

  const fetcher: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const text = await req.text();
    requests.push({
      method: req.method,
      url: req.url,
      path: url.pathname,
      contentType: req.headers.get("content-type"),
      body: text ? JSON.parse(text) : null,
    });
    if (override) return override();
    if (url.origin !== new URL(ARAMEX_BASE).origin || req.method !== "POST") return answer(404, "");
    return handle(url.pathname, requests.at(-1)!.body);
  };

  return {
    fetcher,
    requests,
    /** A scan of a waybill, `minutesAgo` before now. */
    scan(waybill: string, code: string, description: string, minutesAgo = 0) {
      const list = scans.get(waybill) ?? [];
      list.push({ code, description, at: Date.now() - minutesAgo * 60_000 });
      scans.set(waybill, list);
    },
    answerWith(response: (() => Response) | null) {
      override = response;
    },
  };
}
