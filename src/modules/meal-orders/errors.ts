import { defineErrorCodes, type RegisteredCodes } from "../../core/errors";

/** The error codes meals commerce answers with, beyond the request path's own. */
export const mealOrderErrorCodes = defineErrorCodes({
  meal_order_not_found: "No such meal order of this customer's (or this store's) in this store.",
  meal_subscription_not_found: "No such meal subscription of this customer's (or this store's) in this store.",
  suborder_not_found: "No such suborder of this customer's (or this store's) in this store.",
  start_date_too_early:
    "The start date is before the first the plan version and the restaurant's notice allow (`first_valid_date`).",
  start_date_too_late:
    "The start date is after the plan version's `max_start_date` (`first_valid_date`: the earliest).",
  start_date_closed: "The start date is an off day or a closed date (`first_valid_date`: the next delivery day).",
  date_not_in_schedule:
    "A date of `dates` is not one of the order's delivery dates (`first_valid_date`: the next one, `delivery_dates`).",
  delivery_not_supported: "The restaurant does not deliver: order with `is_pickup` and a pickup branch.",
  pickup_not_supported: "The restaurant, or the branch named, does not take pickups.",
  location_not_served: "No delivery zone of the restaurant contains the location: the window cannot serve it.",
  suborder_past_cutoff:
    "The suborder's date is past the provider's cutoff for changes (`first_valid_date`: the first date still open).",
  subscription_already_renewed: "The meal subscription already has a renewal order, pending or paid (`order_id`).",
  channel_connection_inactive:
    "The sales channel named by the access token has no active connection with this provider store.",
  captain_not_found: "No such captain in this store.",
  captain_mobile_taken: "Another live captain of the store has this mobile number (`captain_id` names it).",
  captain_in_use:
    "Suborders still to be delivered, today or later, are assigned to the captain (`suborders` names them).",
  captain_inactive: "The captain is not active: suborders cannot be assigned to them.",
  branch_in_use: "Live captains work from the branch (`captains` names them); move them first.",
  meal_subscription_not_active:
    "The suborder's meal subscription is pending, cancelled or expired: its suborders cannot move (`subscription_status`).",
  suborder_frozen: "The suborder is held by a pause: it has no delivery date until the subscription resumes.",
  suborder_is_pickup: "The suborder is picked up at a branch: it has no captain and no delivery window.",
  suborder_not_changeable:
    "The suborder's `current_status` no longer allows this change (its captain, window, meals, location or date).",
  delivery_window_not_of_restaurant: "The delivery window is not one of the suborder's restaurant.",
  // Managing a subscription (rules.ts): every date rule names `first_valid_date` (and `last_valid_date`).
  suborder_not_pickup: "The suborder is delivered, not picked up at a branch: it has no pickup branch to change.",
  pause_attempts_exhausted: "The subscription has no pause attempts left (`pause_attempts_credits` is 0).",
  pause_credits_exhausted:
    "The days of pausing left (`pause_credits`) are fewer than a pause's minimum (`min_of_pause_days`).",
  pause_too_short: "A pause lasts at least `min_of_pause_days` days: `first_valid_date` is the earliest `to_date`.",
  pause_too_long: "A pause lasts at most the days of pausing left: `last_valid_date` is the latest `to_date`.",
  no_open_deliveries: "No delivery after the cutoff is left for this action (`first_valid_date`, when there is one).",
  no_delivery_on_date: "No delivery of the subscription that can be moved falls on these dates (`dates`).",
  resume_date_out_of_range: "The resume date is outside `first_valid_date`..`last_valid_date` (min/max resume dates).",
  cancel_date_out_of_range: "The cancel date is outside `first_valid_date`..`last_valid_date` (min/max cancel dates).",
  meal_selection_skipped: "The plan skips option selection: its meals are chosen by the provider.",
  pickup_branch_not_of_restaurant: "The branch is not a pickup branch of the suborder's restaurant.",
  // Complaints (MM2).
  complaint_not_found: "No such complaint of this customer's (or this store's) in this store.",
  complaint_not_allowed:
    "Only a delivered or not received suborder can be complained about (`current_status` is the suborder's).",
  complaint_window_closed: "Complaints are taken until `last_valid_date` (3 days after the delivery date).",
  complaint_exists: "The suborder already has a complaint (`complaint_id`).",
});

declare module "../../core/errors" {
  interface ErrorCodeRegistry extends RegisteredCodes<typeof mealOrderErrorCodes> {}
}
