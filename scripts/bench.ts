/**
 * `npm run bench`: every scenario below in turn, each on a fresh local database, against the floors
 * of its own run (bench/harness.ts); each writes its section of docs/benchmarks.md. One scenario:
 * `npm run bench -- --only NAME`. The order is the document's. `--d1-rtt MS`: the D1 round trip of
 * the latency model (bench/latency.ts), 60 unless given.
 */
import { capacity } from "./bench/capacity";
import { events } from "./bench/events";
import { runScenarios } from "./bench/harness";
import { latency } from "./bench/latency";
import { mealOrders } from "./bench/meal-orders";
import { items, tickets } from "./bench/merchant-lists";
import { orders } from "./bench/orders";
import { reads } from "./bench/reads";
import { bundle, middleware } from "./bench/startup";
import { subscriptions } from "./bench/subscriptions";
import { waits } from "./bench/waits";
import { webhooks } from "./bench/webhooks";
import { year } from "./bench/year";

const SCENARIOS = [
  tickets,
  orders,
  items,
  reads,
  mealOrders,
  middleware,
  bundle,
  events,
  webhooks,
  subscriptions,
  waits,
  latency,
  capacity,
  year,
];

const only = process.argv.indexOf("--only");
await runScenarios(SCENARIOS, only >= 0 ? process.argv[only + 1] : undefined);
process.exit(process.exitCode ?? 0);
