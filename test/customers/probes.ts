import type { ModuleProbes } from "../helpers/contract/suite";

/**
 * The contract suite's probes of the customers module's operations (test/helpers/contract/suite.ts): for
 * each, a request of tenant A naming tenant B's records; for each customer operation, one naming
 * another customer of A. A new operation of the module gets its probes here.
 */
export const probes: ModuleProbes = {
  tenant: {
    // Customer records (MC1, MC2, MC4–MC7): A names B's customer, its location, or B's number.
    listCustomers: (f) => ({ query: `?id=${f.customers.b}` }),
    getCustomer: (f) => ({ path: { customer_id: String(f.customers.b) } }),
    createCustomer: () => ({ body: { country_code: "966", mobile_number: "0500000032" } }),
    updateCustomer: (f) => ({ path: { customer_id: String(f.customers.b) }, body: { name: "Taken" } }),
    listCustomerLocations: (f) => ({ path: { customer_id: String(f.customers.b) } }),
    getCustomerLocation: (f) => ({
      path: { customer_id: String(f.customers.b), location_id: String(f.customers.bLocation) },
    }),
    createCustomerLocation: (f) => ({
      path: { customer_id: String(f.customers.b) },
      body: { latitude: 24.7, longitude: 46.7, city_id: 1 },
    }),
    listCustomerMemberships: (f) => ({ path: { customer_id: String(f.customers.b) } }),
    // Customer wallets (MW1–MW4): A names B's customer, whose wallet holds the marker.
    getCustomerWallet: (f) => ({ path: { customer_id: String(f.customers.b) } }),
    depositPoints: (f) => ({ path: { customer_id: String(f.customers.b) }, body: { amount: 1, reason: "Taken" } }),
    depositCashback: (f) => ({ path: { customer_id: String(f.customers.b) }, body: { amount: 1, reason: "Taken" } }),
    redeemFromWallet: (f) => ({ path: { customer_id: String(f.customers.b) }, body: { kind: "points", amount: 1 } }),
    // Geography is shared reference data; what is per store (the cities it serves) is probed per
    // store in test/customers/geography.test.ts.
    listCountries: () => ({ query: "?code=SA" }),
    listRegions: () => ({ query: "?country_id=1" }),
    listCities: () => ({ query: "?is_supported=true" }),
    listDistricts: () => ({ query: "?city_id=1" }),
    supportCity: () => ({ path: { city_id: "1" } }),
    unsupportCity: () => ({ path: { city_id: "1" } }),
    listSupportedCities: () => ({}),
    // Customer login (CA1–CA5): A names B's customer's number (Register with a number of its own,
    // since a number gets one code a minute), or presents B's refresh token.
    registerCustomer: () => ({ body: { country_code: "966", mobile_number: "0500000033", name: "Taken" } }),
    confirmCustomerRegistration: () => ({ body: { country_code: "966", mobile_number: "0500000032", otp: "123456" } }),
    requestCustomerOtp: () => ({ body: { country_code: "966", mobile_number: "0500000032" } }),
    getCustomerAccessToken: () => ({ body: { country_code: "966", mobile_number: "0500000032", otp: "123456" } }),
    refreshCustomerAccessToken: (f) => ({ body: { refresh_token: f.bRefreshToken } }),
    // Customer app account (CA6–CA9): A's customer names B's records (its own profile has none of B's).
    getProfile: () => ({}),
    updateProfile: () => ({ body: { name: "Taken" } }),
    updateLanguage: () => ({ body: { lang: "en" } }),
    updateAvatar: () => ({ body: { avatar: null } }),
    updatePlatformVersion: () => ({ body: { platform_version: "1.0.0" } }),
    deleteAccount: () => ({}),
    registerFcmToken: () => ({ body: { token: "tenant-a-new-device-token-0123456789", platform: "ios" } }),
    removeFcmToken: (f) => ({ path: { token: f.app.bToken } }),
    listMyLocations: (f) => ({ query: `?id=${f.customers.bLocation}` }),
    getMyLocation: (f) => ({ path: { location_id: String(f.customers.bLocation) } }),
    createMyLocation: () => ({ body: { latitude: 24.7, longitude: 46.7, city_id: 1 } }),
    updateMyLocation: (f) => ({ path: { location_id: String(f.customers.bLocation) }, body: { name_en: "Taken" } }),
    updateMyLocationImage: (f) => ({ path: { location_id: String(f.customers.bLocation) }, body: { image: null } }),
    deleteMyLocation: (f) => ({ path: { location_id: String(f.customers.bLocation) } }),
    listReceivedNotifications: (f) => ({ query: `?notification_id=${f.app.bNotification}` }),
    readNotification: (f) => ({ path: { notification_id: String(f.app.bReceived) } }),
    readAllNotifications: () => ({}),
    // Send Notification (MN1) to B's customer; B's notification by id.
    sendNotification: (f) => ({
      body: { customer_ids: [f.customers.b], title_en: "x", title_ar: "x", body_en: "x", body_ar: "x" },
    }),
    listNotifications: (f) => ({ query: `?id=${f.app.bNotification}` }),
    getNotification: (f) => ({ path: { notification_id: String(f.app.bNotification) } }),
  },
  otherCustomer: {
    getProfile: () => ({}),
    updateProfile: () => ({ body: { name: "Mine" } }),
    updateLanguage: () => ({ body: { lang: "ar" } }),
    updateAvatar: () => ({ body: { avatar: null } }),
    updatePlatformVersion: () => ({ body: { platform_version: "1.0.1" } }),
    deleteAccount: () => ({}),
    registerFcmToken: () => ({ body: { token: "tenant-a-second-device-token-0123456789", platform: "android" } }),
    removeFcmToken: (f) => ({ path: { token: f.app.aOtherToken } }),
    listMyLocations: (f) => ({ query: `?id=${f.app.aOtherLocation}` }),
    getMyLocation: (f) => ({ path: { location_id: String(f.app.aOtherLocation) } }),
    createMyLocation: () => ({ body: { latitude: 24.7, longitude: 46.7, city_id: 1 } }),
    updateMyLocation: (f) => ({ path: { location_id: String(f.app.aOtherLocation) }, body: { name_en: "Taken" } }),
    updateMyLocationImage: (f) => ({ path: { location_id: String(f.app.aOtherLocation) }, body: { image: null } }),
    deleteMyLocation: (f) => ({ path: { location_id: String(f.app.aOtherLocation) } }),
    listReceivedNotifications: (f) => ({ query: `?id=${f.app.aOtherReceived}` }),
    readNotification: (f) => ({ path: { notification_id: String(f.app.aOtherReceived) } }),
    readAllNotifications: () => ({}),
  },
};
