import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../../core/context";
import { live } from "../../../core/crud/tenant-table";
import { type ListQuery, type ListSpec, listPage, mapPage, type Page, searchColumns } from "../../../core/listing";
import { liveCustomerParent } from "../records/service";
import { customerMemberships, MEMBERSHIP_STATUSES } from "../tables";
import type { Membership } from "./schemas";

type MembershipRow = typeof customerMemberships.$inferSelect;

export function membershipView(r: MembershipRow): Membership {
  return {
    id: r.id,
    customer_id: r.customerId,
    name_en: r.nameEn,
    name_ar: r.nameAr,
    subscription_id: r.subscriptionId,
    status: r.status,
    start_date: r.startDate,
    end_date: r.endDate,
    created_at: r.createdAt,
    modified_at: r.modifiedAt,
  };
}

export const MEMBERSHIP_LIST: ListSpec = {
  fields: {
    id: { column: customerMemberships.id, kind: "integer" },
    status: { column: customerMemberships.status, kind: "string", values: MEMBERSHIP_STATUSES },
    subscription_id: { column: customerMemberships.subscriptionId, kind: "integer", nullable: true },
    name_en: { column: customerMemberships.nameEn, kind: "string" },
    name_ar: { column: customerMemberships.nameAr, kind: "string" },
    start_date: { column: customerMemberships.startDate, kind: "date" },
    end_date: { column: customerMemberships.endDate, kind: "date", nullable: true },
    created_at: { column: customerMemberships.createdAt, kind: "datetime" },
    modified_at: { column: customerMemberships.modifiedAt, kind: "datetime" },
  },
  search: searchColumns(customerMemberships.nameEn, customerMemberships.nameAr),
  searchDescription: "Matches the membership's names (substring).",
  defaultOrder: "-start_date",
  idColumn: customerMemberships.id,
  sync: { modifiedAt: customerMemberships.modifiedAt, softDeleted: false },
};

/** A page of a live customer's memberships (404 `customer_not_found` when the customer is not), in one statement. */
export async function listMemberships(
  ctx: ServiceContext,
  customerId: number,
  q: ListQuery,
): Promise<Page<Membership>> {
  const scope = () => and(live(customerMemberships, ctx.appId), eq(customerMemberships.customerId, customerId))!;
  const parent = liveCustomerParent(ctx, customerId);
  return mapPage(await listPage(ctx.db, q, { table: customerMemberships, scope, parent }), membershipView);
}
