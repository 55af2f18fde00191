import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../db/columns";

/*
 * The merchant account's tables: the store's settings (currency, VAT, the seller named on tax
 * invoices, time zone, languages) and its bank accounts. One settings row per store, created on
 * first write; a store without one has the defaults below.
 */

/** A Saudi national address: the parts a ZATCA e-invoice names (BR-KSA-09). */
export type SellerAddress = {
  street: string;
  building_number: string;
  district: string;
  city: string;
  postal_code: string;
};

export const STORE_LANGUAGES = ["ar", "en"] as const;

export const storeSettings = sqliteTable("store_settings", {
  appId: integer("app_id").primaryKey(),
  nameEn: text("name_en"),
  nameAr: text("name_ar"),
  logo: text("logo"),
  /** ISO 4217; every currency served today has two decimals (core/money.ts). */
  currency: text("currency").notNull().default("SAR"),
  defaultLang: text("default_lang", { enum: STORE_LANGUAGES }).notNull().default("ar"),
  languages: text("languages", { mode: "json" }).$type<string[]>().notNull().default(["ar", "en"]),
  /** IANA time zone of the store: dates of invoices and reports are in it. */
  timezone: text("timezone").notNull().default("Asia/Riyadh"),
  /** VAT in basis points (1500 = 15%); prices include it. */
  vatPercentageBp: integer("vat_percentage_bp").notNull().default(1500),
  /** The 15-digit VAT registration number printed on tax invoices and in their ZATCA QR. */
  vatNumber: text("vat_number"),
  /** The seller's name in the ZATCA QR (the registered name); the store's name when not set. */
  sellerName: text("seller_name"),
  commercialRegistration: text("commercial_registration"),
  address: text("address"),
  /** The seller's national address, as ZATCA e-invoices carry it (BG-5); null until set. */
  sellerAddress: text("seller_address", { mode: "json" }).$type<SellerAddress>(),
  modifiedAt: text("modified_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
});

export const BANK_ACCOUNT_STATUSES = ["active", "inactive"] as const;

export const bankAccounts = sqliteTable(
  "bank_accounts",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    bankNameEn: text("bank_name_en").notNull(),
    bankNameAr: text("bank_name_ar").notNull(),
    /** Stored whole (bank transfers need it); served masked. */
    iban: text("iban").notNull(),
    accountHolder: text("account_holder").notNull(),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: BANK_ACCOUNT_STATUSES }).notNull().default("active"),
  },
  (t) => [
    index("bank_accounts_app_idx").on(t.appId, t.isDeleted, t.id),
    // One default account per store, whatever the races between the requests that set one.
    uniqueIndex("bank_accounts_default_idx").on(t.appId).where(sql`is_default = 1 AND is_deleted = 0`),
  ],
);
