import { and, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { listed, live, softDeleted } from "../../../core/crud/tenant-table";
import { ApiError } from "../../../core/errors";
import { emit, newEvent } from "../../../core/events/outbox";
import type { ListQuery, ListSpec, Page } from "../../../core/listing";
import { listPage, mapPage } from "../../../core/listing";
import type { Db } from "../../../db/client";
import {
  CHECKOUT_PROVIDERS,
  type CheckoutConfigRow,
  type CheckoutProvider,
  readCheckoutConfig,
} from "../checkout/config";
import type { PaymentProviderView, SavedPaymentMethod } from "./schemas";
import { savedPaymentMethods } from "./tables";

/**
 * The customer's payment methods (CA13): the providers the store offers at checkout with the
 * methods of each, and the cards the customer saved with a gateway (listed without their token,
 * removed by a soft delete).
 */

type Method = PaymentProviderView["methods"][number];
const method = (id: string, name_en: string, name_ar: string): Method => ({ id, name_en, name_ar, image: null });

/** Every provider checkout knows, with its names and methods; a store offers some of them. */
export const PROVIDER_CATALOGUE: Record<CheckoutProvider, PaymentProviderView> = {
  card: {
    provider_id: "card",
    name_en: "Card",
    name_ar: "البطاقة",
    methods: [
      method("mada", "mada", "مدى"),
      method("visa_master", "Visa / Mastercard", "فيزا / ماستركارد"),
      method("apple_pay", "Apple Pay", "Apple Pay"),
    ],
  },
  wallet: {
    provider_id: "wallet",
    name_en: "Wallet",
    name_ar: "المحفظة",
    methods: [method("cashback", "Cashback balance", "رصيد الاسترداد النقدي")],
  },
  cash_on_delivery: {
    provider_id: "cash_on_delivery",
    name_en: "Cash on delivery",
    name_ar: "الدفع عند الاستلام",
    methods: [method("cash", "Cash", "نقداً")],
  },
  bank_transfer: {
    provider_id: "bank_transfer",
    name_en: "Bank transfer",
    name_ar: "تحويل بنكي",
    methods: [method("bank_transfer", "Bank transfer", "تحويل بنكي")],
  },
};

const isProvider = (p: string): p is CheckoutProvider => (CHECKOUT_PROVIDERS as readonly string[]).includes(p);

/** The providers the store offers (`checkout_config.enabled_providers`, its defaults without a row), in its order. */
export async function enabledProviders(db: Db, appId: number): Promise<CheckoutProvider[]> {
  return providersOf(await readCheckoutConfig(db, appId));
}

const providersOf = (config: CheckoutConfigRow): CheckoutProvider[] => [
  ...new Set(config.enabledProviders.filter(isProvider)),
];

/** `enabledProviderGroups` of a configuration already read. */
export const providerGroupsOf = (config: CheckoutConfigRow): PaymentProviderView[] =>
  providerViews(providersOf(config));

/** Providers as the customer app and the checkout result show them. */
export const providerViews = (ids: readonly CheckoutProvider[]): PaymentProviderView[] =>
  ids.map((id) => PROVIDER_CATALOGUE[id]);

/** The store's providers with their methods: CA13's list, and the checkout result's `payment_methods[]`. */
export async function enabledProviderGroups(db: Db, appId: number): Promise<PaymentProviderView[]> {
  return providerViews(await enabledProviders(db, appId));
}

type SavedRow = typeof savedPaymentMethods.$inferSelect;

export const savedMethodView = (r: SavedRow): SavedPaymentMethod => ({
  id: r.id,
  gateway: r.gateway,
  brand: r.brand,
  last4: r.last4,
  expiry_month: r.expiryMonth,
  expiry_year: r.expiryYear,
  is_default: r.isDefault,
  created_at: r.createdAt,
  modified_at: r.modifiedAt,
  is_deleted: r.isDeleted,
});

export const SAVED_METHOD_LIST: ListSpec = {
  fields: {
    id: { column: savedPaymentMethods.id, kind: "integer" },
    gateway: { column: savedPaymentMethods.gateway, kind: "string" },
    brand: { column: savedPaymentMethods.brand, kind: "string" },
    is_default: { column: savedPaymentMethods.isDefault, kind: "boolean" },
    expiry_year: { column: savedPaymentMethods.expiryYear, kind: "integer" },
    created_at: { column: savedPaymentMethods.createdAt, kind: "datetime" },
  },
  // The default card first, then the newest.
  defaultOrder: "-is_default,-created_at",
  idColumn: savedPaymentMethods.id,
  // A removed card is soft-deleted: a mirror asks `include_deleted=true` to see it go.
  sync: { modifiedAt: savedPaymentMethods.modifiedAt, softDeleted: true },
};

/** The customer's live saved cards: every read and write is scoped to them. */
const ofCustomer = (ctx: ServiceContext, customerId: number) =>
  and(live(savedPaymentMethods, ctx.appId), eq(savedPaymentMethods.customerId, customerId))!;

export async function listSavedMethods(
  ctx: ServiceContext,
  customerId: number,
  q: ListQuery,
): Promise<Page<SavedPaymentMethod>> {
  const page = await listPage(ctx.db, q, {
    table: savedPaymentMethods,
    scope: () => and(listed(savedPaymentMethods, ctx.appId, q), eq(savedPaymentMethods.customerId, customerId))!,
  });
  return mapPage(page, savedMethodView);
}

/**
 * Removes one of the customer's saved cards (soft delete) with `payment_method.deleted`, both or
 * neither; another customer's card, or one already removed, is a 404.
 */
export async function deleteSavedMethod(ctx: ServiceContext, customerId: number, id: number): Promise<void> {
  const where = and(ofCustomer(ctx, customerId), eq(savedPaymentMethods.id, id))!;
  const notFound = () => ApiError.notFound("payment_method_not_found", `Payment method ${id}`);
  const [row] = await ctx.db.select({ id: savedPaymentMethods.id }).from(savedPaymentMethods).where(where).limit(1);
  if (!row) throw notFound();
  const { applied } = await emit(
    ctx.db,
    ctx.events,
    [ctx.db.update(savedPaymentMethods).set(softDeleted()).where(where)],
    [newEvent(ctx.appId, "payment_method.deleted", { id, customer_id: customerId })],
    // Written only if the card is still there: a concurrent delete emits once.
    { guard: sql`EXISTS (SELECT 1 FROM ${savedPaymentMethods} WHERE ${where})` },
  );
  if (!applied) throw notFound();
}
