import { z } from "@hono/zod-openapi";

/**
 * Every event name this API emits, with its payload. Core knows no module: each module declares
 * its events in its own `events.ts` with `defineEvents` and adds them here by declaration merging,
 *
 *   declare module "../../core/events/registry" {
 *     interface EventRegistry extends RegisteredEvents<typeof ticketEvents> {}
 *   }
 *
 * so that `newEvent` and `emit` accept exactly the declared names and payloads, while the runtime
 * catalogue (for webhook subscriptions and the document) is composed by the webhooks module.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules (declaration merging)
export interface EventRegistry {}

export type EventType = keyof EventRegistry & string;

export type EventDefinition = {
  /** What happened, for the event catalogue and the document. */
  description: string;
  /** The schema of the event's `data`. */
  data: z.ZodType;
};

/** A module's events: names to their description and payload schema. */
export function defineEvents<const T extends Record<string, EventDefinition>>(events: T): T {
  return events;
}

/** The registry entries of a module's `defineEvents` result. */
export type RegisteredEvents<T extends Record<string, EventDefinition>> = { [K in keyof T]: T[K] };

/** The `data` a producer gives for an event type. */
export type EventData<T extends EventType> = EventRegistry[T] extends { data: infer S extends z.ZodType }
  ? z.input<S>
  : never;

/** A payload of the form `{ id }` with room for more, the most common event body. */
export const ById = z.object({ id: z.number().int() }).passthrough();
