import type { ModuleProbes } from "../helpers/contract/suite";

/**
 * The contract suite's probes of the items module's operations (test/helpers/contract/suite.ts): for
 * each, a request of tenant A naming tenant B's records; for each customer operation, one naming
 * another customer of A. A new operation of the module gets its probes here.
 */
export const probes: ModuleProbes = {
  tenant: {
    listModifierCategories: (f) => ({ query: `?id=${f.bModifier}` }),
    getModifierCategory: (f) => ({ path: { category_id: String(f.bModifier) } }),
    createModifierCategory: () => ({
      body: { name_en: "Size", name_ar: "الحجم", values: [{ name_en: "S", name_ar: "ص" }] },
    }),
    updateModifierCategory: (f) => ({ path: { category_id: String(f.bModifier) }, body: { name_en: "Taken" } }),
    deleteModifierCategory: (f) => ({ path: { category_id: String(f.bModifier) } }),
    listBundleCategories: (f) => ({ query: `?id=${f.bBundle}` }),
    getBundleCategory: (f) => ({ path: { category_id: String(f.bBundle) } }),
    createBundleCategory: () => ({ body: { name_en: "Sides", name_ar: "أطباق جانبية" } }),
    updateBundleCategory: (f) => ({ path: { category_id: String(f.bBundle) }, body: { name_en: "Taken" } }),
    deleteBundleCategory: (f) => ({ path: { category_id: String(f.bBundle) } }),
    listItems: (f) => ({ query: `?id=${f.bItem}` }),
    getItem: (f) => ({ path: { item_id: String(f.bItem) } }),
    createItem: () => ({
      body: {
        type: "product",
        service_type: "pickup",
        sku: `A-${Date.now()}`,
        price: 1,
        name_en: "Tea",
        name_ar: "شاي",
      },
    }),
    updateItem: (f) => ({ path: { item_id: String(f.bItem) }, body: { price: 0 } }),
    deleteItem: (f) => ({ path: { item_id: String(f.bItem) } }),
    reserveItem: (f) => ({ path: { item_id: String(f.bItem) }, body: { qty: 1 } }),
    purchaseItem: (f) => ({ path: { item_id: String(f.bItem) }, body: { qty: 1 } }),
    listItemCategories: (f) => ({ query: `?id=${f.bCategory}` }),
    getItemCategory: (f) => ({ path: { category_id: String(f.bCategory) } }),
    createItemCategory: () => ({ body: { name_en: "Drinks", name_ar: "مشروبات" } }),
    updateItemCategory: (f) => ({ path: { category_id: String(f.bCategory) }, body: { name_en: "Taken" } }),
    deleteItemCategory: (f) => ({ path: { category_id: String(f.bCategory) } }),
    getItemDiscount: (f) => ({ path: { item_id: String(f.bItem) } }),
    createItemDiscount: (f) => ({ path: { item_id: String(f.bItem) }, body: { kind: "percentage", value: 10 } }),
    updateItemDiscount: (f) => ({ path: { item_id: String(f.bItem) }, body: { value: 5 } }),
    deleteItemDiscount: (f) => ({ path: { item_id: String(f.bItem) } }),
    createItemImage: (f) => ({ path: { item_id: String(f.bItem) }, body: { url: "https://cdn.example.com/a.jpg" } }),
    updateItemImage: (f) => ({ path: { item_id: String(f.bItem), image_id: "1" }, body: { alt_en: "x" } }),
    deleteItemImage: (f) => ({ path: { item_id: String(f.bItem), image_id: "1" } }),
    listItemTags: (f) => ({ query: `?id=${f.bTag}` }),
    createItemTag: () => ({ body: { name_en: "New", name_ar: "جديد" } }),
    updateItemTag: (f) => ({ path: { tag_id: String(f.bTag) }, body: { name_en: "Taken" } }),
    deleteItemTag: (f) => ({ path: { tag_id: String(f.bTag) } }),
    // Tenant B's settings (59 minutes, 999 units) must not show to A.
    getItemConfig: () => ({}),
    updateItemConfig: () => ({ body: { reservation_minutes: 20 } }),
    bulkUpdateItems: (f) => ({ body: { items: [{ id: f.bItem, name_en: "Taken" }] } }),
    bulkUpdateItemPrices: (f) => ({ body: { items: [{ id: f.bItem, price: 0 }] } }),
    // The customer app's catalogue (CA10): public reads of A naming B's item and category.
    listCatalogueItems: (f) => ({ query: `?category_id=${f.bCategory}` }),
    getCatalogueItem: (f) => ({ path: { item_id: String(f.bItem) } }),
    listCatalogueCategories: (f) => ({ query: `?id=${f.bCategory}` }),
    getCatalogueCategory: (f) => ({ path: { category_id: String(f.bCategory) } }),
  },
};
