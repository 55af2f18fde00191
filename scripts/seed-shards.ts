// Where the seed's rows go (scripts/seed.ts): each demo store's to its shard, their directory rows to the directory.
import { lit } from "./d1";

/**
 * Store 1 on the first shard, store 2 on the second (docs/shards.md): every isolation check crosses
 * shards. Each store's rows go to its shard (organization n is store n's); the directory gets both.
 */
export const SHARD_OF_STORE: Record<number, string> = { 1: "SHARD_1", 2: "SHARD_2" };
export const rowsOf: Record<string, string[]> = { DIRECTORY: [], SHARD_1: [], SHARD_2: [] };
export const sqlOf = (table: string, row: Record<string, unknown>) =>
  `INSERT OR IGNORE INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.values(row)
    .map((v) => lit(v as never))
    .join(", ")});`;
/** The store a row belongs to: its `app_id`, or the id of a store or an organization. */
const storeOf = (table: string, row: Record<string, unknown>) =>
  Number(table === "apps" || table === "organizations" ? row.id : (row.app_id ?? 1));
export const push = (table: string, row: Record<string, unknown>, text = sqlOf(table, row)) =>
  rowsOf[SHARD_OF_STORE[storeOf(table, row)] ?? "SHARD_1"]!.push(text);

/** Organizations 1 and 2 with stores 1 and 2: each on its shard, and in the directory with its shard. */
export function seedStores(now: string): void {
  for (const [id, name, nameEn, nameAr] of [
    [1, "Demo organization", "Demo store", "المتجر التجريبي"],
    [2, "Other organization", "Other store", "متجر آخر"],
  ] as const) {
    const org = { id, name, created_at: now, modified_at: now };
    const app = { id, org_id: id, name_en: nameEn, name_ar: nameAr, created_at: now, modified_at: now };
    push("organizations", org);
    push("apps", app);
    rowsOf.DIRECTORY!.push(
      sqlOf("organizations", org),
      sqlOf("apps", { ...app, shard: SHARD_OF_STORE[id], provisioned_at: now }),
    );
  }
}
