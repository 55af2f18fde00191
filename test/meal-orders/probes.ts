import type { Fixtures } from "../helpers/contract/fixtures";
import type { ModuleProbes } from "../helpers/contract/suite";

/** Meal checkout by pickup at B's branch: the bodies that name B's plan version reach no further than it. */
const bPickup = (f: Fixtures) => ({ is_pickup: true, pickup_branch_id: f.meals.branch });
/** Meal checkout delivered to A's other customer's location in A's window, by A's own customer. */
const aOtherDelivery = (f: Fixtures) => ({
  delivery_window_id: f.mealCommerce.aWindow,
  primary_location_id: f.app.aOtherLocation,
});

/**
 * The contract suite's probes of the meal-orders module's operations (test/helpers/contract/suite.ts): for
 * each, a request of tenant A naming tenant B's records; for each customer operation, one naming
 * another customer of A. A new operation of the module gets its probes here.
 */
export const probes: ModuleProbes = {
  tenant: {
    hasPurchasedPlan: (f) => ({ body: { plan_id: f.meals.plan } }),
    // Logistics (ML1–ML6, the kitchen day): B's captain, branch, zone and suborder.
    listCaptains: (f) => ({ query: `?id=${f.mealCommerce.bCaptain}` }),
    captainDetails: (f) => ({ path: { captain_id: String(f.mealCommerce.bCaptain) } }),
    updateCaptain: (f) => ({ path: { captain_id: String(f.mealCommerce.bCaptain) }, body: { name: "x" } }),
    deleteCaptain: (f) => ({ path: { captain_id: String(f.mealCommerce.bCaptain) } }),
    createCaptain: (f) => ({
      body: { name: "V", mobile_number: "0551000001", city_id: 1, branch_id: f.meals.branch },
    }),
    listLogisticsBranches: (f) => ({ query: `?id=${f.meals.branch}` }),
    logisticsBranchDetails: (f) => ({ path: { branch_id: String(f.meals.branch) } }),
    updateLogisticsBranch: (f) => ({ path: { branch_id: String(f.meals.branch) }, body: { name_en: "x" } }),
    deleteLogisticsBranch: (f) => ({ path: { branch_id: String(f.meals.branch) } }),
    createLogisticsBranch: (f) => ({
      body: {
        restaurant_id: f.meals.restaurant,
        name_en: "W",
        name_ar: "م",
        city_id: 1,
        location: { lat: 24.7, lng: 46.7 },
      },
    }),
    listLogisticsCities: () => ({}),
    // A point inside B's zone: only A's own windows may answer.
    listSupportedWindows: () => ({ query: "?lat=24.7&lng=46.7" }),
    bulkUpdateSuborders: (f) => ({ body: { suborder_ids: [f.mealCommerce.bSuborder], status: "confirmed" } }),
    kitchenDay: (f) => ({ query: `?date=2026-12-02&branch_id=${f.meals.branch}` }),
    // Meal checkout and orders (CA15–CA19, MM5, renew): B's plan version, subscription, suborder and order.
    getMealVoucheredCart: (f) => ({
      body: {
        ...bPickup(f),
        plan_version_id: f.meals.version,
        start_date: "2026-12-01",
        voucher: f.commerce.bVoucher.code,
      },
    }),
    getMealRedeemedCart: (f) => ({
      body: { ...bPickup(f), plan_version_id: f.meals.version, start_date: "2026-12-01" },
    }),
    getMealDiscountedCart: (f) => ({
      body: { ...bPickup(f), plan_version_id: f.meals.version, start_date: "2026-12-01" },
    }),
    placeMealOrder: (f) => ({
      body: { ...bPickup(f), plan_version_id: f.meals.version, start_date: "2026-12-01", payment_provider: "card" },
    }),
    getMealAddOnRedeemedCart: (f) => ({
      body: {
        subscription_id: f.mealCommerce.bSubscription,
        add_ons: [{ suborder_id: f.mealCommerce.bSuborder, product_id: f.meals.product, qty: 1 }],
      },
    }),
    placeMealAddOnOrder: (f) => ({
      body: {
        subscription_id: f.mealCommerce.bSubscription,
        add_ons: [{ suborder_id: f.mealCommerce.bSuborder, product_id: f.meals.product, qty: 1 }],
        payment_provider: "card",
      },
    }),
    listMyMealOrders: (f) => ({ query: `?id=${f.mealCommerce.bMealOrder}` }),
    getMyMealOrder: (f) => ({ path: { order_id: String(f.commerce.bOrder) } }),
    renewMealSubscription: (f) => ({
      path: { subscription_id: String(f.mealCommerce.bSubscription) },
      body: { payment_provider: "card" },
    }),
    // Meal subscriptions, suborders and complaints (MM1–MM3).
    listMealSubscriptions: (f) => ({ query: `?id=${f.mealCommerce.bSubscription}` }),
    getMealSubscription: (f) => ({ path: { subscription_id: String(f.mealCommerce.bSubscription) } }),
    changeMealSubscriptionLocation: (f) => ({
      path: { subscription_id: String(f.mealCommerce.bSubscription) },
      body: { location_id: f.customers.bLocation },
    }),
    mealSuborderActions: (f) => ({
      path: { subscription_id: String(f.mealCommerce.bSubscription) },
      body: { action: "postpone", dates: ["2026-12-02"] },
    }),
    cancelMealSubscription: (f) => ({ path: { subscription_id: String(f.mealCommerce.bSubscription) }, body: {} }),
    listMealSubscriptionOrders: (f) => ({ path: { subscription_id: String(f.mealCommerce.bSubscription) } }),
    listMealSubscriptionInvoices: (f) => ({ path: { subscription_id: String(f.mealCommerce.bSubscription) } }),
    listMySuborders: (f) => ({ query: `?id=${f.mealCommerce.bSuborder}` }),
    getMySuborder: (f) => ({ path: { suborder_id: String(f.mealCommerce.bSuborder) } }),
    changeSuborderLocation: (f) => ({
      path: { suborder_id: String(f.mealCommerce.bSuborder) },
      body: { location_id: f.customers.bLocation },
    }),
    changeSuborderMeals: (f) => ({
      path: { suborder_id: String(f.mealCommerce.bSuborder) },
      body: { meals: [{ plan_category_id: f.meals.planCategory, option_ids: [f.meals.option] }] },
    }),
    changeSuborderDeliveryWindow: (f) => ({
      path: { suborder_id: String(f.mealCommerce.bSuborder) },
      body: { delivery_window_id: f.mealCommerce.bWindow },
    }),
    bulkChangeSuborderLocation: (f) => ({
      body: { suborder_ids: [f.mealCommerce.bSuborder], location_id: f.customers.bLocation },
    }),
    bulkChangeSuborderDeliveryWindow: (f) => ({
      body: { suborder_ids: [f.mealCommerce.bSuborder], delivery_window_id: f.mealCommerce.bWindow },
    }),
    bulkChangeSuborderPickupBranch: (f) => ({
      body: { suborder_ids: [f.mealCommerce.bSuborder], pickup_branch_id: f.meals.branch },
    }),
    preOrderSuborderMeals: (f) => ({
      body: {
        items: [
          {
            suborder_id: f.mealCommerce.bSuborder,
            meals: [{ plan_category_id: f.meals.planCategory, option_ids: [f.meals.option] }],
          },
        ],
      },
    }),
    listComplaintReasons: () => ({}),
    complainSuborder: (f) => ({
      path: { suborder_id: String(f.mealCommerce.bSuborder) },
      body: { reason: "late_delivery" },
    }),
    getComplaint: (f) => ({ path: { complaint_id: String(f.mealCommerce.bComplaint) } }),
    listMealComplaints: (f) => ({ query: `?id=${f.mealCommerce.bComplaint}` }),
    getMealComplaint: (f) => ({ path: { complaint_id: String(f.mealCommerce.bComplaint) } }),
    updateMealComplaint: (f) => ({
      path: { complaint_id: String(f.mealCommerce.bComplaint) },
      body: { status: "in_review" },
    }),
    listSalesChannelMealOrders: (f) => ({ query: `?id=${f.mealCommerce.bMealOrder}` }),
    getSalesChannelMealOrder: (f) => ({ path: { order_id: String(f.commerce.bOrder) } }),
    listSalesChannelMealSubscriptions: (f) => ({ query: `?id=${f.mealCommerce.bSubscription}` }),
    getSalesChannelMealSubscription: (f) => ({
      path: { subscription_id: String(f.mealCommerce.bSubscription) },
    }),
    listMyChannelMealOrders: (f) => ({ query: `?id=${f.mealCommerce.bMealOrder}` }),
    listMyChannelSubscriptions: (f) => ({ query: `?id=${f.mealCommerce.bSubscription}` }),
    getMyChannelSubscription: (f) => ({ path: { subscription_id: String(f.mealCommerce.bSubscription) } }),
    cancelMyChannelSubscription: (f) => ({
      path: { subscription_id: String(f.mealCommerce.bSubscription) },
      body: {},
    }),
  },
  otherCustomer: {
    listComplaintReasons: () => ({}),
    // The other customer holds an active subscription of this plan: A's customer has not purchased it.
    hasPurchasedPlan: (f) => ({ body: { plan_id: f.mealCommerce.aMeals.plan } }),
    getMealVoucheredCart: (f) => ({
      body: { ...aOtherDelivery(f), plan_version_id: f.mealCommerce.aMeals.version, start_date: "2026-12-01" },
    }),
    getMealRedeemedCart: (f) => ({
      body: { ...aOtherDelivery(f), plan_version_id: f.mealCommerce.aMeals.version, start_date: "2026-12-01" },
    }),
    getMealDiscountedCart: (f) => ({
      body: { ...aOtherDelivery(f), plan_version_id: f.mealCommerce.aMeals.version, start_date: "2026-12-01" },
    }),
    placeMealOrder: (f) => ({
      body: {
        plan_version_id: f.mealCommerce.aMeals.version,
        start_date: "2026-12-01",
        delivery_window_id: f.mealCommerce.aWindow,
        primary_location_id: f.app.aOtherLocation,
        payment_provider: "card",
      },
    }),
    getMealAddOnRedeemedCart: (f) => ({
      body: {
        subscription_id: f.mealCommerce.aOther.subscription,
        add_ons: [{ suborder_id: f.mealCommerce.aOther.suborder, product_id: f.mealCommerce.aMeals.product, qty: 1 }],
      },
    }),
    placeMealAddOnOrder: (f) => ({
      body: {
        subscription_id: f.mealCommerce.aOther.subscription,
        add_ons: [{ suborder_id: f.mealCommerce.aOther.suborder, product_id: f.mealCommerce.aMeals.product, qty: 1 }],
        payment_provider: "card",
      },
    }),
    listMyMealOrders: (f) => ({ query: `?id=${f.mealCommerce.aOther.mealOrder}` }),
    getMyMealOrder: (f) => ({ path: { order_id: String(f.commerce.aOther.order) } }),
    renewMealSubscription: (f) => ({
      path: { subscription_id: String(f.mealCommerce.aOther.subscription) },
      body: { payment_provider: "card" },
    }),
    listMealSubscriptions: (f) => ({ query: `?id=${f.mealCommerce.aOther.subscription}` }),
    getMealSubscription: (f) => ({ path: { subscription_id: String(f.mealCommerce.aOther.subscription) } }),
    changeMealSubscriptionLocation: (f) => ({
      path: { subscription_id: String(f.mealCommerce.aOther.subscription) },
      body: { location_id: f.app.aOtherLocation },
    }),
    mealSuborderActions: (f) => ({
      path: { subscription_id: String(f.mealCommerce.aOther.subscription) },
      body: { action: "postpone", dates: ["2026-12-02"] },
    }),
    cancelMealSubscription: (f) => ({
      path: { subscription_id: String(f.mealCommerce.aOther.subscription) },
      body: {},
    }),
    listMealSubscriptionOrders: (f) => ({ path: { subscription_id: String(f.mealCommerce.aOther.subscription) } }),
    listMealSubscriptionInvoices: (f) => ({ path: { subscription_id: String(f.mealCommerce.aOther.subscription) } }),
    listMySuborders: (f) => ({ query: `?id=${f.mealCommerce.aOther.suborder}` }),
    getMySuborder: (f) => ({ path: { suborder_id: String(f.mealCommerce.aOther.suborder) } }),
    changeSuborderLocation: (f) => ({
      path: { suborder_id: String(f.mealCommerce.aOther.suborder) },
      body: { location_id: f.app.aOtherLocation },
    }),
    changeSuborderMeals: (f) => ({
      path: { suborder_id: String(f.mealCommerce.aOther.suborder) },
      body: {
        meals: [{ plan_category_id: f.mealCommerce.aMeals.planCategory, option_ids: [f.mealCommerce.aMeals.option] }],
      },
    }),
    changeSuborderDeliveryWindow: (f) => ({
      path: { suborder_id: String(f.mealCommerce.aOther.suborder) },
      body: { delivery_window_id: f.mealCommerce.aWindow },
    }),
    bulkChangeSuborderLocation: (f) => ({
      body: { suborder_ids: [f.mealCommerce.aOther.suborder], location_id: f.app.aOtherLocation },
    }),
    bulkChangeSuborderDeliveryWindow: (f) => ({
      body: { suborder_ids: [f.mealCommerce.aOther.suborder], delivery_window_id: f.mealCommerce.aWindow },
    }),
    bulkChangeSuborderPickupBranch: (f) => ({
      body: { suborder_ids: [f.mealCommerce.aOther.suborder], pickup_branch_id: f.mealCommerce.aMeals.branch },
    }),
    preOrderSuborderMeals: (f) => ({
      body: {
        items: [
          {
            suborder_id: f.mealCommerce.aOther.suborder,
            meals: [
              { plan_category_id: f.mealCommerce.aMeals.planCategory, option_ids: [f.mealCommerce.aMeals.option] },
            ],
          },
        ],
      },
    }),
    complainSuborder: (f) => ({
      path: { suborder_id: String(f.mealCommerce.aOther.suborder) },
      body: { reason: "late_delivery" },
    }),
    getComplaint: (f) => ({ path: { complaint_id: String(f.mealCommerce.aOther.complaint) } }),
    listMyChannelMealOrders: (f) => ({ query: `?id=${f.mealCommerce.aOther.mealOrder}` }),
    listMyChannelSubscriptions: (f) => ({ query: `?id=${f.mealCommerce.aOther.subscription}` }),
    getMyChannelSubscription: (f) => ({ path: { subscription_id: String(f.mealCommerce.aOther.subscription) } }),
    cancelMyChannelSubscription: (f) => ({
      path: { subscription_id: String(f.mealCommerce.aOther.subscription) },
      body: {},
    }),
  },
};
