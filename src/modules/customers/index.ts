/** What the app and other modules may use of the customers module. */
export { customerStanding } from "./auth/standing";
export { revokeCustomerSessions } from "./auth/tokens";
export { customerErrorCodes } from "./errors";
export { customerEvents } from "./events";
export { type CityName, citiesByIds, citiesInOrder, citiesQuery } from "./geography/lookup";
export { type City, CitySchema } from "./geography/schemas";
export { CITY_LIST, listCitiesAmong } from "./geography/service";
export { checkPlace, placesOf } from "./locations/places";
export { type Location, LocationSchema } from "./locations/schemas";
export { getLocation, readLocation } from "./locations/service";
export { fanOutPush, sendPushes } from "./notifications/delivery";
export { formatPhoneInternational, type ParsedMobile, parseMobile, phoneRules, tryParseMobile } from "./phone";
export { customerForMobileOf } from "./records/by-mobile";
export { type Customer, CustomerSchema } from "./records/schemas";
export {
  customersFromJson,
  customersJson,
  customerView,
  findCustomer,
  loadCustomer,
  loadCustomers,
} from "./records/service";
export { sendSms } from "./sms/job";
export { addCashbackMovement, cashbackBalanceOf, expireLapsedBalances } from "./wallets/service";
