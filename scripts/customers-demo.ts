/**
 * Bilingual demo customers, as rows (table → snake_case columns): for app 1 four customers (one
 * blocked), with saved locations in Riyadh and Jeddah and a membership; for app 2 two customers.
 * Fixed ids, so that the seed stays idempotent and the wallet and order demos can name them:
 * app 1's customers are 1–4, app 2's are 101–102. Cities and districts come from the geography
 * migration (city 1 Riyadh with district 1 Al Olaya, city 2 Jeddah with district 9 Al Rawdah).
 */
import type { Row } from "./meals-demo";

const NOW = "2026-11-01T09:00:00.000Z";

type DemoCustomer = {
  id: number;
  national: string;
  name: string;
  email: string | null;
  lang: "ar" | "en";
  city: number;
  verified: boolean;
  blocked?: boolean;
};

const CUSTOMERS: Record<number, DemoCustomer[]> = {
  1: [
    {
      id: 1,
      national: "0534501056",
      name: "Sara Al-Qahtani",
      email: "sara@example.com",
      lang: "en",
      city: 1,
      verified: true,
    },
    { id: 2, national: "0501110002", name: "عمر حداد", email: "omar@example.com", lang: "ar", city: 1, verified: true },
    { id: 3, national: "0551110003", name: "ليلى العتيبي", email: null, lang: "ar", city: 2, verified: false },
    {
      id: 4,
      national: "0561110004",
      name: "Yusuf Rahman",
      email: "yusuf@example.com",
      lang: "en",
      city: 1,
      verified: true,
      blocked: true,
    },
  ],
  2: [
    {
      id: 101,
      national: "0534501056",
      name: "Noura Al-Shammari",
      email: "noura@example.com",
      lang: "en",
      city: 1,
      verified: true,
    },
    { id: 102, national: "0591110102", name: "خالد ناصر", email: null, lang: "ar", city: 2, verified: true },
  ],
};

const audit = (app_id: number, ordering = 0) => ({ app_id, created_at: NOW, modified_at: NOW, ordering });

/** The demo customers of `appId` (1 or 2) with their locations and memberships. */
export function customersDemo(appId: 1 | 2): Row[] {
  const rows: Row[] = [];
  for (const c of CUSTOMERS[appId]!) {
    rows.push({
      table: "customers",
      row: {
        id: c.id,
        ...audit(appId),
        country_code: "966",
        mobile_number: `966${c.national.slice(1)}`,
        username: c.national,
        email: c.email,
        name: c.name,
        lang: c.lang,
        current_city_id: c.city,
        is_email_verified: c.email !== null && c.verified ? 1 : 0,
        is_mobile_verified: c.verified ? 1 : 0,
        is_blocked: c.blocked ? 1 : 0,
        joined_at: NOW,
        custom_fields: JSON.stringify({ source: "demo" }),
      },
    });
  }
  const location = (id: number, customerId: number, o: Record<string, unknown>) =>
    rows.push({
      table: "customer_locations",
      row: { id, ...audit(appId), customer_id: customerId, address2: null, ...o },
    });
  const membership = (id: number, customerId: number, o: Record<string, unknown>) =>
    rows.push({ table: "customer_memberships", row: { id, ...audit(appId), customer_id: customerId, ...o } });
  if (appId === 1) {
    location(1, 1, {
      type: "home",
      name_en: "Home",
      name_ar: "المنزل",
      latitude: 24.6911,
      longitude: 46.6855,
      city_id: 1,
      district_id: 1,
      address1: "Olaya St 21",
      formatted_address: "21 Olaya St, Al Olaya, Riyadh 12214",
      postal_code: "12214",
    });
    location(2, 1, {
      type: "work",
      name_en: "Office",
      name_ar: "المكتب",
      latitude: 24.7743,
      longitude: 46.7386,
      city_id: 1,
      district_id: null,
      address1: "King Abdullah Financial District, Tower 3",
    });
    location(3, 3, {
      type: "home",
      name_en: "Home",
      name_ar: "المنزل",
      latitude: 21.5602,
      longitude: 39.1452,
      city_id: 2,
      district_id: 9,
      address1: "Al Rawdah, Street 7",
    });
    membership(1, 1, {
      name_en: "Gold members",
      name_ar: "الأعضاء الذهبيون",
      status: "active",
      start_date: "2026-11-01",
      end_date: "2027-10-31",
    });
    membership(2, 2, {
      name_en: "Monthly box",
      name_ar: "الصندوق الشهري",
      status: "expired",
      start_date: "2026-09-01",
      end_date: "2026-09-30",
    });
  } else {
    location(101, 101, {
      type: "home",
      name_en: "Home",
      name_ar: "المنزل",
      latitude: 24.82,
      longitude: 46.64,
      city_id: 1,
      district_id: 2,
      address1: "Al Malqa, Street 4",
    });
    membership(101, 101, {
      name_en: "Zoo pass",
      name_ar: "تصريح الحديقة",
      status: "active",
      start_date: "2026-11-01",
      end_date: null,
    });
  }
  return rows;
}
