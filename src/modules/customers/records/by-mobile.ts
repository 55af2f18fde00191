import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { customers } from "../tables";
import { customerRecords } from "./service";

type CustomerRow = typeof customers.$inferSelect;

const liveByMobile = (ctx: ServiceContext, mobileNumber: string) =>
  ctx.db
    .select({ id: customers.id })
    .from(customers)
    .where(and(customerRecords.live(ctx), eq(customers.mobileNumber, mobileNumber)))
    .get();

/**
 * The store's live customer with the mobile number of `source` (a customer of another store: a
 * sales channel's), created from it when there is none (`customer.created`). The number is the
 * identity across stores; a race between two requests creates one customer (the unique index).
 */
export async function customerForMobileOf(
  ctx: ServiceContext,
  source: Pick<CustomerRow, "countryCode" | "mobileNumber" | "username" | "name" | "email" | "lang">,
): Promise<number> {
  const found = await liveByMobile(ctx, source.mobileNumber);
  if (found) return found.id;
  try {
    const row = await customerRecords.create(ctx, {
      appId: ctx.appId,
      countryCode: source.countryCode,
      mobileNumber: source.mobileNumber,
      username: source.username,
      name: source.name,
      email: source.email,
      lang: source.lang,
    });
    return row.id;
  } catch (error) {
    const again = /UNIQUE constraint failed: customers\./.test(String((error as Error)?.message))
      ? await liveByMobile(ctx, source.mobileNumber)
      : undefined;
    if (again) return again.id;
    throw error;
  }
}
