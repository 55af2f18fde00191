import type { JobHandler } from "../../../core/jobs";
import { logTaskFailure } from "../../../core/logging";
import { PermanentSmsError, type SmsEnv, smsSender } from "./senders";

declare module "../../../core/jobs" {
  interface JobRegistry {
    /** One SMS: `to` in international digits ("966534501056"); dropped once `expires_at` has passed. */
    "sms.send": { to: string; text: string; expires_at?: string };
  }
}

/**
 * Sends one queued SMS through the sender `SMS_PROVIDER` names. A message whose code has expired
 * is dropped (a late code is useless); a permanent failure is logged and not retried; any other
 * error is thrown, and the jobs queue retries it.
 */
export function smsJobHandler(fetcher: typeof fetch = fetch): JobHandler<"sms.send"> {
  return async (payload, { appId, env }) => {
    const failed = (error: unknown) => logTaskFailure("job", error, { app_id: appId });
    if (payload.expires_at && payload.expires_at <= new Date().toISOString()) {
      return failed(new PermanentSmsError("sms.send dropped: its code expired before it could be sent"));
    }
    try {
      await smsSender(env satisfies SmsEnv, fetcher).send({ to: payload.to, text: payload.text });
    } catch (error) {
      if (error instanceof PermanentSmsError) return failed(error);
      throw error;
    }
  };
}

export const sendSms = smsJobHandler();
