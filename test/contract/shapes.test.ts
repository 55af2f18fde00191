import { beforeAll, describe, expect, it } from "vitest";
import { ItemSchema, VariantSchema } from "../../src/modules/items";
import { TicketListSchema, TicketSchema } from "../../src/modules/tickets/schemas";
import { APP_1, createFullItem, createTicketsFor, tokenFor } from "../helpers/factories";
import { call, json } from "../helpers/request";

// Field lists copied from the interface, section 2.
const SPEC_TICKET = [
  "id",
  "created_at",
  "invoice_item_id",
  "item",
  "name_en",
  "name_ar",
  "status",
  "total_amount",
  "date",
  "time",
  "customer_name",
  "customer_email",
  "customer_phone",
  // Beyond the spec: what a client mirroring the tickets resumes from (see SPEC_ITEM below).
  "modified_at",
];
const SPEC_ITEM_COMMON = [
  "id",
  "custom_fields",
  "images",
  "discount",
  "stock",
  "modifiers",
  "varies_on",
  "bundle_categories",
  "plan_config",
  "off_days",
  "off_dates",
  "app_id",
  "ordering",
  "type",
  "service_type",
  "sku",
  "price",
  "name_en",
  "name_ar",
  "description_en",
  "description_ar",
  "is_plan_only",
  "is_plan_enabled",
  "served_from_date",
  "served_to_date",
  "served_from_time",
  "served_to_time",
  "weight",
];
// Plus the two fields a client mirroring the items needs (docs/interface-decisions.md, "Lists:
// incremental sync"): an item's `modified_at`, and `is_deleted` for `include_deleted=true`.
const SPEC_ITEM = [...SPEC_ITEM_COMMON, "variants", "categories", "modified_at", "is_deleted"];
const SPEC_VARIANT = [...SPEC_ITEM_COMMON, "variant_title_en", "variant_title_ar", "modifier_values"];
const SPEC_DISCOUNT = [
  "is_applied",
  "is_trial_applied",
  "is_usage_price",
  "price_after_discount_no_trial",
  "price_after_discount",
];
const SPEC_STOCK = ["in_stock", "qty"];
const SPEC_MODIFIER = ["id", "ordering", "name_en", "name_ar", "values"];
const SPEC_MODIFIER_VALUE = ["id", "ordering", "name_en", "name_ar"];

const sorted = (xs: string[]) => [...xs].sort();
const keys = (o: object) => sorted(Object.keys(o));

describe("contract: the schemas are the spec's shapes", () => {
  it("Ticket (2.1), Item and variant (2.2) declare exactly the spec's fields", () => {
    expect(sorted(Object.keys(TicketSchema.shape))).toEqual(sorted(SPEC_TICKET));
    expect(sorted(Object.keys(ItemSchema.shape))).toEqual(sorted(SPEC_ITEM));
    expect(sorted(Object.keys(VariantSchema.shape))).toEqual(sorted(SPEC_VARIANT));
  });

  it("nullable exactly where the spec says so", () => {
    const nullable = (schema: { shape: Record<string, { safeParse: (v: unknown) => { success: boolean } }> }) =>
      Object.entries(schema.shape)
        .filter(([, s]) => s.safeParse(null).success)
        .map(([k]) => k)
        .sort();
    expect(nullable(TicketSchema)).toEqual(["customer_email", "customer_name", "customer_phone", "time"]);
    expect(nullable(ItemSchema)).toEqual(["custom_fields", "plan_config"]);
  });
});

describe("contract: live responses are the spec's shapes", () => {
  let body: unknown;
  beforeAll(async () => {
    const token = await tokenFor(APP_1, ["can_read_order"]);
    const full = await createFullItem(APP_1);
    const [t] = await createTicketsFor(APP_1, full.item.id, 1);
    body = await json(await call(`/order/v1/merchant/fulfillments/tickets/?id=${t!.id}`, { token }));
  });

  it("List Tickets validates against its own OpenAPI schema, field for field", () => {
    const parsed = TicketListSchema.strict().safeParse(body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it("every level carries exactly the spec's fields", () => {
    const ticket = (body as { results: Record<string, any>[] }).results[0]!;
    expect(keys(ticket)).toEqual(sorted(SPEC_TICKET));
    expect(keys(ticket.item)).toEqual(sorted(SPEC_ITEM));
    expect(keys(ticket.item.discount)).toEqual(sorted(SPEC_DISCOUNT));
    expect(keys(ticket.item.stock)).toEqual(sorted(SPEC_STOCK));
    expect(keys(ticket.item.modifiers[0])).toEqual(sorted(SPEC_MODIFIER));
    expect(keys(ticket.item.modifiers[0].values[0])).toEqual(sorted(SPEC_MODIFIER_VALUE));
    expect(ticket.item.variants.length).toBeGreaterThan(0);
    for (const v of ticket.item.variants) expect(keys(v)).toEqual(sorted(SPEC_VARIANT));
    expect(ticket.item.categories.every(Number.isInteger)).toBe(true);
    expect(typeof ticket.item.varies_on).toBe("string");
  });
});
