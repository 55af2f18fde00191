import { describe, expect, it } from "vitest";
import { httpEInvoicingApi } from "../../src/modules/orders/invoices/e-invoice/api";
import { FAKE_ZATCA_URL, fakeZatca } from "../../src/modules/orders/invoices/e-invoice/fake";
import { chain, KINDS, onboarded, SOON_AFTER_ISSUE, signed, UNIT_FIELDS } from "./e-invoice-api-helpers";

/**
 * The local fake after a restart (`npm start` again, a new isolate): a new instance still takes the
 * CSIDs an earlier one issued, and the unit's chain goes on from the PIH the unit sends first. A
 * secret it never issued is still refused.
 */

/** A fake that remembers nothing: what `npm start` has after a restart. */
function restarted() {
  const fake = fakeZatca({ now: () => SOON_AFTER_ISSUE });
  return { fake, api: httpEInvoicingApi({ baseUrl: FAKE_ZATCA_URL, fetcher: fake.fetch }) };
}

describe("the local fake of ZATCA after a restart", () => {
  it("takes the production CSID an earlier fake issued, and the unit's chain goes on", async () => {
    const { api, production } = await onboarded();
    const [first, second] = chain(KINDS.simplifiedInvoice, KINDS.simplifiedInvoice);
    expect((await api.report(production, first!)).kind).toBe("reported");

    const after = restarted();
    expect((await after.api.report(production, second!)).kind).toBe("reported");
    // From there the chain is checked again: a document that does not chain on the second is refused.
    const broken = signed({ icv: 4, pih: first!.invoiceHash });
    const refused = await after.api.report(production, broken);
    expect(refused).toMatchObject({ kind: "rejected", status: 400 });
    const { solution, model, serial } = UNIT_FIELDS.unit;
    expect(after.fake.headOf(`1-${solution}|2-${model}|3-${serial}`)).toBe(broken.invoiceHash);
  });

  it("keeps a CSID's kind: the compliance CSID still cannot report, the production one cannot check compliance", async () => {
    const { compliance, production } = await onboarded();
    const after = restarted();
    expect((await after.api.report(compliance, signed())).kind).toBe("credentials_refused");
    expect((await after.api.complianceInvoice(production, signed())).kind).toBe("credentials_refused");
    expect((await after.api.complianceInvoice(compliance, signed())).kind).toBe("passed");
  });

  it("refuses a secret it did not issue, or an issued one under another certificate", async () => {
    const { compliance, production } = await onboarded();
    const after = restarted();
    const flip = (s: string) => s.replace(/^(.{10})(.)/, (_, head, c) => head + (c === "A" ? "B" : "A"));
    expect((await after.api.report({ ...production, secret: flip(production.secret) }, signed())).kind).toBe(
      "credentials_refused",
    );
    const other = await onboarded();
    expect(
      (await after.api.report({ ...production, binarySecurityToken: other.production.binarySecurityToken }, signed()))
        .kind,
    ).toBe("credentials_refused");
    expect(compliance.secret).not.toBe(production.secret);
  });
});
