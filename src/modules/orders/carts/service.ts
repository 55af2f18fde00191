import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { BatchPlan, insertSelect } from "../../../core/batch-plan";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { literalEvent, rowEvent } from "../../../core/events/outbox";
import { type ListQuery, type ListSpec, listPageWith, type Page } from "../../../core/listing";
import { toMajor } from "../../../core/money";
import { nowIso } from "../../../core/time";
import { loadCustomers, readLocation } from "../../customers";
import { readCatalogueFacts } from "../../items";
import { findVoucher } from "../../vouchers";
import { type Quote, quoteOf } from "../pricing/quote";
import { linesOf } from "../shared";
import { CART_PROVIDERS, CART_STATUSES, cartItems, carts } from "../tables";
import { type CartRow, cartView, findCart, type LineRow, readCartFacts, shownCart } from "./details";
import { priceCartWith, pricingContext } from "./pricing";
import type { Cart, CreateCart, UpdateCart } from "./schemas";

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
  sync: { modifiedAt: carts.modifiedAt, softDeleted: false },
};

const locationRefused = (locationId: number) =>
  ApiError.validation({ location_id: [`Location ${locationId} is not one of the customer's locations.`] });

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
      buyer: input.buyer ?? null,
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

/**
 * CA14 Update Cart: only an open cart of the customer's; `items` replaces the lines. Two round trips:
 * the cart with every fact its new state is priced with (the new lines' items, the voucher, the
 * location), then one batch guarded on the cart being open, which also records the new total as the
 * one the customer saw and reads the cart back for the answer.
 */
export async function updateCart(
  ctx: ServiceContext,
  customerId: number,
  id: number,
  input: UpdateCart,
): Promise<Cart> {
  const lines = input.items ? linesOf(input.items) : undefined;
  const itemIds = lines?.map((l) => l.itemId) ?? [];
  const [found, facts, newItems, newVoucher, location] = await Promise.all([
    findCart(ctx, id, customerId),
    readCartFacts(ctx, id),
    lines ? readCatalogueFacts(ctx, itemIds) : undefined,
    input.voucher_code ? findVoucher(ctx, input.voucher_code, customerId) : undefined,
    input.location_id == null ? undefined : readLocation(ctx, customerId, input.location_id),
  ]);
  const { cart } = found;
  if (cart.status !== "open") {
    throw ApiError.conflict("cart_checked_out", `Cart ${id} is ${cart.status}; create a new cart.`, {
      order_id: cart.orderId,
    });
  }
  if (location === null) throw locationRefused(input.location_id!);
  const at = nowIso();
  // The cart as this update leaves it, priced as Cart Details prices it (by its lines).
  const next: CartRow = {
    ...cart,
    voucherCode: input.voucher_code !== undefined ? input.voucher_code : cart.voucherCode,
    locationId: input.location_id !== undefined ? input.location_id : cart.locationId,
    walletRedeemMinor: input.wallet_redeem_amount ?? cart.walletRedeemMinor,
  };
  const voucherFact = () => (next.voucherCode ? facts.voucherOf(next.voucherCode) : undefined);
  const voucher = input.voucher_code !== undefined ? newVoucher : await voucherFact();
  let nextLines = found.lines;
  let items = facts.catalogue(found.lines.map((l) => l.itemId));
  const changes: BatchItem<"sqlite">[] = [];
  if (lines && newItems) {
    items = newItems(itemIds);
    const q = quoteOf(
      { items: items.priced, voucher },
      { lines, customerId, voucherCode: next.voucherCode, walletRedeemMinor: next.walletRedeemMinor, ...facts.pricing },
      "items",
    );
    const rows = lineRows(ctx, id, q, at);
    nextLines = rows.map((r, i) => ({ ...r, id: -1 - i }) as LineRow);
    changes.push(
      ctx.db.delete(cartItems).where(eq(cartItems.cartId, id)),
      ...(rows.length ? [ctx.db.insert(cartItems).values(rows)] : []),
    );
  }
  const recurring = input.is_recurring ?? cart.isRecurring;
  const duration = input.duration !== undefined ? input.duration : cart.duration;
  const unit = input.duration_unit !== undefined ? input.duration_unit : cart.durationUnit;
  if (recurring && (duration == null || unit == null))
    throw ApiError.validation({ duration: ["A recurring cart needs `duration` and `duration_unit`."] });
  const seen = priceCartWith(next, nextLines, { items: items.priced, voucher }, facts.pricing);
  const plan = new BatchPlan(ctx.db);
  // Only an open cart changes: a checkout that won the race leaves this update with nothing written.
  plan.guard(
    sql`EXISTS (SELECT 1 FROM carts WHERE id = ${id} AND status = 'open')`,
    "cart open",
    ApiError.conflict("cart_checked_out", `Cart ${id} was checked out meanwhile; create a new cart.`),
  );
  plan.add(
    ctx.db
      .update(carts)
      .set({
        voucherCode: input.voucher_code,
        locationId: input.location_id,
        walletRedeemMinor: input.wallet_redeem_amount,
        notes: input.notes,
        receiver: input.receiver,
        buyer: input.buyer,
        isRecurring: input.is_recurring,
        duration: input.duration,
        durationUnit: input.duration_unit,
        cartProvider: input.cart_provider,
        customFields: input.custom_fields,
        // The customer sees this total in the answer.
        quotedTotalMinor: seen.quote.totalWithRedeemMinor,
        modifiedAt: at,
      })
      .where(and(eq(carts.id, id), eq(carts.status, "open"))),
    ...changes,
  );
  plan.event(literalEvent(ctx.appId, "cart.updated", { id }));
  const storedCart = plan.read<CartRow>(ctx.db.select().from(carts).where(eq(carts.id, id)));
  const storedLines = plan.read<LineRow>(
    ctx.db.select().from(cartItems).where(eq(cartItems.cartId, id)).orderBy(asc(cartItems.id)),
  );
  const result = await plan.run(ctx.events);
  const [row] = result.rows(storedCart);
  const rows = result.rows(storedLines);
  const priced = priceCartWith(row!, rows, { items: items.priced, voucher }, facts.pricing);
  return cartView(row!, rows, priced, { items: items.items, customer: facts.customer });
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
  // The page's line counts in the page's own statement: one round trip.
  const { page, nested } = await listPageWith(
    ctx.db,
    q,
    { table: carts, scope: () => live(carts, ctx.appId) },
    (rows) => ({
      counts: sql`(SELECT json_group_array(json_array(cart_id, n)) FROM (SELECT cart_id, count(*) AS n FROM ${cartItems}
      WHERE cart_id IN (SELECT id FROM ${rows}) GROUP BY cart_id))`,
    }),
  );
  const count = new Map((nested.counts as [number, number][]).map(([id, n]) => [id, Number(n)]));
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
