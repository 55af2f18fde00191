import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { BatchPlan, insertSelect } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, newEvent, rowEvent } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPage, type Page } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { getLocation, loadCustomers, readLocation } from "../../customers";
import { loadItems, readCatalogueFacts } from "../../items";
import { findVoucher } from "../../vouchers";
import { type Quote, quote, quoteOf } from "../pricing/quote";
import { linesOf, totalsView } from "../shared";
import { CART_PROVIDERS, CART_STATUSES, cartItems, carts } from "../tables";
import { priceCart, priceCartWith, pricingContext } from "./pricing";
import type { Cart, CreateCart, UpdateCart } from "./schemas";

type CartRow = typeof carts.$inferSelect;
type LineRow = typeof cartItems.$inferSelect;

export const CART_LIST: ListSpec = {
  fields: {
    id: { column: carts.id, kind: "integer" },
    customer_id: { column: carts.customerId, kind: "integer" },
    status: { column: carts.status, kind: "string", values: CART_STATUSES },
    cart_provider: { column: carts.cartProvider, kind: "string", values: CART_PROVIDERS },
    is_recurring: { column: carts.isRecurring, kind: "boolean" },
    voucher_code: { column: carts.voucherCode, kind: "string", nullable: true },
    order_id: { column: carts.orderId, kind: "integer", nullable: true },
    created_at: { column: carts.createdAt, kind: "datetime" },
    modified_at: { column: carts.modifiedAt, kind: "datetime" },
  },
  defaultOrder: "-id",
  idColumn: carts.id,
};

const notFound = (id: number) => ApiError.notFound("cart_not_found", `Cart ${id}`);

/** The cart (of `customerId` when given: another customer's cart is a 404, not a 403). */
export async function findCart(ctx: ServiceContext, id: number, customerId?: number) {
  const [cartRows, lines] = await ctx.db.batch([
    ctx.db
      .select()
      .from(carts)
      .where(
        and(
          eq(carts.id, id),
          live(carts, ctx.appId),
          customerId === undefined ? undefined : eq(carts.customerId, customerId),
        ),
      ),
    ctx.db.select().from(cartItems).where(eq(cartItems.cartId, id)).orderBy(asc(cartItems.id)),
  ]);
  const cart = cartRows[0];
  if (!cart) throw notFound(id);
  return { cart, lines };
}

type Priced = { quote: Quote; problems: Map<number, string | null> };

function cartView(
  cart: CartRow,
  lines: LineRow[],
  priced: Priced,
  extras: { items: Map<number, Cart["cart_items"][number]["item"]>; customer: Cart["customer"] },
): Cart {
  const q = priced.quote;
  const byKey = new Map(q.lines.map((l) => [l.key, l]));
  return {
    id: cart.id,
    app_id: cart.appId,
    custom_fields: cart.customFields ?? null,
    customer_id: cart.customerId,
    customer: extras.customer,
    status: cart.status,
    cart_provider: cart.cartProvider,
    cart_items: lines.map((l) => {
      const quoted = byKey.get(l.id);
      const unit = quoted?.unitPriceMinor ?? l.unitPriceMinor;
      return {
        id: l.id,
        item_id: l.itemId,
        item: extras.items.get(l.itemId) ?? null,
        qty: l.qty,
        modifier_values: l.modifierValueIds,
        bundle_selections: l.bundleSelections,
        price: toMajor(unit),
        total: toMajor(unit * l.qty),
        is_available: quoted !== undefined,
        unavailable_reason: priced.problems.get(l.id) ?? null,
      };
    }),
    total_cart_price: toMajor(q.totalWithRedeemMinor),
    voucher_code: cart.voucherCode,
    voucher_error: q.voucher && !q.voucher.isSuccess ? q.voucher.errorReason : null,
    location_id: cart.locationId,
    pickup_location_id: cart.pickupLocationId,
    courier_id: cart.courierId,
    notes: cart.notes,
    receiver: cart.receiver ?? null,
    is_recurring: cart.isRecurring,
    duration: cart.duration,
    duration_unit: cart.durationUnit,
    order_id: cart.orderId,
    cart_price_updated: cart.status === "open" && q.totalWithRedeemMinor !== cart.quotedTotalMinor,
    ...totalsView({ ...q, taxPercentageBp: q.vatBp }),
    checked_out_at: cart.checkedOutAt,
    created_at: cart.createdAt,
    modified_at: cart.modifiedAt,
  };
}

/** Cart Details (MO2 for the merchant, CA14 for its customer): priced now. */
export async function cartDetails(ctx: ServiceContext, id: number, opts: { customerId?: number } = {}): Promise<Cart> {
  const { cart, lines } = await findCart(ctx, id, opts.customerId);
  const priced = await priceCart(ctx, cart, lines);
  const [items, customers] = await Promise.all([
    loadItems(
      ctx.db,
      ctx.appId,
      lines.map((l) => l.itemId),
    ),
    loadCustomers(ctx, [cart.customerId]),
  ]);
  const extras = { items, customer: customers.get(cart.customerId) ?? null };
  return shownCart(ctx, cart, lines, priced, extras, opts.customerId !== undefined);
}

