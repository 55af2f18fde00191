/**
 * The few HTML pages the payment routes serve to a customer's browser: the development gateway's
 * Pay/Fail page, and the result page shown when a checkout gave no success or error URL. Plain
 * HTML with inline styles and no script; every value is escaped.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

/** A CSS source for a URL the page's form may end up at (a redirect after it posts is checked too). */
function formTarget(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : u.protocol;
  } catch {
    return null;
  }
}

/**
 * The pages' Content-Security-Policy: nothing loads but inline styles; forms post only to this
 * Worker, and may then be redirected to the checkout's own success and error URLs.
 */
export function pageCsp(redirects: readonly string[] = []): string {
  const targets = [
    ...new Set(
      redirects
        .filter(Boolean)
        .map(formTarget)
        .filter((t): t is string => t !== null),
    ),
  ];
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `form-action 'self'${targets.map((t) => ` ${t}`).join("")}`,
  ].join("; ");
}

const STYLE =
  "body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:2rem 1rem;color:#1d2330}" +
  "main{max-width:26rem;margin:auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 4px #0002}" +
  "h1{font-size:1.25rem;margin:0 0 .5rem}p{margin:.25rem 0 1rem;color:#555}" +
  "dl{display:grid;grid-template-columns:auto 1fr;gap:.5rem 1rem;margin:1rem 0}dt{color:#666}dd{margin:0;font-weight:600}" +
  "form{display:inline}button{font-size:1rem;padding:.6rem 1.4rem;border:0;border-radius:8px;margin:.25rem;cursor:pointer}" +
  ".pay{background:#127a3a;color:#fff}.fail{background:#b42318;color:#fff}";

function page(lang: "ar" | "en", title: string, body: string): string {
  const dir = lang === "ar" ? "rtl" : "ltr";
  return (
    `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`
  );
}

const WORDS = {
  en: {
    title: "Test payment",
    note: "This is the development card gateway: no card is charged. Choose what the payment should do.",
    order: "Order",
    amount: "Amount",
    pay: "Pay",
    fail: "Fail",
    paid: "Paid",
    paidNote: "The payment was captured. You can close this page.",
    failed: "Payment failed",
    failedNote: "The payment did not go through. You can close this page and try again.",
  },
  ar: {
    title: "دفع تجريبي",
    note: "هذه بوابة الدفع التجريبية: لا تُخصم أي مبالغ من أي بطاقة. اختر نتيجة الدفع.",
    order: "الطلب",
    amount: "المبلغ",
    pay: "ادفع",
    fail: "إفشال الدفع",
    paid: "تم الدفع",
    paidNote: "تم تحصيل المبلغ. يمكنك إغلاق هذه الصفحة.",
    failed: "فشل الدفع",
    failedNote: "لم تتم عملية الدفع. يمكنك إغلاق هذه الصفحة والمحاولة مرة أخرى.",
  },
} as const;

export type FakePageView = {
  lang: "ar" | "en";
  orderId: number;
  /** Already formatted: "12.50 SAR". */
  amount: string;
  /** The callback URLs (relative to this Worker) of the two buttons. */
  payAction: string;
  failAction: string;
};

/** The development gateway's page: the payment's summary and two buttons, each a form POST with no body. */
export function fakePaymentPage(v: FakePageView): string {
  const w = WORDS[v.lang];
  const button = (action: string, cls: string, label: string) =>
    `<form method="post" action="${escapeHtml(action)}"><button class="${cls}" type="submit">${label}</button></form>`;
  return page(
    v.lang,
    w.title,
    `<h1>${w.title}</h1><p>${w.note}</p>` +
      `<dl><dt>${w.order}</dt><dd>#${v.orderId}</dd><dt>${w.amount}</dt><dd>${escapeHtml(v.amount)}</dd></dl>` +
      button(v.payAction, "pay", w.pay) +
      button(v.failAction, "fail", w.fail),
  );
}

/** What the customer sees after paying when the checkout named no URL to return to. */
export function paymentResultPage(lang: "ar" | "en", paid: boolean): string {
  const w = WORDS[lang];
  const title = paid ? w.paid : w.failed;
  return page(lang, title, `<h1>${title}</h1><p>${paid ? w.paidNote : w.failedNote}</p>`);
}
