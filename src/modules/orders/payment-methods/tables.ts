import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { auditColumns } from "../../../db/columns";

/** A card a customer saved with a gateway (its token never leaves the server). */
export const savedPaymentMethods = sqliteTable(
  "saved_payment_methods",
  {
    id: integer("id").primaryKey(),
    ...auditColumns(),
    customerId: integer("customer_id").notNull(),
    gateway: text("gateway").notNull(),
    brand: text("brand").notNull(),
    last4: text("last4").notNull(),
    expiryMonth: integer("expiry_month").notNull(),
    expiryYear: integer("expiry_year").notNull(),
    token: text("token").notNull(),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("saved_payment_methods_customer_idx").on(t.appId, t.customerId, t.isDeleted)],
);
