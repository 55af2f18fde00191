import { describe, expect, it } from "vitest";
import { newUnitKey, openKey, publicKeyOf, sealKey } from "../../src/modules/orders/invoices/e-invoice/keys";
import { signInvoiceHash, verifyInvoiceHash } from "../../src/modules/orders/invoices/e-invoice/stamp";
import { SDK_SAMPLE } from "./e-invoice-fixtures";

const SECRET = "test-only-einvoice-key-secret-0123456789";

describe("the unit's key at rest", () => {
  it("opens to the key sealed, which still signs for its public key", async () => {
    const key = newUnitKey();
    const sealed = await sealKey(SECRET, "7:1", key);
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(btoa(String.fromCharCode(...key)).slice(0, 16));
    const opened = await openKey(SECRET, "7:1", sealed);
    expect(opened).toEqual(key);
    expect(
      verifyInvoiceHash(SDK_SAMPLE.invoiceHash, signInvoiceHash(SDK_SAMPLE.invoiceHash, opened), publicKeyOf(key)),
    ).toBe(true);
  });

  it("does not open with another secret, on another row, or altered", async () => {
    const sealed = await sealKey(SECRET, "7:1", newUnitKey());
    await expect(openKey(`${SECRET}x`, "7:1", sealed)).rejects.toThrow();
    await expect(openKey(SECRET, "8:1", sealed)).rejects.toThrow();
    const bytes = Uint8Array.from(atob(sealed.slice(3)), (c) => c.charCodeAt(0));
    bytes[20] = (bytes[20] ?? 0) ^ 1;
    await expect(openKey(SECRET, "7:1", `v1.${btoa(String.fromCharCode(...bytes))}`)).rejects.toThrow();
  });

  it("seals the same key differently each time (a fresh IV)", async () => {
    const key = newUnitKey();
    expect(await sealKey(SECRET, "7:1", key)).not.toBe(await sealKey(SECRET, "7:1", key));
  });
});
