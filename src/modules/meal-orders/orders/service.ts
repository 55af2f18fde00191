import { and, eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { type ListQuery, type ListSpec, listPage, type Page } from "../../../core/listing";
import { inList } from "../../../core/sql";
import { orderNames } from "../../meals";
import { type LinkContext, loadOrders } from "../../orders";
import { MEAL_ORDER_TYPES, mealOrders, mealSubscriptions } from "../tables";
import type { MealOrder } from "./schemas";

type Row = typeof mealOrders.$inferSelect;
type AddOn = { suborder_id: number; product_id: number; qty: number };

/** The fields of a meal order list (the orders module's status and money are filtered by MO4's list). */
export const MEAL_ORDER_LIST: ListSpec = {
  fields: {
    id: { column: mealOrders.orderId, kind: "integer" },
    type: { column: mealOrders.type, kind: "string", values: MEAL_ORDER_TYPES },
    restaurant_id: { column: mealOrders.restaurantId, kind: "integer" },
    plan_id: { column: mealOrders.planId, kind: "integer", nullable: true },
    plan_version_id: { column: mealOrders.planVersionId, kind: "integer", nullable: true },
    start_date: { column: mealOrders.startDate, kind: "date", nullable: true },
    end_date: { column: mealOrders.endDate, kind: "date", nullable: true },
    is_pickup: { column: mealOrders.isPickup, kind: "boolean" },
    channel_app_id: { column: mealOrders.channelAppId, kind: "integer", nullable: true },
    created_at: { column: mealOrders.createdAt, kind: "datetime" },
  },
  defaultOrder: "-id",
  idColumn: mealOrders.orderId,
  sync: { modifiedAt: mealOrders.modifiedAt, softDeleted: false },
};

/** Meal orders as the API shows them, all of `ctx`'s store: three statements whatever their number. */
export async function mealOrderViews(
  ctx: ServiceContext,
  rows: readonly Row[],
  links: LinkContext,
): Promise<MealOrder[]> {
  if (!rows.length) return [];
  const orderIds = rows.map((r) => r.orderId);
  const addedTo = rows.filter((r) => r.type === "add_on" && r.subscriptionId !== null).map((r) => r.subscriptionId!);
  const [orders, subs, names] = await Promise.all([
    loadOrders(ctx, orderIds, links),
    ctx.db
      .select({ id: mealSubscriptions.id, orderId: mealSubscriptions.orderId, numOfDays: mealSubscriptions.numOfDays })
      .from(mealSubscriptions)
      .where(
        and(
          eq(mealSubscriptions.appId, ctx.appId),
          sql`(${inList(mealSubscriptions.orderId, orderIds)} OR ${inList(mealSubscriptions.id, addedTo.length ? addedTo : [0])})`,
        ),
      ),
    orderNames(ctx, {
      planIds: rows.flatMap((r) => (r.planId === null ? [] : [r.planId])),
      branchIds: rows.flatMap((r) => (r.pickupBranchId === null ? [] : [r.pickupBranchId])),
    }),
  ]);
  return rows.map((r): MealOrder => {
    const o = orders.get(r.orderId)!;
    const sub =
      r.type === "add_on" ? subs.find((s) => s.id === r.subscriptionId) : subs.find((s) => s.orderId === r.orderId);
    const plan = r.planId === null ? undefined : names.plans.get(r.planId);
    const branch = r.pickupBranchId === null ? undefined : names.branches.get(r.pickupBranchId);
    const days = r.type === "add_on" ? 0 : r.selections.length;
    return {
      id: r.orderId,
      app_id: r.appId,
      type: r.type,
      status: o.status,
      payment_status: o.payment_status,
      payment_provider: o.payment_provider,
      payment_method: o.payment_method,
      payment_url: o.payment_url,
      reference: o.reference,
      channel_app_id: r.channelAppId,
      customer_profile: o.customer,
      restaurant_id: r.restaurantId,
      plan_id: r.planId,
      plan_version_id: r.planVersionId,
      subscription: plan ? { id: sub?.id ?? null, ...plan, num_of_days: sub?.numOfDays ?? days } : null,
      branch: branch && r.pickupBranchId !== null ? { id: r.pickupBranchId, ...branch } : null,
      start_date: r.startDate,
      end_date: r.endDate,
      num_of_days: days,
      is_pickup: r.isPickup,
      delivery_window_id: r.deliveryWindowId,
      primary_location_id: r.primaryLocationId,
      secondary_location_id: r.secondaryLocationId,
      location: r.location ?? null,
      notes: r.notes,
      add_ons: r.type === "add_on" ? (r.selections as AddOn[]) : [],
      cart_amount: o.sub_total_amount,
      voucher_code: o.voucher_code,
      cart_amount_voucher_discounts: o.sub_total_discounts_amount,
      delivery_fee: o.shipping_amount,
      total_discounts: o.total_discounts_amount,
      total_amount: o.total_amount,
      wallet_discounts: o.wallet_redeem_amount,
      total_amount_with_redeem: o.total_amount_with_redeem,
      tax_amount: o.tax_amount,
      currency: o.currency,
      created_at: r.createdAt,
      modified_at: o.modified_at,
    };
  });
}

async function page(ctx: ServiceContext, q: ListQuery, scope: SQL, links: LinkContext): Promise<Page<MealOrder>> {
  const p = await listPage(ctx.db, q, { table: mealOrders, scope: () => scope });
  return { ...p, results: await mealOrderViews(ctx, p.results, links) };
}

/** MM5 List orders: the customer's own meal orders, newest first. */
export const listMyMealOrders = (ctx: ServiceContext, customerId: number, q: ListQuery, links: LinkContext) =>
  page(ctx, q, and(live(mealOrders, ctx.appId), eq(mealOrders.customerId, customerId))!, links);

/** The customer's meal order `orderId` (its row), or 404 `meal_order_not_found`. */
export async function findMyMealOrder(ctx: ServiceContext, customerId: number, orderId: number): Promise<Row> {
  const row = await ctx.db
    .select()
    .from(mealOrders)
    .where(and(live(mealOrders, ctx.appId), eq(mealOrders.customerId, customerId), eq(mealOrders.orderId, orderId)))
    .get();
  if (!row) throw ApiError.notFound("meal_order_not_found", `Meal order ${orderId}`);
  return row;
}

/** MM5 Order Details: one of the customer's meal orders (another's is a 404). */
export async function myMealOrder(ctx: ServiceContext, customerId: number, orderId: number, links: LinkContext) {
  return (await mealOrderViews(ctx, [await findMyMealOrder(ctx, customerId, orderId)], links))[0]!;
}
