/**
 * A typed client for the Commerce and Meals API: `openapi-fetch` over the types that
 * `openapi-typescript` generates from `/openapi.json` (the SDK's, sdk/src/schema.ts), with the
 * `app-id` header set once, on the client, for every call. The SDK (sdk/) does this and more.
 *
 * Run it against `npm start` (see README.md):
 *   TOKEN=$(npm run -s token -- --app-id 1 --permissions can_read_order) npx tsx examples/typed-client/client.ts
 */
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { WithClientHeaders } from "../../sdk/src/client";
import type { paths } from "../../sdk/src/schema";

/** The API's operations, for a client that sends `app-id` on every call. */
export type StorePaths = WithClientHeaders<paths, "app-id">;

export type StoreClientOptions = {
  baseUrl: string;
  /** The store: sent as `app-id` on every call. */
  appId: number;
  /** A merchant API token (`cmk_…`), for the merchant operations; the public reads need none. */
  token?: string;
  /** Another fetch, e.g. a test's or a Worker's service binding. */
  fetch?: ClientOptions["fetch"];
};

export function createStoreClient({ baseUrl, appId, token, fetch }: StoreClientOptions): Client<StorePaths> {
  return createClient<StorePaths>({
    baseUrl,
    headers: { "app-id": String(appId), ...(token && { Authorization: `Bearer ${token}` }) },
    ...(fetch && { fetch }),
  });
}

/** Two calls, no header on either: List Tickets (merchant, token) and Restaurant Details (public). */
export async function pendingTicketsAndRestaurant(client: Client<StorePaths>, restaurantId: number) {
  const tickets = await client.GET("/order/v1/merchant/fulfillments/tickets/", {
    params: { query: { status: "pending", page_size: 5 } },
  });
  if (tickets.error) throw new Error(`List Tickets: ${tickets.error.detail}`);

  const restaurant = await client.GET("/api/v1/restaurants/{restaurant_id}/", {
    params: { path: { restaurant_id: restaurantId } },
  });
  if (restaurant.error) throw new Error(`Restaurant Details: ${restaurant.error.detail}`);

  // Typed from the document: `count` and `results` of a page, the restaurant's fields.
  return {
    count: tickets.data.count,
    tickets: tickets.data.results.map((t) => `${t.id} ${t.status} ${t.date} ${t.customer_name ?? "-"}`),
    restaurant: restaurant.data.name_en,
  };
}

/** Without WithClientHeaders, the same call does not compile, though `app-id` is sent at run time. */
export function plainPathsNeedAppIdOnEachCall(client: Client<paths>) {
  // @ts-expect-error: params.header["app-id"] is required by the generated types.
  void client.GET("/api/v1/restaurants/{restaurant_id}/", { params: { path: { restaurant_id: 1 } } });
  return client.GET("/api/v1/restaurants/{restaurant_id}/", {
    params: { path: { restaurant_id: 1 }, header: { "app-id": 1 } },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const client = createStoreClient({
    baseUrl: process.env.API_URL ?? "http://127.0.0.1:8787",
    appId: Number(process.env.APP_ID ?? 1),
    token: process.env.TOKEN,
  });
  console.log(await pendingTicketsAndRestaurant(client, 1));
}
