import { beforeEventsSent } from "./core/events/outbox";
import { logTaskFailure } from "./core/logging";
import { consumeEInvoiceMessages, type SignMessage, submitDueEverywhere } from "./modules/orders/einvoices/consumer";
import { signWaitingEverywhere } from "./modules/orders/einvoices/signer";
import { endInterruptedOnboardings, warnExpiringUnits } from "./modules/orders/einvoices/unit-sweeps";
import type { OnboardMessage } from "./modules/orders/einvoices/units";
import { consumeDeadLetters, consumeDeliveries } from "./modules/webhooks/consumer";
import { recordDeliveries } from "./modules/webhooks/ledger";
import type { QueueMessage } from "./modules/webhooks/messages";
import { reconcileDeliveries } from "./modules/webhooks/reconcile";

/**
 * The webhooks' consumer Worker (wrangler.webhooks.toml), deployed beside the API: it signs and
 * makes the deliveries, retries them and keeps their ledger, on the events' queues and the API's D1.
 * A script of its own, so that a deploy of the API never cuts a batch of deliveries short, and a
 * delivery's isolate loads none of the API's routers. It imports the webhooks module's delivery files
 * directly, not its index.ts, whose event catalogue would bring every module's events into the bundle.
 *
 * It also onboards the stores' e-invoicing units, signs the ZATCA e-invoices and reports or clears
 * them (docs/zatca.md, "Where the signing runs"): their code (the secp256k1 stamp, about 19 KiB
 * gzipped) has no room in the API's bundle, and this Worker shares the API's D1 and code.
 */

// An event emitted here (`webhook.disabled`) has its deliveries on the ledger before it leaves, as the API's do.
beforeEventsSent(recordDeliveries);

export default {
  async queue(batch, env, ctx) {
    switch (batch.queue) {
      case "commerce-einvoices":
        // Its own queue's messages: wake-ups (of a unit's onboarding, of the signer), not events.
        return consumeEInvoiceMessages(batch as unknown as MessageBatch<SignMessage | OnboardMessage>, env);
      case "commerce-events-dlq":
        return consumeDeadLetters(batch, env, ctx);
      case "commerce-webhooks-slow":
        return consumeDeliveries(batch, env, ctx, "slow");
      default:
        return consumeDeliveries(batch, env, ctx, "fast");
    }
  },
  async scheduled(_controller, env, ctx) {
    // Deliveries whose message was lost are sent again; the ledger's rows stay open until then.
    ctx.waitUntil(reconcileDeliveries(env).catch((error) => logTaskFailure("reconcile deliveries", error)));
    // E-invoices a lost (or failed) wake-up left unsigned, then those due for submission (retries).
    ctx.waitUntil(signWaitingEverywhere(env).then(() => submitDueEverywhere(env)));
    // Units whose production CSID expires within 30 days: the store is told to renew.
    ctx.waitUntil(warnExpiringUnits(env, (p) => ctx.waitUntil(p)));
    // Onboardings whose consumer died after sending the OTP: ended, so the store can try again.
    ctx.waitUntil(endInterruptedOnboardings(env, (p) => ctx.waitUntil(p)));
  },
} satisfies ExportedHandler<Env, QueueMessage>;
