import { type CardGateway, GatewayUnavailable } from "../provider";
import { FAKE_GATEWAY_ID, fakeGateway } from "./fake";
import { MYFATOORAH_GATEWAY_ID, type MyFatoorahEnv, myFatoorahGateway } from "./myfatoorah";

/**
 * The card gateways and the choice between them. `CARD_GATEWAY` (wrangler.toml `[vars]`) names
 * the one new payments go through: `fake` (the default, development only) or `myfatoorah`. A
 * refund goes through the gateway that took the payment (`transactions.gateway`), whatever the
 * setting is now: `cardGatewayById`.
 */

export const CARD_GATEWAYS = [FAKE_GATEWAY_ID, MYFATOORAH_GATEWAY_ID] as const;

/** Env as the gateways read it: `wrangler types` knows only the required secrets, not MyFatoorah's optional ones. */
export type GatewayEnv = Env & Partial<Pick<MyFatoorahEnv, "MYFATOORAH_API_KEY" | "MYFATOORAH_WEBHOOK_SECRET">>;

/** A gateway whose every call fails: an unknown name is a configuration error, told at request time. */
function misconfigured(id: string): CardGateway {
  const fail = async (): Promise<never> => {
    throw new GatewayUnavailable(`card gateway ${id} is not one of ${CARD_GATEWAYS.join(", ")}`);
  };
  return { id, createPayment: fail, verifyCallback: fail, refund: fail };
}

/** The gateway named `id` (a transaction's `gateway`). */
export function cardGatewayById(env: Env, id: string, fetcher: typeof fetch = fetch): CardGateway {
  if (id === FAKE_GATEWAY_ID) return fakeGateway(env);
  if (id === MYFATOORAH_GATEWAY_ID) return myFatoorahGateway(env as GatewayEnv, fetcher);
  return misconfigured(id);
}

/** The gateway new card payments go through: `CARD_GATEWAY`, `fake` when unset. */
export function cardGateway(env: Env, fetcher: typeof fetch = fetch): CardGateway {
  return cardGatewayById(env, env.CARD_GATEWAY?.trim() || FAKE_GATEWAY_ID, fetcher);
}
