import type { EventSink } from "../../../core/events/outbox";
import { logTaskFailure } from "../../../core/logging";
import { createDb } from "../../../db/client";
import { everyShardBinding, groupByShard } from "../../../db/shards";
import type { EInvoicingApi } from "../invoices/e-invoice/api";
import { eInvoicingApi } from "../invoices/e-invoice/choose-api";
import { consumeOnboardMessages } from "./onboarding";
import { signStores } from "./signer";
import { submitStores } from "./submitter";
import type { OnboardMessage } from "./units";

/**
 * The e-invoices' work in the webhooks Worker (docs/zatca.md): the `commerce-einvoices` queue's
 * wake-ups (sign, then report or clear) and the cron's sweep of what is due.
 */

/** The events' sink of the consumer: sent before the consumer returns (`settle`), not left to waitUntil. */
export function consumerSink(env: Pick<Env, "EVENTS">) {
  const sends: Promise<unknown>[] = [];
  const sink: EventSink = { queue: env.EVENTS, defer: (p) => sends.push(p) };
  return { sink, settle: () => Promise.all(sends) };
}

/** The API `ZATCA_API` names (the webhooks Worker's vars). */
export const apiOf = (env: Env): EInvoicingApi => eInvoicingApi(env as Env & { ZATCA_API?: string });

/** The cron's sweep: every shard's documents due (a retry's time come, or a lost wake-up's). */
export async function submitDueEverywhere(env: Env, api: EInvoicingApi = apiOf(env)): Promise<void> {
  const { sink, settle } = consumerSink(env);
  for (const { name, d1 } of everyShardBinding(env)) {
    try {
      await submitStores(createDb(d1), sink, api, env.EINVOICE_KEY_SECRET);
    } catch (error) {
      logTaskFailure("submit e-invoices", error, { shard: name });
    }
  }
  await settle();
}

/** A wake-up (`einvoice.sign`, an outbox message): the store whose unit took a counter. */
export type SignMessage = { app_id: number; data?: { unit_id?: number } };

/** Seconds before a failed wake-up is tried again: the chain waits at its document meanwhile. */
const FAILED_RETRY_S = 30;

const isOnboarding = (m: Message<SignMessage | OnboardMessage>): m is Message<OnboardMessage> =>
  (m.body as OnboardMessage).type === "einvoice.onboard";

/**
 * The `commerce-einvoices` queue's batch: units' onboardings (onboarding.ts), and each store's
 * documents signed, then submitted. A store whose next document waits for a retry keeps one message,
 * delayed until it is due (the cron's sweep also picks it up); a failed store's messages are retried.
 */
export async function consumeEInvoiceMessages(
  batch: MessageBatch<SignMessage | OnboardMessage>,
  env: Env,
  api: EInvoicingApi = apiOf(env),
): Promise<void> {
  const { sink, settle } = consumerSink(env);
  const onboarding = batch.messages.filter(isOnboarding);
  const signing = batch.messages.filter((m) => !isOnboarding(m)) as Message<SignMessage>[];
  const groups = await groupByShard(env, signing, (m) => m.body.app_id);
  await Promise.all([
    consumeOnboardMessages(onboarding, env, sink, api),
    ...groups.map(async ({ db, items }) => {
      for (const appId of new Set(items.map((m) => m.body.app_id))) {
        const [first, ...others] = items.filter((m) => m.body.app_id === appId);
        try {
          await signStores(db, [appId], env.EINVOICE_KEY_SECRET);
          const { retryInSeconds } = await submitStores(db, sink, api, env.EINVOICE_KEY_SECRET, [appId]);
          for (const m of others) m.ack();
          if (retryInSeconds === null) first!.ack();
          else first!.retry({ delaySeconds: Math.max(retryInSeconds, 1) });
        } catch (error) {
          logTaskFailure("submit e-invoices", error, { app_id: appId });
          for (const m of [first!, ...others]) m.retry({ delaySeconds: FAILED_RETRY_S });
        }
      }
    }),
  ]);
  await settle();
}
