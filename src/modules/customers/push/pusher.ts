import { fcmPusher, parseServiceAccount } from "./fcm";
import type { Pusher } from "./types";

export type { Pusher, PushMessage, PushOutcome } from "./types";

/**
 * Push notifications to devices, behind one interface: Firebase Cloud Messaging when the Worker
 * has the `FCM_SERVICE_ACCOUNT` secret (a service account's JSON key), a console pusher without it
 * in development (`wrangler dev` prints each push).
 */

export type PushEnv = {
  ENVIRONMENT: string;
  /** The FCM service account's JSON key (a secret: `wrangler secret put FCM_SERVICE_ACCOUNT`); optional. */
  FCM_SERVICE_ACCOUNT?: string;
};

/** The development pusher: one log line per push, the token shortened. */
export const consolePusher: Pusher = {
  async send(message) {
    console.log(
      JSON.stringify({
        msg: "push (console)",
        token: `${message.token.slice(0, 8)}…`,
        title: message.title,
        body: message.body,
        data: message.data,
      }),
    );
    return { status: "sent" };
  },
};

/** In production without credentials: every push fails, saying why, rather than pretend to send. */
const unconfiguredPusher: Pusher = {
  async send() {
    return { status: "failed", reason: "FCM_SERVICE_ACCOUNT is not set" };
  },
};

/** FCM when the secret is set; otherwise the console in development, nothing in production. */
export function pusherFor(env: PushEnv): Pusher {
  const key = env.FCM_SERVICE_ACCOUNT?.trim();
  if (key) return fcmPusher(parseServiceAccount(key));
  return env.ENVIRONMENT === "production" ? unconfiguredPusher : consolePusher;
}
