/** The words of the invoice PDF, in English and Arabic. */
const WORDS = {
  simplifiedTaxInvoice: ["Simplified Tax Invoice", "فاتورة ضريبية مبسطة"],
  taxInvoice: ["Tax Invoice", "فاتورة ضريبية"],
  invoice: ["Invoice", "فاتورة"],
  creditNote: ["Credit Note", "إشعار دائن"],
  seller: ["Seller", "البائع"],
  vatNumber: ["VAT number", "الرقم الضريبي"],
  crn: ["CR number", "السجل التجاري"],
  address: ["Address", "العنوان"],
  serial: ["Invoice number", "رقم الفاتورة"],
  issued: ["Issue date", "تاريخ الإصدار"],
  due: ["Due date", "تاريخ الاستحقاق"],
  status: ["Status", "الحالة"],
  order: ["Order", "رقم الطلب"],
  original: ["Original invoice", "الفاتورة الأصلية"],
  reason: ["Refund reason", "سبب الاسترجاع"],
  customer: ["Customer", "العميل"],
  mobile: ["Mobile", "الجوال"],
  description: ["Description", "الوصف"],
  qty: ["Qty", "الكمية"],
  unitPrice: ["Unit price", "سعر الوحدة"],
  exclVat: ["Excl. VAT", "بدون الضريبة"],
  vat: ["VAT", "الضريبة"],
  total: ["Total", "الإجمالي"],
  voucher: ["Voucher discount", "خصم القسيمة"],
  subTotal: ["Subtotal", "المجموع الفرعي"],
  discounts: ["Discounts", "الخصومات"],
  shipping: ["Shipping", "الشحن"],
  setup: ["Setup", "رسوم التجهيز"],
  totalExclVat: ["Total excl. VAT", "الإجمالي بدون الضريبة"],
  vatOf: ["VAT", "ضريبة القيمة المضافة"],
  totalInclVat: ["Total incl. VAT", "الإجمالي شامل الضريبة"],
  wallet: ["Paid from wallet", "المدفوع من المحفظة"],
  amountPaid: ["Amount paid", "المبلغ المدفوع"],
  amountDue: ["Amount due", "المبلغ المستحق"],
  amountRefunded: ["Amount refunded", "المبلغ المسترد"],
  amountsIn: ["Amounts in", "المبالغ بعملة"],
  page: ["Page", "صفحة"],
  of: ["of", "من"],
  paid: ["Paid", "مدفوعة"],
  unpaid: ["Unpaid", "غير مدفوعة"],
  void: ["Void", "ملغاة"],
} as const;

export type Word = keyof typeof WORDS;

export const wordsFor =
  (lang: "en" | "ar") =>
  (w: Word): string =>
    WORDS[w][lang === "en" ? 0 : 1];
