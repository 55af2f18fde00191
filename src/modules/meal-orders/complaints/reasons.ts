/**
 * The reasons a customer may complain about a suborder for (MM2 "List Complaint Reasons"): a fixed
 * list, the same in every store, so that clients and reports can switch on the code. A store with
 * its own reasons would need a table; none has asked.
 */
export const COMPLAINT_REASONS = [
  { code: "not_delivered", name_en: "The meal was not delivered", name_ar: "لم تصل الوجبة" },
  { code: "late_delivery", name_en: "Late delivery", name_ar: "تأخر التوصيل" },
  { code: "wrong_meal", name_en: "Wrong meal", name_ar: "وجبة غير المطلوبة" },
  { code: "missing_item", name_en: "An item is missing", name_ar: "صنف ناقص" },
  { code: "food_quality", name_en: "Food quality", name_ar: "جودة الطعام" },
  { code: "temperature", name_en: "Served too cold or too warm", name_ar: "درجة حرارة غير مناسبة" },
  { code: "damaged_packaging", name_en: "Damaged packaging", name_ar: "تغليف تالف" },
  { code: "allergen", name_en: "An allergen or dislike in the meal", name_ar: "مكوّن مسبب للحساسية أو غير مرغوب" },
  { code: "captain_behaviour", name_en: "The captain's behaviour", name_ar: "سلوك المندوب" },
  { code: "other", name_en: "Other (described by the customer)", name_ar: "أخرى" },
] as const;

export type ComplaintReasonCode = (typeof COMPLAINT_REASONS)[number]["code"];
export const COMPLAINT_REASON_CODES = COMPLAINT_REASONS.map((r) => r.code) as [
  ComplaintReasonCode,
  ...ComplaintReasonCode[],
];

export const reasonOf = (code: string) =>
  COMPLAINT_REASONS.find((r) => r.code === code) ?? { code, name_en: code, name_ar: code };

/** Days after the delivery date (the restaurant's calendar) during which a complaint is taken. */
export const COMPLAINT_WINDOW_DAYS = 3;
