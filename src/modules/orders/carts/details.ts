import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { toMajor } from "../../../core/money";
import { apps } from "../../../core/tenancy";
import { customersFromJson, customersJson } from "../../customers";
import { type CatalogueFacts, readCatalogueFacts } from "../../items";
import { type FoundVoucher, findVoucherOfCode } from "../../vouchers";
import type { Quote } from "../pricing/quote";
import { totalsView } from "../shared";
import { cartItems, carts } from "../tables";
import { type PricingContext, priceCartWith, pricingContext } from "./pricing";
import type { Cart } from "./schemas";

export type CartRow = typeof carts.$inferSelect;
export type LineRow = typeof cartItems.$inferSelect;

export const cartNotFound = (id: number) => ApiError.notFound("cart_not_found", `Cart ${id}`);

/** The cart (of `customerId` when given: another customer's cart is a 404, not a 403). */
export async function findCart(ctx: ServiceContext, id: number, customerId?: number) {
  const found = await readCart(ctx, id, customerId);
  if (!found) throw cartNotFound(id);
  return found;
}

/** The cart `id` (a number, or a subquery's: a recurring purchase's cart) and its lines, or undefined. */
async function readCart(ctx: ServiceContext, id: number | SQL, customerId?: number) {
  const [cartRows, lines] = await ctx.db.batch([
    ctx.db
      .select()
      .from(carts)
      .where(
        and(
          sql`${carts.id} = ${id}`,
          live(carts, ctx.appId),
          customerId === undefined ? undefined : eq(carts.customerId, customerId),
        ),
      ),
    ctx.db.select().from(cartItems).where(sql`${cartItems.cartId} = ${id}`).orderBy(asc(cartItems.id)),
  ]);
  const cart = cartRows[0];
  return cart ? { cart, lines } : undefined;
}

type Priced = { quote: Quote; problems: Map<number, string | null> };
type Extras = { items: Map<number, Cart["cart_items"][number]["item"]>; customer: Cart["customer"] };

export function cartView(cart: CartRow, lines: LineRow[], priced: Priced, extras: Extras): Cart {
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
    buyer: cart.buyer ?? null,
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

/** What a cart is priced and shown with, read beside it: its items, its voucher, the store's context, its customer. */
export type CartFacts = {
  catalogue: (wanted: readonly number[]) => CatalogueFacts;
  voucherOf: (code: string) => Promise<FoundVoucher>;
  pricing: PricingContext;
  customer: Cart["customer"];
};

/**
 * The facts of the cart `id` selects (a number or a subquery), each keyed by it in SQL so that they
 * are read in the cart's own round trip: its lines' items, the voucher of its code with its
 * customer's uses, the store's pricing context and the customer.
 */
export async function readCartFacts(ctx: ServiceContext, id: number | SQL): Promise<CartFacts> {
  const ofCart = (column: string) =>
    sql`(SELECT ${sql.raw(column)} FROM carts WHERE id = ${id} AND app_id = ${ctx.appId})`;
  const [catalogue, voucherOf, pricing, [customers]] = await Promise.all([
    readCatalogueFacts(ctx, sql`(SELECT item_id FROM cart_items WHERE cart_id = ${id} AND app_id = ${ctx.appId})`),
    findVoucherOfCode(ctx, ofCart("voucher_code"), ofCart("customer_id")),
    pricingContext(ctx),
    ctx.db
      .select({ customers: customersJson(ctx.appId, ofCart("customer_id")) })
      .from(apps)
      .where(eq(apps.id, ctx.appId)),
  ]);
  const customer = [...customersFromJson(customers?.customers).values()][0] ?? null;
  return { catalogue, voucherOf, pricing, customer };
}

/** The cart priced from facts read beside it (no query but a voucher code SQL matches otherwise). */
export async function pricedCart(cart: CartRow, lines: LineRow[], facts: CartFacts) {
  const ids = lines.map((l) => l.itemId);
  const catalogue = facts.catalogue(ids);
  const voucher = cart.voucherCode ? await facts.voucherOf(cart.voucherCode) : undefined;
  const priced = priceCartWith(cart, lines, { items: catalogue.priced, voucher }, facts.pricing);
  return { priced, extras: { items: catalogue.items, customer: facts.customer } };
}

/**
 * Cart Details (MO2 for the merchant, CA14 for its customer): priced now, in one round trip (the
 * cart and every fact keyed by its id). `id` may be a subquery (a recurring purchase's cart): then
 * `shownAs` names it in the 404. The customer seeing a total that moved is the one write (`shownCart`).
 */
export async function cartDetails(
  ctx: ServiceContext,
  id: number | SQL,
  opts: { customerId?: number; shownAs?: number } = {},
): Promise<Cart> {
  const [found, facts] = await Promise.all([readCart(ctx, id, opts.customerId), readCartFacts(ctx, id)]);
  if (!found) throw cartNotFound(typeof id === "number" ? id : (opts.shownAs ?? 0));
  const { cart, lines } = found;
  const { priced, extras } = await pricedCart(cart, lines, facts);
  return shownCart(ctx, cart, lines, priced, extras, opts.customerId !== undefined);
}

/** The cart's view; when its customer sees it (`seen`), a total that moved is kept as the one they saw. */
export async function shownCart(
  ctx: ServiceContext,
  cart: CartRow,
  lines: LineRow[],
  priced: Priced,
  extras: Extras,
  seen: boolean,
): Promise<Cart> {
  const view = cartView(cart, lines, priced, extras);
  // The customer has now seen this total: a later checkout flags a move from it. A write, but only
  // when the total moved since they last saw it.
  if (seen && cart.status === "open" && view.cart_price_updated) {
    await ctx.db
      .update(carts)
      .set({ quotedTotalMinor: priced.quote.totalWithRedeemMinor })
      .where(eq(carts.id, cart.id));
  }
  return view;
}
