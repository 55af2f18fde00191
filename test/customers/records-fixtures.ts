import { APP_1, shardFor } from "../helpers/factories";

/**
 * The geography rows the customer-records tests name: cities 1 (Riyadh) and 2 (Jeddah) as the
 * geography migration seeds them (created here if it has not), and one district in each.
 */
export async function ensureGeography() {
  const first = <T>(q: string, ...binds: unknown[]) =>
    shardFor(APP_1)
      .prepare(q)
      .bind(...binds)
      .first<T>();
  await shardFor(APP_1)
    .prepare(
      "INSERT OR IGNORE INTO countries (id, code, name_en, name_ar, phone_code) VALUES (1, " +
        "'SA', 'Saudi Arabia', 'السعودية', '966')",
    )
    .run();
  const country = (await first<{ id: number }>("SELECT id FROM countries WHERE code = 'SA'"))!.id;
  await shardFor(APP_1)
    .prepare(
      "INSERT OR IGNORE INTO regions (id, country_id, code, name_en, name_ar) VALUES (1, ?, " +
        "'SA-01', 'Riyadh Region', 'منطقة الرياض')",
    )
    .bind(country)
    .run();
  const region = (await first<{ id: number }>("SELECT id FROM regions ORDER BY id LIMIT 1"))!.id;
  await shardFor(APP_1)
    .prepare(
      "INSERT OR IGNORE INTO cities (id, region_id, country_code, name_en, name_ar, lat, lng) VALUES " +
        "(1, ?, 'SA', 'Riyadh', 'الرياض', 24.7136, 46.6753), (2, ?, 'SA', 'Jeddah', 'جدة', 21.5433, 39.1728)",
    )
    .bind(region, region)
    .run();
  await shardFor(APP_1)
    .prepare(
      "INSERT OR IGNORE INTO districts (id, city_id, name_en, name_ar) VALUES " +
        "(90001, 1, 'Records test district', 'حي الاختبار'), (90002, 2, 'Other city district', 'حي آخر')",
    )
    .run();
  const city = (id: number) =>
    first<{ id: number; name_en: string; name_ar: string; country_code: string; keywords: string }>(
      "SELECT id, name_en, name_ar, country_code, keywords FROM cities WHERE id = ?",
      id,
    );
  return { riyadh: (await city(1))!, jeddah: (await city(2))!, districtInRiyadh: 90001, districtInJeddah: 90002 };
}

/** The outbox rows of a store, oldest first, with their parsed payloads. */
export async function outboxOf(appId: number, type?: string) {
  const rows = await shardFor(APP_1)
    .prepare(
      `SELECT type, payload FROM outbox_events WHERE app_id = ?${type ? " AND type = ?" : ""} ORDER BY created_at, rowid`,
    )
    .bind(...(type ? [appId, type] : [appId]))
    .all<{ type: string; payload: string }>();
  return rows.results.map((r) => ({
    type: r.type,
    payload: JSON.parse(r.payload) as { data: Record<string, unknown> },
  }));
}
