/** The push adapters' common shapes (pusher.ts picks one; fcm.ts is one). */

/** One push to one device, in the language of its customer. */
export type PushMessage = { token: string; title: string; body: string; data: Record<string, string> };

/**
 * What became of one push: delivered to FCM; refused for good because the token is dead (the
 * caller deactivates it); refused for good for another reason; or worth retrying later.
 */
export type PushOutcome =
  | { status: "sent" }
  | { status: "invalid_token"; reason: string }
  | { status: "failed"; reason: string }
  | { status: "retry"; reason: string; retryAfterS?: number };

export interface Pusher {
  /** Sends one push. Throws when it could not be tried (credentials refused): the caller retries it. */
  send(message: PushMessage): Promise<PushOutcome>;
}
