import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { payLink } from "../../src/modules/orders/orders/views";
import { problem } from "../helpers/request";
import { browse, cardOrder, cardTransactions, formAction, startPayment } from "./card-payments";
import {
  depositCashback,
  eventsWhere,
  M_ORDERS,
  orderEventTypes,
  orderOf,
  orderRow,
  rowsOf,
  type Store,
  shopperOf,
  stocked,
  storeFor,
} from "./helpers";

// A store of this file's own.
const A = 8401;
let store: Store;

beforeAll(async () => {
  store = await storeFor(A);
});

const ORIGIN = "https://api.test";

describe("Pay link (CA14)", () => {
  it("303 to the card gateway's page, with a pending card transaction for what is owed", async () => {
    const r = await cardOrder(A, 2, 1500, { success_url: "https://shop.example.com/ok" });
    expect(r.payment_url.startsWith(`${ORIGIN}/order/v1/checkout/${r.order.id}/?`)).toBe(true);
    const { page, reference } = await startPayment(r.payment_url);
    expect(page.startsWith(`${ORIGIN}/order/v1/payments/fake/${reference}/?`)).toBe(true);
    const query = new URL(page).searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      order_id: String(r.order.id),
      amount_minor: "3000",
      currency: "SAR",
      lang: "en",
      success_url: "https://shop.example.com/ok",
      error_url: "",
    });
    const [tx] = await cardTransactions(r.order.id);
    expect(tx).toMatchObject({
      app_id: A,
      type: "payment",
      status: "pending",
      amount_minor: 3000,
      gateway: "fake",
      provider_reference: reference,
      payment_url: page,
      invoice_id: r.order.invoices[0].id,
    });
    expect(query.get("transaction_id")).toBe(String(tx!.id));
    expect((await eventsWhere(A, ["transaction.created"], "order_id", r.order.id)).map((e) => e.data)).toEqual([
      {
        id: tx!.id,
        order_id: r.order.id,
        invoice_id: tx!.invoice_id,
        status: "pending",
        amount: 30,
        payment_provider: "card",
      },
    ]);
  });

  it("a changed or unsigned link is refused (403, 400) and starts nothing", async () => {
    const r = await cardOrder(A);
    const other = await cardOrder(A);
    const url = new URL(r.payment_url);
    const changed = (name: string, value: string) => {
      const u = new URL(url);
      u.searchParams.set(name, value);
      return u.toString();
    };
    for (const link of [
      changed("success_url", "https://evil.example.com/"),
      changed("app_id", "1"),
      changed("lang", "ar"),
      changed("signature", "x".repeat(43)),
      // The same signed query on another order's path.
      `${ORIGIN}/order/v1/checkout/${other.order.id}/${url.search}`,
    ]) {
      const res = await browse(link);
      expect(res.status, link).toBe(403);
      expect((await problem(res)).code).toBe("invalid_payment_signature");
    }
    const unsigned = new URL(url);
    unsigned.searchParams.delete("signature");
    expect((await browse(unsigned.toString())).status).toBe(400);
    expect(await cardTransactions(r.order.id)).toEqual([]);
    expect(await cardTransactions(other.order.id)).toEqual([]);
  });

  it("an order that is not a pending card order is a 409 (paid, cancelled, or not paid by card)", async () => {
    const s = await shopperOf(A);
    const item = await stocked(A, 1000, 10);
    await depositCashback(store, s.id, 10);
    const paid = await orderOf(s, [{ item_id: item.id, qty: 1 }], "wallet");
    const cod = await orderOf(s, [{ item_id: item.id, qty: 1 }], "cash_on_delivery");
    const links = { origin: ORIGIN, secret: env.LINK_SIGNING_SECRET };
    for (const id of [paid.order.id, cod.order.id]) {
      const res = await browse(await payLink(links, A, id));
      expect(res.status).toBe(409);
      expect(await problem(res)).toMatchObject({ code: "invalid_state_transition" });
    }
    const cancelled = await cardOrder(A);
    expect(
      (await store.as(`${M_ORDERS}${cancelled.order.id}/`, { method: "PATCH", body: { status: "cancelled" } })).status,
    ).toBe(200);
    const res = await browse(cancelled.payment_url);
    expect(res.status).toBe(409);
    expect(await problem(res)).toMatchObject({ code: "invalid_state_transition", current_status: "cancelled" });
    expect(await cardTransactions(cancelled.order.id)).toEqual([]);
  });
});

