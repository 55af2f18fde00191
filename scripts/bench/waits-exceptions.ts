/**
 * Why an operation is still past its goal in the waits table (scripts/bench/waits.ts): the measured
 * cause and the next step, by operationId. Kept beside the bench so that the table it writes says
 * it; an operation that meets its goal again needs no line here.
 */
const MEALS_READS =
  "Not folded yet: the meals module's reads it calls take plain ids, so the row it names is read first. " +
  "Next: subquery keys, as the suborder changes now use (restaurantLogisticsOf, dayCategoriesOf).";
const LOGISTICS_BRANCH =
  "The branch write is the meals module's (createStoreBranch / updateBranch / deleteBranch), which checks " +
  "its references one after another. Next: its checks as batch reads, as the other meals merchant writes now do.";
const FIRST_COURIER_READ =
  "Only a store's first courier read ever: it copies in the integrated carriers, then reads; afterwards 1.";
const CHANNEL_CUSTOMER =
  "A sales channel's customer: the provider's customer is found by mobile number (and created on a first " +
  "order) after the channel's customer is read, and the two stores' rows are never joined in one statement, " +
  "since they will live on different databases (docs/shards.md). A store's own customer: 2.";

export const WAIT_EXCEPTIONS: Record<string, string> = {
  carrierWebhook:
    "Fan-out: a carrier's updates are applied one after another, each judged from the state the one before " +
    "left (2 per applied update, 1 per ignored one). Next: one plan for one shipment's updates.",
  cancelSubscription:
    "With a prorated refund: the refund's batch (and a card refund's gateway call) must land before the " +
    "cancellation's; 2 without a refund. Next: a wallet refund and the cancellation in one plan.",
  refundInvoice:
    "Provider: a card refund reserves the amount in a guarded batch before the gateway moves money, then " +
    "records its answer (reads, reserve, call, record); a wallet refund is 2.",
  placeMealOrder: CHANNEL_CUSTOMER,
  getMealDiscountedCart: CHANNEL_CUSTOMER,
  renewMealSubscription:
    "A channel customer new to the provider (created first), or an earlier renewal that lapsed, whose orders " +
    "are read through the orders module afterwards. Next: that read as a subquery of the subscription.",
  createLogisticsBranch: LOGISTICS_BRANCH,
  updateLogisticsBranch: LOGISTICS_BRANCH,
  deleteLogisticsBranch: LOGISTICS_BRANCH,
  updateFulfillment:
    "A merchant's new `location_id`: only the fulfillment's row names the customer whose location it must " +
    "be, and the customers module's location read takes a number. Next: a subquery form of it.",
  updatePickupLocation:
    "A `city_id` or `district_id` given alone: the other comes from the row, and the place check takes plain " +
    "numbers. Next: the place check over a subquery.",
  purchaseShippingLabels:
    "Provider: the carrier's call sits between the reads and the write; with an Idempotency-Key the key is " +
    "claimed before the call, so that a retry never buys a label twice.",
  updateVoucherUsage:
    "Only when a concurrent use of the same order wins the batch: the answer is then read again; else 2.",
  listCouriers: FIRST_COURIER_READ,
  courierDetails: FIRST_COURIER_READ,
  getMyCart:
    "Only when the cart's total changed since the customer last saw it: the new total is recorded, which " +
    "checkout compares against; deferring it would race a checkout sent right after.",
  listMealSubscriptionOrders: MEALS_READS,
  listMealSubscriptionInvoices: MEALS_READS,
  listMyMealOrders: MEALS_READS,
  getMyMealOrder: MEALS_READS,
  listMyChannelMealOrders: MEALS_READS,
  listSalesChannelMealOrders: MEALS_READS,
  getSalesChannelMealOrder: MEALS_READS,
  listLogisticsCities:
    "The delivery cities come from meals (deliveryCityIds) before customers' city list reads them. Next: a " +
    "subquery form of both.",
  listSupportedWindows:
    "The windows at a point (meals' windowsAtPoint) read the zones first. Next: one statement over the zones.",
};
