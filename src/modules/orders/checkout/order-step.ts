import type { BatchPlan, Handle } from "../../../core/batch-plan";
import type { StoreSettings } from "../../account";
import type { Buyer } from "../shared";
import type { CheckoutProvider } from "./config";

// The types of an order's batch, apart from placeOrder, so that the modules adding steps to it
// name them without importing the place that runs them.

/** What every order has, whoever places it. */
export type PlaceOrder = {
  /** `meal`: an order the meals side places (service lines; its caller adds its own rows, a paid hook acts on it). */
  kind: "purchase" | "wallet_topup" | "meal";
  customerId: number | null;
  cartId: number | null;
  provider: CheckoutProvider;
  paymentMethod: string | null;
  cartProvider: "web" | "app" | "pos" | "other";
  reference?: string | null;
  notes?: string | null;
  receiver?: Record<string, unknown> | null;
  /** A VAT-registered buyer: the order's invoices are standard e-invoices. */
  buyer?: Buyer | null;
  location?: Record<string, unknown> | null;
  customFields?: Record<string, unknown> | null;
  recurringPurchaseId?: number | null;
};

/** The order being placed, as a caller's step sees it. */
export type PlacedOrder = {
  order: Handle;
  invoice: Handle;
  /** What it is paid with: `wallet` or `free` when nothing is left for a provider. */
  provider: Payment["provider"];
  currency: string;
  at: string;
  settings: StoreSettings;
};

/**
 * A caller's part of the order's batch (a recurring purchase, subscriptions, a meal order's row, a
 * recurring cycle's charge), after the order's own statements and before "paid", which reads them.
 */
export type OrderStep = (plan: BatchPlan, placed: PlacedOrder) => void;

/** How an order is paid, decided before its batch: what the wallet pays, what is owed to the provider. */
export type Payment = {
  walletMinor: number;
  owed: number;
  /** Nothing is owed: the order is paid in its own batch. */
  paidNow: boolean;
  provider: CheckoutProvider | "free";
  expiresAt: string | null;
};
