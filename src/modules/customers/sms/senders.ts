/**
 * SMS senders: where a one-time code goes. `SMS_PROVIDER` picks one: `console` (development: the
 * message is printed by `wrangler dev`) or `unifonic` (a Saudi SMS provider's HTTP API).
 */

/** The settings the senders read: vars and optional secrets (a missing secret is a send-time failure). */
export type SmsEnv = {
  ENVIRONMENT: string;
  SMS_PROVIDER?: string;
  /** Unifonic's application id (a secret: `wrangler secret put UNIFONIC_APP_SID`). */
  UNIFONIC_APP_SID?: string;
  /** The registered sender name; empty for the account's default sender. */
  UNIFONIC_SENDER_ID?: string;
};

export type SmsMessage = { to: string; text: string };

export type SmsSender = { name: string; send: (message: SmsMessage) => Promise<void> };

/**
 * A failure that sending again cannot fix (a refused number, a missing credential): the job logs
 * it and gives up instead of retrying. Any other error is retried by the jobs queue.
 */
export class PermanentSmsError extends Error {
  override name = "PermanentSmsError";
}

/**
 * Development only: prints the message as one JSON line, the only log line that may hold a code.
 * Never in production, where the request and job logs must carry no code.
 */
export const consoleSender = (env: SmsEnv): SmsSender => ({
  name: "console",
  async send({ to, text }) {
    if (env.ENVIRONMENT === "production") {
      throw new PermanentSmsError("SMS_PROVIDER is console in production: set it to a real provider");
    }
    console.log(JSON.stringify({ msg: "sms", to, text }));
  },
});

export const UNIFONIC_URL = "https://el.cloud.unifonic.com/rest/SMS/messages";

/** Unifonic's error codes that sending the same message again cannot fix (invalid number, body, sender, duplicate). */
const UNIFONIC_PERMANENT = new Set(["ER-02", "ER-03", "ER-04", "ER-05", "ER-06", "ER-07", "ER-08", "ER-09"]);

type UnifonicAnswer = { success?: boolean; message?: string; errorCode?: string };

/**
 * Unifonic's REST SMS API (docs.unifonic.com, "Sending your first SMS"): POST a form with
 * `AppSid`, `SenderID`, `Recipient` (international digits without + or 00), `Body` and
 * `responseType=JSON`; the answer is `{ success, message, errorCode, data }`, `ER-00` on success.
 * `MessageType=3` classifies the message as a service message (Saudi traffic rules).
 */
export const unifonicSender = (env: SmsEnv, fetcher: typeof fetch = fetch): SmsSender => ({
  name: "unifonic",
  async send({ to, text }) {
    const appSid = env.UNIFONIC_APP_SID;
    if (!appSid) throw new PermanentSmsError("SMS_PROVIDER is unifonic but the UNIFONIC_APP_SID secret is not set");
    const form = new URLSearchParams({ AppSid: appSid, Recipient: to, Body: text, responseType: "JSON" });
    if (env.UNIFONIC_SENDER_ID) form.set("SenderID", env.UNIFONIC_SENDER_ID);
    form.set("MessageType", "3");
    const res = await fetcher(UNIFONIC_URL, {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    // A 5xx or a body that is not JSON is the provider's trouble: retried.
    if (res.status >= 500) throw new Error(`unifonic answered ${res.status}`);
    let answer: UnifonicAnswer;
    try {
      answer = (await res.json()) as UnifonicAnswer;
    } catch {
      throw new Error(`unifonic answered ${res.status} without JSON`);
    }
    if (res.ok && answer.success === true) return;
    // Its `message` names the problem ("Dest num is too short"); never the recipient or the text.
    const what = `unifonic refused the message: ${answer.errorCode ?? res.status} ${answer.message ?? ""}`.trim();
    if (res.status === 401 || res.status === 403 || UNIFONIC_PERMANENT.has(answer.errorCode ?? "")) {
      throw new PermanentSmsError(what);
    }
    throw new Error(what);
  },
});

export const SMS_PROVIDERS = ["console", "unifonic"] as const;

/** The sender `SMS_PROVIDER` names (`console` when unset); an unknown name is a permanent failure. */
export function smsSender(env: SmsEnv, fetcher: typeof fetch = fetch): SmsSender {
  const provider = env.SMS_PROVIDER?.trim() || "console";
  if (provider === "console") return consoleSender(env);
  if (provider === "unifonic") return unifonicSender(env, fetcher);
  return {
    name: provider,
    send: async () => {
      throw new PermanentSmsError(`SMS_PROVIDER ${provider} is not one of ${SMS_PROVIDERS.join(", ")}`);
    },
  };
}