/** The cart's view; when its customer sees it (`seen`), a total that moved is kept as the one they saw. */
async function shownCart(
  ctx: ServiceContext,
  cart: CartRow,
  lines: LineRow[],
  priced: Priced,
  extras: Parameters<typeof cartView>[3],
  seen: boolean,
): Promise<Cart> {
  const view = cartView(cart, lines, priced, extras);
  // The customer has now seen this total: a later checkout flags a move from it.
  if (seen && cart.status === "open" && view.cart_price_updated) {
    await ctx.db
      .update(carts)
      .set({ quotedTotalMinor: priced.quote.totalWithRedeemMinor })
      .where(eq(carts.id, cart.id));
  }
  return view;
}

const locationRefused = (locationId: number) =>
  ApiError.validation({ location_id: [`Location ${locationId} is not one of the customer's locations.`] });

async function checkLocation(ctx: ServiceContext, customerId: number, locationId: number | null | undefined) {
  if (locationId == null) return;
  try {
    await getLocation(ctx, customerId, locationId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw locationRefused(locationId);
    throw error;
  }
}

const lineRows = (ctx: ServiceContext, cartId: SqlOrId, q: Quote, at: string) =>
  q.lines.map((l) => ({
    appId: ctx.appId,
    cartId: cartId as number,
    itemId: l.itemId,
    qty: l.qty,
    modifierValueIds: l.modifierValueIds,
    bundleSelections: l.bundleSelections,
    unitPriceMinor: l.unitPriceMinor,
    createdAt: at,
  }));
type SqlOrId = number | SQL;

async function quoteLines(ctx: ServiceContext, customerId: number, input: CreateCart | UpdateCart, cart?: CartRow) {
  const lines = input.items ? linesOf(input.items) : undefined;
  return quote(
    ctx,
    {
      lines: lines ?? [],
      customerId,
      voucherCode: input.voucher_code !== undefined ? input.voucher_code : (cart?.voucherCode ?? null),
      walletRedeemMinor: input.wallet_redeem_amount ?? cart?.walletRedeemMinor ?? 0,
      ...(await pricingContext(ctx)),
    },
    "items",
  );
}

/**
 * CA14 Create Cart: the lines are validated and priced now; the total is what the customer saw. Two
 * round trips: every read at once (the location, the items, the voucher, the store's context, the
 * customer), then the batch, which reads the stored cart back for the answer.
 */
export async function createCart(ctx: ServiceContext, customerId: number, input: CreateCart): Promise<Cart> {
  const lines = linesOf(input.items ?? []);
  const itemIds = lines.map((l) => l.itemId);
  const [location, catalogue, voucher, pricing, customers] = await Promise.all([
    input.location_id == null ? undefined : readLocation(ctx, customerId, input.location_id),
    readCatalogueFacts(ctx, itemIds),
    input.voucher_code ? findVoucher(ctx, input.voucher_code, customerId) : undefined,
    pricingContext(ctx),
    loadCustomers(ctx, [customerId]),
  ]);
  if (location === null) throw locationRefused(input.location_id!);
  const facts = catalogue(itemIds);
  const quoteInput = {
    customerId,
    voucherCode: input.voucher_code ?? null,
    walletRedeemMinor: input.wallet_redeem_amount ?? 0,
    ...pricing,
  };
  const q = quoteOf({ items: facts.priced, voucher }, { lines, ...quoteInput }, "items");
  const at = nowIso();
  const plan = new BatchPlan(ctx.db);
  const cart = plan.insert(
    "cart",
    ctx.db.insert(carts).values({
      appId: ctx.appId,
      customerId,
      cartProvider: input.cart_provider ?? "app",
      voucherCode: input.voucher_code ?? null,
      locationId: input.location_id ?? null,
      walletRedeemMinor: input.wallet_redeem_amount ?? 0,
      notes: input.notes ?? null,
      receiver: input.receiver ?? null,
      isRecurring: input.is_recurring ?? false,
      duration: input.duration ?? null,
      durationUnit: input.duration_unit ?? null,
      quotedTotalMinor: q.totalWithRedeemMinor,
      customFields: input.custom_fields ?? null,
      createdAt: at,
      modifiedAt: at,
    }),
  );
  plan
    .add(
      insertSelect(
        ctx.db,
        cartItems,
        {
          appId: ctx.appId,
          cartId: cart.id,
          itemId: sql`value ->> '$.itemId'`,
          qty: sql`value ->> '$.qty'`,
          modifierValueIds: sql`value -> '$.modifierValueIds'`,
          bundleSelections: sql`value -> '$.bundleSelections'`,
          unitPriceMinor: sql`value ->> '$.unitPriceMinor'`,
          createdAt: at,
        },
        sql`FROM json_each(${JSON.stringify(lineRows(ctx, 0, q, at))})`,
      ),
    )
    .event(
      rowEvent("cart.created", carts, sql`id = ${cart.id}`, sql`json_object('id', id, 'customer_id', customer_id)`),
    );
  const storedCart = plan.read<CartRow>(ctx.db.select().from(carts).where(sql`${carts.id} = ${cart.id}`));
  const storedLines = plan.read<LineRow>(
    ctx.db.select().from(cartItems).where(sql`${cartItems.cartId} = ${cart.id}`).orderBy(asc(cartItems.id)),
  );
  const result = await plan.run(ctx.events);
  const [row] = result.rows(storedCart);
  const rows = result.rows(storedLines);
  // Cart Details' answer, priced as it prices (by the stored lines) from the facts read above.
  const priced = priceCartWith(row!, rows, { items: facts.priced, voucher }, pricing);
  return shownCart(ctx, row!, rows, priced, { items: facts.items, customer: customers.get(customerId) ?? null }, true);
}

/** CA14 Update Cart: only an open cart of the customer's; `items` replaces the lines. */
export async function updateCart(
  ctx: ServiceContext,
  customerId: number,
  id: number,
  input: UpdateCart,
): Promise<Cart> {
  const { cart } = await findCart(ctx, id, customerId);
  if (cart.status !== "open") {
    throw ApiError.conflict("cart_checked_out", `Cart ${id} is ${cart.status}; create a new cart.`, {
      order_id: cart.orderId,
    });
  }
  await checkLocation(ctx, customerId, input.location_id);
  const at = nowIso();
  const changes = [];
  let quotedTotal: number | undefined;
  if (input.items) {
    const q = await quoteLines(ctx, customerId, input, cart);
    quotedTotal = q.totalWithRedeemMinor;
    changes.push(
      ctx.db.delete(cartItems).where(eq(cartItems.cartId, id)),
      ctx.db.insert(cartItems).values(lineRows(ctx, id, q, at)),
    );
  }
  const recurring = input.is_recurring ?? cart.isRecurring;
  const duration = input.duration !== undefined ? input.duration : cart.duration;
  const unit = input.duration_unit !== undefined ? input.duration_unit : cart.durationUnit;
  if (recurring && (duration == null || unit == null))
    throw ApiError.validation({ duration: ["A recurring cart needs `duration` and `duration_unit`."] });
  // Only an open cart changes: a checkout that won the race leaves this update with nothing to write.
  const open = and(eq(carts.id, id), eq(carts.status, "open"));
  changes.unshift(
    ctx.db
      .update(carts)
      .set({
        voucherCode: input.voucher_code,
        locationId: input.location_id,
        walletRedeemMinor: input.wallet_redeem_amount,
        notes: input.notes,
        receiver: input.receiver,
        isRecurring: input.is_recurring,
        duration: input.duration,
        durationUnit: input.duration_unit,
        cartProvider: input.cart_provider,
        customFields: input.custom_fields,
        modifiedAt: at,
      })
      .where(open),
  );
  const { applied } = await emit(ctx.db, ctx.events, changes, [newEvent(ctx.appId, "cart.updated", { id })], {
    guard: sql`EXISTS (SELECT 1 FROM carts WHERE id = ${id} AND status = 'open')`,
  });
  if (!applied) throw ApiError.conflict("cart_checked_out", `Cart ${id} was checked out meanwhile; create a new cart.`);
  const view = await cartDetails(ctx, id);
  // The lines changed: the customer saw the new total in this answer. Otherwise cartDetails kept it.
  if (quotedTotal !== undefined || view.cart_price_updated) {
    await ctx.db
      .update(carts)
      .set({ quotedTotalMinor: Math.round(view.total_cart_price * 100) })
      .where(eq(carts.id, id));
    view.cart_price_updated = false;
  }
  return view;
}

export type CartSummary = {
  id: number;
  app_id: number;
  customer_id: number;
  status: CartRow["status"];
  cart_provider: CartRow["cartProvider"];
  items_count: number;
  total_cart_price: number;
  voucher_code: string | null;
  is_recurring: boolean;
  order_id: number | null;
  checked_out_at: string | null;
  created_at: string;
  modified_at: string;
};

/** MO1 List Carts: each cart as last priced (Cart Details prices it now). */
export async function listCarts(ctx: ServiceContext, q: ListQuery): Promise<Page<CartSummary>> {
  const page = await listPage(ctx.db, q, { table: carts, scope: () => live(carts, ctx.appId) });
  const ids = page.results.map((c) => c.id);
  const counts = ids.length
    ? await ctx.db
        .select({ cartId: cartItems.cartId, n: sql<number>`count(*)`.mapWith(Number) })
        .from(cartItems)
        .where(sql`${cartItems.cartId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
        .groupBy(cartItems.cartId)
    : [];
  const count = new Map(counts.map((c) => [c.cartId, c.n]));
  return {
    ...page,
    results: page.results.map((c) => ({
      id: c.id,
      app_id: c.appId,
      customer_id: c.customerId,
      status: c.status,
      cart_provider: c.cartProvider,
      items_count: count.get(c.id) ?? 0,
      total_cart_price: toMajor(c.quotedTotalMinor),
      voucher_code: c.voucherCode,
      is_recurring: c.isRecurring,
      order_id: c.orderId,
      checked_out_at: c.checkedOutAt,
      created_at: c.createdAt,
      modified_at: c.modifiedAt,
    })),
  };
}