describe("The whole card flow over HTTP (development gateway)", () => {
  it("checkout → pay link → the gateway's page → Pay → back to success_url, the order paid", async () => {
    const r = await cardOrder(A, 1, 4999, {
      success_url: "https://shop.example.com/ok?o=1",
      error_url: "https://shop.example.com/ko",
    });
    const { page } = await startPayment(r.payment_url);
    const shown = await browse(page);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain(`#${r.order.id}`);
    expect(html).toContain("49.99 SAR");
    const back = await browse(formAction(html, "pay"), "POST");
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("https://shop.example.com/ok?o=1");
    expect(await orderRow(r.order.id)).toMatchObject({ status: "completed", payment_status: "paid" });
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    // Posting the button again (a reload) goes back to success, changing nothing.
    const again = await browse(formAction(html, "pay"), "POST");
    expect(again.headers.get("location")).toBe("https://shop.example.com/ok?o=1");
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
  });

  it("two gateway sessions' Pay posted at once, three times each: one order.paid, the second payment refunded", async () => {
    const r = await cardOrder(A, 1, 5750, { success_url: "https://shop.example.com/ok" });
    const actions = [];
    for (let i = 0; i < 2; i++) {
      const { page } = await startPayment(r.payment_url);
      actions.push(formAction(await (await browse(page)).text(), "pay"));
    }
    const answers = await Promise.all([...actions, ...actions, ...actions].map((a) => browse(a, "POST")));
    for (const a of answers) expect(a.headers.get("location")).toBe("https://shop.example.com/ok");
    const txs = await cardTransactions(r.order.id);
    expect(txs.map((t) => [t.type, t.status])).toEqual([
      ["payment", "captured"],
      ["payment", "captured"],
      ["refund", "refunded"],
    ]);
    expect(await orderRow(r.order.id)).toMatchObject({ status: "completed", captured_minor: 5750, refunded_minor: 0 });
    expect(await orderEventTypes(A, r.order.id)).toEqual(["order.created", "order.paid", "order.completed"]);
    expect((await rowsOf("SELECT serial FROM invoices WHERE order_id = ?", r.order.id)).length).toBe(1);
  });

  it("Fail goes to error_url and leaves the order pending; without URLs a result page is shown", async () => {
    const r = await cardOrder(A, 1, 1000, { error_url: "https://shop.example.com/ko" });
    const { page } = await startPayment(r.payment_url);
    const html = await (await browse(page)).text();
    const failed = await browse(formAction(html, "fail"), "POST");
    expect(failed.status).toBe(303);
    expect(failed.headers.get("location")).toBe("https://shop.example.com/ko");
    expect(await orderRow(r.order.id)).toMatchObject({ status: "pending", payment_status: "failed" });

    const plain = await cardOrder(A);
    const p = await startPayment(plain.payment_url);
    const paid = await browse(formAction(await (await browse(p.page)).text(), "pay"), "POST");
    expect(paid.status).toBe(200);
    expect(paid.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await orderRow(plain.order.id)).toMatchObject({ status: "completed" });
  });

  it("a forged callback changes nothing (400)", async () => {
    const r = await cardOrder(A);
    const { page, reference } = await startPayment(r.payment_url);
    const action = new URL(formAction(await (await browse(page)).text(), "fail"));
    action.searchParams.set("outcome", "paid");
    const res = await browse(action.toString(), "POST");
    expect(res.status).toBe(400);
    expect((await problem(res)).code).toBe("invalid_payment_signature");
    expect((await cardTransactions(r.order.id))[0]).toMatchObject({ provider_reference: reference, status: "pending" });
    expect((await orderRow(r.order.id)).status).toBe("pending");
  });
});
