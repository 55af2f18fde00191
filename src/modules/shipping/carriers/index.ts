import type { CarrierAdapter, CarrierEnv } from "./adapter";
import { aramexCarrier } from "./aramex";
import { fakeCarrier } from "./fake";

/**
 * The integrated carriers this Worker speaks to. The fake one serves development and tests and is
 * not offered in production (`ENVIRONMENT`); a real one only where its credentials are set.
 */
const ALL: readonly CarrierAdapter[] = [fakeCarrier, aramexCarrier()];

export type ShippingEnv = CarrierEnv;

const offered = (env: ShippingEnv, a: CarrierAdapter) =>
  !(a.code === fakeCarrier.code && env.ENVIRONMENT === "production") && (a.configured?.(env) ?? true);

/** The carriers a store can use in this environment. */
export const carriersOf = (env: ShippingEnv): CarrierAdapter[] => ALL.filter((a) => offered(env, a));

/** The carrier of `code`, or undefined when there is none (or it is not offered here). */
export const carrierOf = (env: ShippingEnv, code: string | null): CarrierAdapter | undefined =>
  code === null ? undefined : carriersOf(env).find((a) => a.code === code);
