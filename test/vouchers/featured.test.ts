import { beforeAll, describe, expect, it } from "vitest";
import { FeaturedVoucherListSchema } from "../../src/modules/vouchers/featured/schemas";
import { createCustomerFor, customerTokenFor, ensureTenant, shardFor, tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";
import { createVoucher, insertOrder } from "./helpers";

const FEATURED = "/order/v1/checkout/featured-vouchers/";
// A store of its own: the list is the store's whole featured set.
const APP = 9031;
let token: string;

beforeAll(async () => {
  await ensureTenant(APP);
  token = await tokenFor(APP, ["can_read_order", "can_write_order"]);
});

describe("Featured Vouchers (CA14)", () => {
  it("lists the featured vouchers the customer can use now, paginated", async () => {
    const customer = await createCustomerFor(APP);
    const as = await customerTokenFor(APP, customer.id);
    const shown = await createVoucher(
      token,
      {
        is_featured: true,
        kind: "fixed",
        value: 12.5,
        discount_on: "delivery",
        min_order_amount: 40,
        max_discount_amount: 12.5,
        ends_at: "2099-01-01T00:00:00Z",
        ordering: 1,
      },
      APP,
    );
    const second = await createVoucher(token, { is_featured: true, value: 7.5, ordering: 2 }, APP);
    await createVoucher(token, { is_featured: false }, APP);
    await createVoucher(token, { is_featured: true, status: "disabled" }, APP);
    await createVoucher(token, { is_featured: true, ends_at: "2020-01-01T00:00:00Z" }, APP);
    await createVoucher(token, { is_featured: true, starts_at: "2099-01-01T00:00:00Z" }, APP);
    const exhausted = await createVoucher(token, { is_featured: true, usage_limit: 1 }, APP);
    await shardFor(APP).prepare("UPDATE vouchers SET usage_count = 1 WHERE id = ?").bind(exhausted.id).run();
    const usedByMe = await createVoucher(token, { is_featured: true, per_customer_limit: 1 }, APP);
    const use = await call(`/order/v1/merchant/vouchers/${usedByMe.code}/usage/`, {
      method: "POST",
      token,
      appId: APP,
      body: { order_id: await insertOrder(APP, customer.id), action: "use" },
    });
    expect(use.status).toBe(200);

    const res = await call(FEATURED, { token: as, appId: APP });
    expect(res.status).toBe(200);
    const page = FeaturedVoucherListSchema.parse(await json(res));
    expect(page).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [
        {
          id: shown.id,
          code: shown.code,
          title_en: shown.title_en,
          title_ar: shown.title_ar,
          kind: "fixed",
          value: 12.5,
          discount_on: "delivery",
          min_order_amount: 40,
          max_discount_amount: 12.5,
          ends_at: "2099-01-01T00:00:00.000Z",
        },
        expect.objectContaining({ id: second.id, kind: "percentage", value: 7.5, ends_at: null }),
      ],
    });
    // Another customer has not used `usedByMe`.
    const other = await createCustomerFor(APP);
    const theirs = await json(await call(FEATURED, { token: await customerTokenFor(APP, other.id), appId: APP }));
    expect(theirs.results.map((v: { id: number }) => v.id)).toContain(usedByMe.id);

    const paged = await json(await call(`${FEATURED}?page_size=1`, { token: as, appId: APP }));
    expect(paged.results.map((v: { id: number }) => v.id)).toEqual([shown.id]);
    expect(paged.next).toContain("page=2");
  });

  it("is for customers: a merchant token is 403, no token 401", async () => {
    const merchant = await call(FEATURED, { token, appId: APP });
    expect(merchant.status).toBe(403);
    expect((await problem(merchant)).code).toBe("wrong_principal");
    expect((await call(FEATURED, { appId: APP })).status).toBe(401);
  });

  it("another store's customer sees that store's vouchers only", async () => {
    await ensureTenant(APP + 1);
    const customer = await createCustomerFor(APP + 1);
    const res = await call(FEATURED, { token: await customerTokenFor(APP + 1, customer.id), appId: APP + 1 });
    expect(res.status).toBe(200);
    expect((await json(res)).count).toBe(0);
  });
});
