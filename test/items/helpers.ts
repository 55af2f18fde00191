import { beforeAll, expect } from "vitest";
import { itemCategoryLinks } from "../../src/modules/items/tables";
import { APP_1, createFullItem, createPlainItem, db, ensureTenant, tokenFor } from "../helpers/factories";
import { call, json } from "../helpers/request";

export const ITEMS = "/order/v1/merchant/items/";

export type As = (path: string, opts?: { method?: string; body?: unknown }) => Promise<Response>;

/** Calls as a merchant of APP_1 who reads and writes items (its token is taken before the file's tests). */
export function itemsMerchant(): As {
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(APP_1, ["can_read_item", "can_write_item"]);
  });
  return (path, opts = {}) => call(path, { ...opts, token, appId: APP_1 });
}

let seq = 0;
/** A SKU no other item of the run has. */
export const sku = (p = "IT") => `${p}-${Date.now().toString(36)}-${seq++}`;

/** A "Size" modifier category with values S, L and XL. */
export async function sizeCategory(as1: As) {
  return json(
    await as1(`${ITEMS}modifiers/`, {
      method: "POST",
      body: {
        name_en: "Size",
        name_ar: "الحجم",
        values: [
          { name_en: "S", name_ar: "ص" },
          { name_en: "L", name_ar: "ك" },
          { name_en: "XL", name_ar: "ك ك" },
        ],
      },
    }),
  );
}

/** Served every day: the customer app shows only what is served today. */
export const ALWAYS = { servedFromDate: "0001-01-01", servedToDate: "9999-12-31" };

/**
 * The customer app's catalogue in stores `a` and `b`: in `a` a full item (its category and variants),
 * a plain one out of stock and the items that must not show (`hidden`); in `b` items of another store.
 */
export async function catalogueOf(a: number, b: number) {
  await ensureTenant(a);
  await ensureTenant(b);
  const tokenA = await tokenFor(a, ["can_read_item", "can_write_item"]);
  const full = await createFullItem(a, { ...ALWAYS, nameEn: "Cooking class", sku: `COOK-${Date.now()}`, ordering: 1 });
  const plain = await createPlainItem(a, { nameEn: "Flat white", nameAr: "فلات وايت", priceMinor: 1_550, stockQty: 0 });
  // Each of these is not active and must not show.
  const hidden = {
    deleted: (await createPlainItem(a, { nameEn: "Gone", isDeleted: true })).id,
    planOnly: (await createPlainItem(a, { nameEn: "Plan only", isPlanOnly: true })).id,
    ended: (await createPlainItem(a, { nameEn: "Last year", servedToDate: "2001-12-31" })).id,
    future: (await createPlainItem(a, { nameEn: "Next season", servedFromDate: "9000-01-01" })).id,
    variant: full.variants[0]!.id,
  };
  const bItem = await createPlainItem(b, { nameEn: "Other store's coffee" });
  const bFull = await createFullItem(b, ALWAYS);
  // Plan-only and deleted items in the category must not count.
  await db(a)
    .insert(itemCategoryLinks)
    .values([
      { appId: a, itemId: hidden.planOnly, categoryId: full.category.id },
      { appId: a, itemId: hidden.deleted, categoryId: full.category.id },
      { appId: a, itemId: plain.id, categoryId: full.category.id },
    ]);
  return { tokenA, full, plain, hidden, bItem, bFull };
}
export type Catalogue = Awaited<ReturnType<typeof catalogueOf>>;

/**
 * A reservation made by a request that started at `before` holds for `ms`: its expiry is the request's
 * time plus `ms`, and the runtime's clock (which moves only on I/O) puts that time between `before` and
 * now. Exact whatever the machine's pace.
 */
export function expectHeldFor(expiresAt: string, before: number, ms: number) {
  expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(before + ms);
  expect(Date.parse(expiresAt)).toBeLessThanOrEqual(Date.now() + ms);
}
