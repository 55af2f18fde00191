import { beforeAll, describe, expect, it } from "vitest";
import { TERM_MAX } from "../../src/core/listing";
import { createTicketsFor, ensureTenant, tokenFor } from "../helpers/factories";
import { call, json, problem } from "../helpers/request";

/**
 * Search terms of any script, up to their declared length, answer 200: D1 refuses a LIKE pattern
 * of more than 50 bytes (25 Arabic letters), so no search builds one (core/sql.ts `containsText`).
 */

const STORE = 4395;
const ITEMS = "/order/v1/merchant/items/";
const TICKETS = "/order/v1/merchant/fulfillments/tickets/";
const CUSTOMERS = "/order/v1/merchant/customers/";
let token: string;
const as = (path: string, opts: { method?: string; body?: unknown } = {}) =>
  call(path, { ...opts, token, appId: STORE });

/** Terms of exactly TERM_MAX characters, in words. */
const LATIN = `${"Tea ".repeat(TERM_MAX / 4 - 1)}Teas`;
const ARABIC = `${"شاي ".repeat(TERM_MAX / 4 - 1)}شايي`;
const WILD = "50%_off\\";
const ids: Record<string, number> = {};

beforeAll(async () => {
  await ensureTenant(STORE);
  token = await tokenFor(STORE);
  let n = 0;
  for (const [key, nameEn, nameAr] of [
    ["latin", LATIN, "عربي"],
    ["arabic", "Arabic", ARABIC],
    ["wild", `Deal ${WILD} today`, "عرض"],
    ["plain", "50 off", "خصم"],
  ] as const) {
    const res = await as(ITEMS, {
      method: "POST",
      body: {
        type: "product",
        service_type: "pickup",
        sku: `SEARCH-${n++}`,
        price: 1,
        name_en: nameEn,
        name_ar: nameAr,
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    ids[key] = (await json(res)).id;
  }
  await createTicketsFor(STORE, ids.arabic!, 1, { nameEn: "Arabic", nameAr: ARABIC });
});

const found = async (path: string) => {
  const res = await as(path);
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  return ((await json(res)).results as { id: number }[]).map((r) => r.id);
};
const q = (term: string) => `?search=${encodeURIComponent(term)}`;

describe("search terms up to their declared length", () => {
  it("finds terms of the full length in Latin and in Arabic, and ASCII case-insensitively", async () => {
    expect([LATIN.length, ARABIC.length]).toEqual([TERM_MAX, TERM_MAX]);
    expect(await found(ITEMS + q(LATIN))).toEqual([ids.latin]);
    expect(await found(ITEMS + q(LATIN.toUpperCase()))).toEqual([ids.latin]);
    expect(await found(ITEMS + q(ARABIC))).toEqual([ids.arabic]);
    expect(await found(ITEMS + q(`${"ب".repeat(TERM_MAX)}`))).toEqual([]);
    expect(await found(`${ITEMS}${q(ARABIC)}&${q("شاي").slice(1)}`)).toEqual([ids.arabic]);
  });

  it("matches wildcards and escapes literally, at every length", async () => {
    expect(await found(ITEMS + q(WILD))).toEqual([ids.wild]);
    expect(await found(ITEMS + q("%"))).toEqual([ids.wild]);
    expect(await found(ITEMS + q("_"))).toEqual([ids.wild]);
    expect(await found(ITEMS + q("\\"))).toEqual([ids.wild]);
    for (const c of ["%", "_", "\\"]) expect(await found(ITEMS + q(c.repeat(TERM_MAX))), c).toEqual([]);
  });

  it("counts characters as the document does (code points): 100 emoji are a term, 101 letters are not", async () => {
    expect(await found(ITEMS + q("😀".repeat(TERM_MAX)))).toEqual([]);
    for (const term of ["a".repeat(TERM_MAX + 1), "ب".repeat(TERM_MAX + 1)]) {
      const res = await as(ITEMS + q(term));
      expect(res.status).toBe(400);
      expect((await problem(res)).errors).toHaveProperty("search");
    }
  });

  it("full-length terms in every search of the service: tickets' index, customers' phone forms, plans' body", async () => {
    expect(await found(TICKETS + q(ARABIC))).toHaveLength(1);
    expect(await found(TICKETS + q("ب".repeat(TERM_MAX)))).toEqual([]);
    expect(await found(TICKETS + q("%".repeat(TERM_MAX)))).toEqual([]);
    expect(await found(CUSTOMERS + q("0".repeat(TERM_MAX)))).toEqual([]);
    expect(await found(CUSTOMERS + q("ب".repeat(TERM_MAX)))).toEqual([]);
    const plans = await call("/public-api/v1/plans/", {
      method: "POST",
      appId: STORE,
      body: { search: "ب".repeat(TERM_MAX) },
    });
    expect(plans.status, await plans.clone().text()).toBe(200);
  });
});
