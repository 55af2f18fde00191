/**
 * A B2B buyer as carts and orders store it (shared.ts's `BuyerSchema` validates it and holds the two
 * the same type). Plain types, so that tables.ts need not import shared.ts, which reaches the account
 * module's services.
 */

/** A Saudi national address, as the store's seller address and a buyer's are written. */
export type NationalAddress = {
  street: string;
  building_number: string;
  district: string;
  city: string;
  postal_code: string;
};

export type StoredBuyer = { name: string; vat_number: string; address: NationalAddress };
