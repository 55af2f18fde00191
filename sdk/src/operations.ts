// Generated from the OpenAPI document by scripts/clients.ts (npm run clients): do not edit.

/** Which credential the SDK sends: a merchant token, a customer's access token or the platform key. */
export type Credential = "merchant" | "customer" | "platform";

/** The credential of each operation that takes one, by `METHOD /path` (the others are public). */
export const OPERATION_CREDENTIALS: Readonly<Record<string, Credential>> = {
  "GET /order/v1/merchant/items/modifiers/": "merchant",
  "POST /order/v1/merchant/items/modifiers/": "merchant",
  "GET /order/v1/merchant/items/modifiers/{category_id}/": "merchant",
  "PATCH /order/v1/merchant/items/modifiers/{category_id}/": "merchant",
  "DELETE /order/v1/merchant/items/modifiers/{category_id}/": "merchant",
  "GET /order/v1/merchant/items/bundle-categories/": "merchant",
  "POST /order/v1/merchant/items/bundle-categories/": "merchant",
  "GET /order/v1/merchant/items/bundle-categories/{category_id}/": "merchant",
  "PATCH /order/v1/merchant/items/bundle-categories/{category_id}/": "merchant",
  "DELETE /order/v1/merchant/items/bundle-categories/{category_id}/": "merchant",
  "GET /order/v1/merchant/items/categories/": "merchant",
  "POST /order/v1/merchant/items/categories/": "merchant",
  "GET /order/v1/merchant/items/categories/{category_id}/": "merchant",
  "PATCH /order/v1/merchant/items/categories/{category_id}/": "merchant",
  "DELETE /order/v1/merchant/items/categories/{category_id}/": "merchant",
  "GET /order/v1/merchant/items/tags/": "merchant",
  "POST /order/v1/merchant/items/tags/": "merchant",
  "PATCH /order/v1/merchant/items/tags/{tag_id}/": "merchant",
  "DELETE /order/v1/merchant/items/tags/{tag_id}/": "merchant",
  "GET /order/v1/merchant/items/config/": "merchant",
  "POST /order/v1/merchant/items/config/": "merchant",
  "POST /order/v1/merchant/items/bulk-update/": "merchant",
  "POST /order/v1/merchant/items/bulk-update-prices/": "merchant",
  "GET /order/v1/merchant/items/": "merchant",
  "POST /order/v1/merchant/items/": "merchant",
  "GET /order/v1/merchant/items/{item_id}/": "merchant",
  "PATCH /order/v1/merchant/items/{item_id}/": "merchant",
  "DELETE /order/v1/merchant/items/{item_id}/": "merchant",
  "POST /order/v1/merchant/items/{item_id}/reserve/": "merchant",
  "POST /order/v1/merchant/items/{item_id}/purchase/": "merchant",
  "GET /order/v1/merchant/items/{item_id}/discount/": "merchant",
  "POST /order/v1/merchant/items/{item_id}/discount/": "merchant",
  "PATCH /order/v1/merchant/items/{item_id}/discount/": "merchant",
  "DELETE /order/v1/merchant/items/{item_id}/discount/": "merchant",
  "POST /order/v1/merchant/items/{item_id}/images/": "merchant",
  "PATCH /order/v1/merchant/items/{item_id}/images/{image_id}/": "merchant",
  "DELETE /order/v1/merchant/items/{item_id}/images/{image_id}/": "merchant",
  "GET /order/v1/merchant/fulfillments/tickets/": "merchant",
  "POST /order/v1/merchant/fulfillments/tickets/bulk-update/": "merchant",
  "POST /order/v1/merchant/fulfillments/tickets/check-in/": "merchant",
  "POST /order/v1/merchant/meals/restaurants/": "merchant",
  "PATCH /order/v1/merchant/meals/restaurants/{restaurant_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/restaurants/{restaurant_id}/": "merchant",
  "POST /order/v1/merchant/meals/restaurants/{restaurant_id}/branches/": "merchant",
  "PATCH /order/v1/merchant/meals/branches/{branch_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/branches/{branch_id}/": "merchant",
  "POST /order/v1/merchant/meals/restaurant-categories/": "merchant",
  "PATCH /order/v1/merchant/meals/restaurant-categories/{category_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/restaurant-categories/{category_id}/": "merchant",
  "POST /order/v1/merchant/meals/restaurants/{restaurant_id}/variants/": "merchant",
  "PATCH /order/v1/merchant/meals/restaurant-variants/{variant_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/restaurant-variants/{variant_id}/": "merchant",
  "POST /order/v1/merchant/meals/menus/": "merchant",
  "PATCH /order/v1/merchant/meals/menus/{menu_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/menus/{menu_id}/": "merchant",
  "POST /order/v1/merchant/meals/menus/{menu_id}/categories/": "merchant",
  "PATCH /order/v1/merchant/meals/menu-categories/{category_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/menu-categories/{category_id}/": "merchant",
  "POST /order/v1/merchant/meals/products/": "merchant",
  "PATCH /order/v1/merchant/meals/products/{product_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/products/{product_id}/": "merchant",
  "POST /order/v1/merchant/meals/menu-categories/{category_id}/combos/": "merchant",
  "PATCH /order/v1/merchant/meals/combos/{combo_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/combos/{combo_id}/": "merchant",
  "POST /order/v1/merchant/meals/allergens-dislikes/": "merchant",
  "PATCH /order/v1/merchant/meals/allergens-dislikes/{allergen_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/allergens-dislikes/{allergen_id}/": "merchant",
  "POST /order/v1/merchant/meals/plans/": "merchant",
  "PATCH /order/v1/merchant/meals/plans/{plan_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/plans/{plan_id}/": "merchant",
  "POST /order/v1/merchant/meals/plan-tags/": "merchant",
  "PATCH /order/v1/merchant/meals/plan-tags/{tag_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/plan-tags/{tag_id}/": "merchant",
  "POST /order/v1/merchant/meals/plans/{plan_id}/versions/": "merchant",
  "PATCH /order/v1/merchant/meals/plan-versions/{version_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/plan-versions/{version_id}/": "merchant",
  "POST /order/v1/merchant/meals/plans/{plan_id}/days/": "merchant",
  "PATCH /order/v1/merchant/meals/plan-days/{day_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/plan-days/{day_id}/": "merchant",
  "POST /order/v1/merchant/meals/plan-days/{day_id}/categories/": "merchant",
  "PATCH /order/v1/merchant/meals/plan-categories/{category_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/plan-categories/{category_id}/": "merchant",
  "POST /order/v1/merchant/meals/plan-categories/{category_id}/options/": "merchant",
  "PATCH /order/v1/merchant/meals/plan-options/{option_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/plan-options/{option_id}/": "merchant",
  "GET /order/v1/merchant/meals/corporate-locations/": "merchant",
  "POST /order/v1/merchant/meals/corporate-locations/": "merchant",
  "GET /order/v1/merchant/meals/corporate-locations/{location_id}/": "merchant",
  "PATCH /order/v1/merchant/meals/corporate-locations/{location_id}/": "merchant",
  "DELETE /order/v1/merchant/meals/corporate-locations/{location_id}/": "merchant",
  "GET /order/v1/merchant/geography/countries/": "merchant",
  "GET /order/v1/merchant/geography/regions/": "merchant",
  "GET /order/v1/merchant/geography/cities/": "merchant",
  "GET /order/v1/merchant/geography/districts/": "merchant",
  "PUT /order/v1/merchant/geography/supported-cities/{city_id}/": "merchant",
  "DELETE /order/v1/merchant/geography/supported-cities/{city_id}/": "merchant",
  "GET /order/v1/merchant/customers/": "merchant",
  "POST /order/v1/merchant/customers/": "merchant",
  "GET /order/v1/merchant/customers/{customer_id}/": "merchant",
  "PATCH /order/v1/merchant/customers/{customer_id}/": "merchant",
  "GET /order/v1/merchant/customers/{customer_id}/locations/": "merchant",
  "POST /order/v1/merchant/customers/{customer_id}/locations/": "merchant",
  "GET /order/v1/merchant/customers/{customer_id}/locations/{location_id}/": "merchant",
  "GET /order/v1/merchant/customers/{customer_id}/memberships/": "merchant",
  "GET /order/v1/merchant/customers/{customer_id}/wallet/": "merchant",
  "POST /order/v1/merchant/customers/{customer_id}/wallet/deposit-points/": "merchant",
  "POST /order/v1/merchant/customers/{customer_id}/wallet/deposit-cashback/": "merchant",
  "POST /order/v1/merchant/customers/{customer_id}/wallet/redeem/": "merchant",
  "POST /order/v1/merchant/notifications/send/": "merchant",
  "GET /order/v1/merchant/notifications/": "merchant",
  "GET /order/v1/merchant/notifications/{notification_id}/": "merchant",
  "POST /order/v1/merchant/vouchers/discount/": "merchant",
  "POST /order/v1/merchant/vouchers/{code}/usage/": "merchant",
  "GET /order/v1/merchant/vouchers/": "merchant",
  "POST /order/v1/merchant/vouchers/": "merchant",
  "GET /order/v1/merchant/vouchers/{voucher_id}/": "merchant",
  "PATCH /order/v1/merchant/vouchers/{voucher_id}/": "merchant",
  "DELETE /order/v1/merchant/vouchers/{voucher_id}/": "merchant",
  "GET /order/v1/merchant/carts/": "merchant",
  "GET /order/v1/merchant/carts/{cart_id}/": "merchant",
  "GET /order/v1/merchant/checkout/config/": "merchant",
  "POST /order/v1/merchant/checkout/config/": "merchant",
  "GET /order/v1/merchant/orders/": "merchant",
  "POST /order/v1/merchant/orders/": "merchant",
  "GET /order/v1/merchant/orders/{order_id}/": "merchant",
  "PATCH /order/v1/merchant/orders/{order_id}/": "merchant",
  "GET /order/v1/merchant/recurring-purchases/": "merchant",
  "GET /order/v1/merchant/recurring-purchases/{recurring_purchase_id}/": "merchant",
  "PATCH /order/v1/merchant/recurring-purchases/{recurring_purchase_id}/": "merchant",
  "GET /order/v1/merchant/subscriptions/": "merchant",
  "GET /order/v1/merchant/subscriptions/statistics/": "merchant",
  "POST /order/v1/merchant/subscriptions/bulk-pause/": "merchant",
  "POST /order/v1/merchant/subscriptions/bulk-resume/": "merchant",
  "GET /order/v1/merchant/subscriptions/{subscription_id}/": "merchant",
  "POST /order/v1/merchant/subscriptions/{subscription_id}/cancel/": "merchant",
  "POST /order/v1/merchant/subscriptions/{subscription_id}/cancel-auto-renewal/": "merchant",
  "POST /order/v1/merchant/subscriptions/{subscription_id}/increment-usage/": "merchant",
  "POST /order/v1/merchant/subscriptions/{subscription_id}/decrement-usage/": "merchant",
  "POST /order/v1/merchant/subscriptions/{subscription_id}/updates/": "merchant",
  "POST /order/v1/merchant/subscriptions/{subscription_id}/updates/{update_id}/cancel/": "merchant",
  "GET /order/v1/merchant/fulfillments/overview/": "merchant",
  "GET /order/v1/merchant/fulfillments/": "merchant",
  "GET /order/v1/merchant/fulfillments/{fulfillment_id}/": "merchant",
  "PATCH /order/v1/merchant/fulfillments/{fulfillment_id}/": "merchant",
  "GET /order/v1/merchant/customers/{customer_id}/order-statistics/": "merchant",
  "GET /order/v1/merchant/transactions/": "merchant",
  "GET /order/v1/merchant/transactions/{transaction_id}/": "merchant",
  "POST /order/v1/merchant/transactions/{transaction_id}/capture/": "merchant",
  "POST /order/v1/merchant/transactions/{transaction_id}/decline/": "merchant",
  "POST /order/v1/merchant/invoices/{invoice_id}/refund/": "merchant",
  "GET /order/v1/merchant/invoices/config/": "merchant",
  "POST /order/v1/merchant/invoices/config/": "merchant",
  "GET /order/v1/merchant/invoices/": "merchant",
  "GET /order/v1/merchant/invoices/{invoice_id}/": "merchant",
  "GET /order/v1/merchant/invoices/{invoice_id}/e-invoice/": "merchant",
  "GET /order/v1/merchant/einvoicing/units/": "merchant",
  "POST /order/v1/merchant/einvoicing/units/": "merchant",
  "GET /order/v1/merchant/einvoicing/units/{unit_id}/": "merchant",
  "POST /order/v1/merchant/einvoicing/units/{unit_id}/renew/": "merchant",
  "POST /order/v1/merchant/wallet/charge/": "merchant",
  "GET /order/v1/merchant/wallet/": "merchant",
  "GET /order/v1/merchant/wallet/transactions/": "merchant",
  "GET /order/v1/merchant/shipments/couriers/": "merchant",
  "POST /order/v1/merchant/shipments/couriers/": "merchant",
  "POST /order/v1/merchant/shipments/couriers/active/": "merchant",
  "POST /order/v1/merchant/shipments/couriers/prices/": "merchant",
  "GET /order/v1/merchant/shipments/couriers/{courier_id}/": "merchant",
  "PATCH /order/v1/merchant/shipments/couriers/{courier_id}/": "merchant",
  "DELETE /order/v1/merchant/shipments/couriers/{courier_id}/": "merchant",
  "GET /order/v1/merchant/shipments/config/": "merchant",
  "POST /order/v1/merchant/shipments/config/": "merchant",
  "GET /order/v1/merchant/shipments/pickup-locations/": "merchant",
  "POST /order/v1/merchant/shipments/pickup-locations/": "merchant",
  "GET /order/v1/merchant/shipments/pickup-locations/{pickup_location_id}/": "merchant",
  "PATCH /order/v1/merchant/shipments/pickup-locations/{pickup_location_id}/": "merchant",
  "DELETE /order/v1/merchant/shipments/pickup-locations/{pickup_location_id}/": "merchant",
  "GET /order/v1/merchant/shipments/labels/": "merchant",
  "POST /order/v1/merchant/shipments/labels/": "merchant",
  "GET /order/v1/merchant/shipments/labels/{label_id}/pdf/": "merchant",
  "GET /order/v1/merchant/shipments/": "merchant",
  "POST /order/v1/merchant/shipments/": "merchant",
  "GET /order/v1/merchant/shipments/{shipment_id}/": "merchant",
  "POST /order/v1/merchant/shipments/{shipment_id}/cancel/": "merchant",
  "POST /order/v1/merchant/shipments/{shipment_id}/return/": "merchant",
  "POST /order/v1/merchant/shipments/{shipment_id}/status/": "merchant",
  "GET /order/v1/checkout/featured-vouchers/": "customer",
  "POST /order/v1/carts/": "customer",
  "GET /order/v1/carts/{cart_id}/": "customer",
  "PATCH /order/v1/carts/{cart_id}/": "customer",
  "POST /order/v1/carts/{cart_id}/checkout/": "customer",
  "GET /order/v1/checkout/config/": "customer",
  "GET /order/v1/orders/": "customer",
  "GET /order/v1/orders/{order_id}/": "customer",
  "GET /order/v1/recurring-purchases/": "customer",
  "GET /order/v1/recurring-purchases/{recurring_purchase_id}/": "customer",
  "POST /order/v1/recurring-purchases/{recurring_purchase_id}/deactivate/": "customer",
  "GET /order/v1/subscriptions/": "customer",
  "GET /order/v1/subscriptions/{subscription_id}/": "customer",
  "POST /order/v1/subscriptions/{subscription_id}/cancel-auto-renewal/": "customer",
  "GET /order/v1/fulfillments/": "customer",
  "GET /order/v1/fulfillments/{fulfillment_id}/": "customer",
  "PATCH /order/v1/fulfillments/{fulfillment_id}/": "customer",
  "GET /order/v1/payment-methods/providers/": "customer",
  "GET /order/v1/payment-methods/": "customer",
  "DELETE /order/v1/payment-methods/{payment_method_id}/": "customer",
  "GET /order/v1/pickup-locations/": "customer",
  "GET /api/v1/customer/profile/": "customer",
  "PATCH /api/v1/customer/profile/": "customer",
  "DELETE /api/v1/customer/profile/": "customer",
  "PATCH /api/v1/customer/profile/language/": "customer",
  "POST /api/v1/customer/profile/avatar/": "customer",
  "PATCH /api/v1/customer/profile/platform-version/": "customer",
  "POST /api/v1/customer/fcm-tokens/": "customer",
  "DELETE /api/v1/customer/fcm-tokens/{token}/": "customer",
  "GET /api/v1/customer/locations/": "customer",
  "POST /api/v1/customer/locations/": "customer",
  "GET /api/v1/customer/locations/{location_id}/": "customer",
  "PATCH /api/v1/customer/locations/{location_id}/": "customer",
  "DELETE /api/v1/customer/locations/{location_id}/": "customer",
  "POST /api/v1/customer/locations/{location_id}/image/": "customer",
  "GET /api/v1/customer/notifications/": "customer",
  "POST /api/v1/customer/notifications/read-all/": "customer",
  "POST /api/v1/customer/notifications/{notification_id}/read/": "customer",
  "GET /api/v1/dashboard/admin/settings/": "merchant",
  "POST /api/v1/dashboard/admin/settings/": "merchant",
  "PATCH /api/v1/dashboard/admin/settings/": "merchant",
  "GET /api/v1/dashboard/admin/bank-accounts/": "merchant",
  "POST /api/v1/dashboard/admin/bank-accounts/": "merchant",
  "GET /api/v1/dashboard/admin/bank-accounts/{bank_account_id}/": "merchant",
  "PATCH /api/v1/dashboard/admin/bank-accounts/{bank_account_id}/": "merchant",
  "DELETE /api/v1/dashboard/admin/bank-accounts/{bank_account_id}/": "merchant",
  "GET /api/v1/dashboard/admin/organization/config/": "merchant",
  "GET /api/v1/dashboard/admin/audit-events/": "merchant",
  "GET /api/v1/dashboard/admin/audit-events/{audit_event_id}/": "merchant",
  "GET /api/v1/dashboard/admin/api-keys/": "merchant",
  "POST /api/v1/dashboard/admin/api-keys/": "merchant",
  "GET /api/v1/dashboard/admin/api-keys/{api_key_id}/": "merchant",
  "POST /api/v1/dashboard/admin/api-keys/{api_key_id}/revoke/": "merchant",
  "POST /api/v1/dashboard/admin/api-keys/{api_key_id}/rotate/": "merchant",
  "GET /api/v1/dashboard/admin/integrations/webhooks/deliveries/": "merchant",
  "POST /api/v1/dashboard/admin/integrations/webhooks/deliveries/{delivery_id}/resend/": "merchant",
  "POST /api/v1/dashboard/admin/integrations/webhooks/{webhook_id}/recover/": "merchant",
  "GET /api/v1/dashboard/admin/integrations/webhooks/": "merchant",
  "POST /api/v1/dashboard/admin/integrations/webhooks/": "merchant",
  "DELETE /api/v1/dashboard/admin/integrations/webhooks/": "merchant",
  "GET /api/v1/dashboard/admin/integrations/webhooks/logs/": "merchant",
  "PATCH /api/v1/dashboard/admin/integrations/webhooks/{webhook_id}/": "merchant",
  "DELETE /api/v1/dashboard/admin/integrations/webhooks/{webhook_id}/": "merchant",
  "POST /api/v1/dashboard/admin/integrations/webhooks/{webhook_id}/test/": "merchant",
  "POST /api/v1/dashboard/admin/integrations/webhooks/{webhook_id}/rotate-secret/": "merchant",
  "PATCH /api/v1/app-configs/": "merchant",
  "GET /api/v1/vouchers/featured/": "customer",
  "GET /api/v1/corporate-locations/": "customer",
  "GET /api/v1/corporate-locations/{location_id}/": "customer",
  "GET /api/v1/subscriptions/": "customer",
  "GET /api/v1/subscriptions/{subscription_id}/": "customer",
  "PATCH /api/v1/subscriptions/{subscription_id}/location/": "customer",
  "POST /api/v1/subscriptions/{subscription_id}/suborders/actions/": "customer",
  "POST /api/v1/subscriptions/{subscription_id}/cancel/": "customer",
  "GET /api/v1/subscriptions/{subscription_id}/orders/": "customer",
  "GET /api/v1/subscriptions/{subscription_id}/invoices/": "customer",
  "GET /api/v1/suborders/": "customer",
  "POST /api/v1/suborders/bulk/location/": "customer",
  "POST /api/v1/suborders/bulk/delivery-window/": "customer",
  "POST /api/v1/suborders/bulk/pickup-branch/": "customer",
  "POST /api/v1/suborders/pre-order/": "customer",
  "GET /api/v1/suborders/{suborder_id}/": "customer",
  "PATCH /api/v1/suborders/{suborder_id}/location/": "customer",
  "PATCH /api/v1/suborders/{suborder_id}/meals/": "customer",
  "PATCH /api/v1/suborders/{suborder_id}/delivery-window/": "customer",
  "GET /api/v1/complaints/reasons/": "customer",
  "POST /api/v1/suborders/{suborder_id}/complaints/": "customer",
  "GET /api/v1/complaints/{complaint_id}/": "customer",
  "GET /api/v1/sales-channels/subscriptions/": "customer",
  "GET /api/v1/sales-channels/subscriptions/{subscription_id}/": "customer",
  "POST /api/v1/sales-channels/subscriptions/{subscription_id}/cancel/": "customer",
  "POST /api/v1/orders/vouchered-cart/": "customer",
  "POST /api/v1/orders/redeemed-cart/": "customer",
  "POST /api/v1/orders/discounted-cart/": "customer",
  "GET /api/v1/orders/": "customer",
  "POST /api/v1/orders/": "customer",
  "POST /api/v1/orders/add-on/redeemed-cart/": "customer",
  "POST /api/v1/orders/add-on/": "customer",
  "GET /api/v1/orders/{order_id}/": "customer",
  "POST /api/v1/subscriptions/{subscription_id}/renew/": "customer",
  "GET /api/v1/sales-channels/orders/": "customer",
  "GET /api/v1/logistics/cities/": "merchant",
  "GET /api/v1/logistics/supported-windows/": "merchant",
  "POST /api/v1/logistics/suborders/bulk-update/": "merchant",
  "GET /api/v1/logistics/kitchen-day/": "merchant",
  "GET /api/v1/logistics/captains/": "merchant",
  "POST /api/v1/logistics/captains/": "merchant",
  "GET /api/v1/logistics/captains/{captain_id}/": "merchant",
  "PATCH /api/v1/logistics/captains/{captain_id}/": "merchant",
  "DELETE /api/v1/logistics/captains/{captain_id}/": "merchant",
  "GET /api/v1/logistics/branches/": "merchant",
  "POST /api/v1/logistics/branches/": "merchant",
  "GET /api/v1/logistics/branches/{branch_id}/": "merchant",
  "PATCH /api/v1/logistics/branches/{branch_id}/": "merchant",
  "DELETE /api/v1/logistics/branches/{branch_id}/": "merchant",
  "GET /api/v1/sales-channels/meals/orders/": "merchant",
  "GET /api/v1/sales-channels/meals/orders/{order_id}/": "merchant",
  "GET /api/v1/meals/complaints/": "merchant",
  "GET /api/v1/meals/complaints/{complaint_id}/": "merchant",
  "PATCH /api/v1/meals/complaints/{complaint_id}/": "merchant",
  "GET /api/v1/sales-channels/meals/subscriptions/": "merchant",
  "GET /api/v1/sales-channels/meals/subscriptions/{subscription_id}/": "merchant",
  "GET /api/v1/sales-channels/connection-requests/": "merchant",
  "POST /api/v1/sales-channels/connection-requests/": "merchant",
  "GET /api/v1/sales-channels/connection-requests/{connection_request_id}/": "merchant",
  "DELETE /api/v1/sales-channels/connection-requests/{connection_request_id}/": "merchant",
  "POST /api/v1/sales-channels/connection-requests/{connection_request_id}/accept/": "merchant",
  "POST /api/v1/sales-channels/connection-requests/{connection_request_id}/reject/": "merchant",
  "POST /api/v1/sales-channels/connection-requests/{connection_request_id}/activate/": "merchant",
  "POST /api/v1/sales-channels/connection-requests/{connection_request_id}/deactivate/": "merchant",
  "GET /api/v1/sales-channels/profile/": "merchant",
  "PATCH /api/v1/sales-channels/profile/": "merchant",
  "GET /api/v1/sales-channels/meals/provider-plans/": "merchant",
  "GET /api/v1/sales-channels/meals/plan-listings/": "merchant",
  "POST /api/v1/sales-channels/meals/plan-listings/": "merchant",
  "PATCH /api/v1/sales-channels/meals/plan-listings/{plan_listing_id}/": "merchant",
  "DELETE /api/v1/sales-channels/meals/plan-listings/{plan_listing_id}/": "merchant",
  "POST /api/v3/plans/has-purchased/": "customer",
  "GET /platform/v1/organizations/": "platform",
  "POST /platform/v1/organizations/": "platform",
  "GET /platform/v1/organizations/{organization_id}/": "platform",
  "GET /platform/v1/stores/": "platform",
  "POST /platform/v1/stores/": "platform",
  "GET /platform/v1/stores/{store_id}/": "platform",
  "POST /platform/v1/stores/{store_id}/suspend/": "platform",
  "POST /platform/v1/stores/{store_id}/reactivate/": "platform",
  "POST /platform/v1/stores/{store_id}/api-keys/": "platform",
  "GET /platform/v1/audit-events/": "platform",
  "GET /platform/v1/audit-events/{audit_event_id}/": "platform",
  "GET /platform/v1/shards/": "platform",
  "PATCH /platform/v1/shards/{shard}/": "platform",
};

/** The operations that take an `Idempotency-Key` (writes that move money or stock). */
export const IDEMPOTENT_OPERATIONS: ReadonlySet<string> = new Set([
  "POST /order/v1/merchant/items/{item_id}/reserve/",
  "POST /order/v1/merchant/items/{item_id}/purchase/",
  "POST /order/v1/merchant/customers/{customer_id}/wallet/deposit-points/",
  "POST /order/v1/merchant/customers/{customer_id}/wallet/deposit-cashback/",
  "POST /order/v1/merchant/customers/{customer_id}/wallet/redeem/",
  "POST /order/v1/merchant/vouchers/{code}/usage/",
  "POST /order/v1/merchant/orders/",
  "POST /order/v1/merchant/subscriptions/bulk-pause/",
  "POST /order/v1/merchant/subscriptions/bulk-resume/",
  "POST /order/v1/merchant/subscriptions/{subscription_id}/cancel/",
  "POST /order/v1/merchant/subscriptions/{subscription_id}/cancel-auto-renewal/",
  "POST /order/v1/merchant/subscriptions/{subscription_id}/increment-usage/",
  "POST /order/v1/merchant/subscriptions/{subscription_id}/decrement-usage/",
  "POST /order/v1/merchant/transactions/{transaction_id}/capture/",
  "POST /order/v1/merchant/transactions/{transaction_id}/decline/",
  "POST /order/v1/merchant/invoices/{invoice_id}/refund/",
  "POST /order/v1/merchant/wallet/charge/",
  "POST /order/v1/merchant/shipments/labels/",
  "POST /order/v1/merchant/shipments/",
  "POST /order/v1/carts/{cart_id}/checkout/",
  "POST /api/v1/orders/",
  "POST /api/v1/orders/add-on/",
  "POST /api/v1/subscriptions/{subscription_id}/renew/",
  "PATCH /api/v1/meals/complaints/{complaint_id}/",
]);

/** Every `code` a problem body can carry. */
export type ErrorCode =
  | "allergen_not_found"
  | "api_key_not_found"
  | "app_not_found"
  | "app_suspended"
  | "audit_event_not_found"
  | "bank_account_not_found"
  | "below_minimum_order"
  | "branch_in_use"
  | "branch_not_found"
  | "bundle_category_in_use"
  | "bundle_category_not_found"
  | "cancel_date_out_of_range"
  | "captain_in_use"
  | "captain_inactive"
  | "captain_mobile_taken"
  | "captain_not_found"
  | "carrier_error"
  | "cart_checked_out"
  | "cart_empty"
  | "cart_not_found"
  | "channel_connection_inactive"
  | "city_not_found"
  | "combo_not_found"
  | "complaint_exists"
  | "complaint_not_allowed"
  | "complaint_not_found"
  | "complaint_window_closed"
  | "concurrent_update"
  | "conflict"
  | "connection_already_exists"
  | "connection_deactivated_by_other_store"
  | "connection_request_not_found"
  | "connection_to_self"
  | "corporate_location_not_found"
  | "courier_in_use"
  | "courier_not_custom"
  | "courier_not_found"
  | "courier_unavailable"
  | "customer_already_registered"
  | "customer_blocked"
  | "customer_location_not_found"
  | "customer_mobile_taken"
  | "customer_not_found"
  | "date_not_in_schedule"
  | "delivery_in_progress"
  | "delivery_not_found"
  | "delivery_not_supported"
  | "delivery_window_not_of_restaurant"
  | "discount_exists"
  | "discount_not_found"
  | "einvoice_not_cleared"
  | "einvoice_not_found"
  | "einvoice_seller_incomplete"
  | "einvoice_unit_exists"
  | "einvoice_unit_not_found"
  | "fcm_token_not_found"
  | "fulfillment_in_shipment"
  | "fulfillment_locked"
  | "fulfillment_not_found"
  | "fulfillment_not_shippable"
  | "iban_already_registered"
  | "idempotency_key_in_flight"
  | "idempotency_key_response_lost"
  | "idempotency_key_reused"
  | "insufficient_balance"
  | "insufficient_stock"
  | "internal_error"
  | "invalid_header"
  | "invalid_link_signature"
  | "invalid_otp"
  | "invalid_payment_signature"
  | "invalid_refresh_token"
  | "invalid_state_transition"
  | "invalid_token"
  | "invalid_transition"
  | "invoice_not_found"
  | "item_category_in_use"
  | "item_category_not_found"
  | "item_image_not_found"
  | "item_not_found"
  | "item_tag_not_found"
  | "item_unavailable"
  | "items_not_found"
  | "link_expired"
  | "location_not_served"
  | "malformed_request"
  | "malformed_token"
  | "meal_order_not_found"
  | "meal_selection_skipped"
  | "meal_subscription_not_active"
  | "meal_subscription_not_found"
  | "menu_category_in_use"
  | "menu_category_not_found"
  | "menu_in_use"
  | "menu_not_found"
  | "method_not_allowed"
  | "missing_app_id"
  | "missing_org_id"
  | "missing_permission"
  | "modifier_category_in_use"
  | "modifier_category_not_found"
  | "modifier_value_in_use"
  | "no_delivery_on_date"
  | "no_open_deliveries"
  | "no_shard_open"
  | "not_authenticated"
  | "not_connection_receiver"
  | "nothing_to_refund"
  | "notification_not_found"
  | "order_not_found"
  | "organization_not_found"
  | "otp_attempts_exceeded"
  | "otp_expired"
  | "otp_resend_too_soon"
  | "otp_send_limit_reached"
  | "pause_attempts_exhausted"
  | "pause_credits_exhausted"
  | "pause_too_long"
  | "pause_too_short"
  | "payload_too_large"
  | "payment_failed"
  | "payment_method_not_found"
  | "payment_provider_disabled"
  | "permission_escalation"
  | "pickup_branch_not_of_restaurant"
  | "pickup_location_in_use"
  | "pickup_location_not_found"
  | "pickup_not_supported"
  | "plan_already_listed"
  | "plan_category_not_found"
  | "plan_date_not_served"
  | "plan_day_not_found"
  | "plan_day_taken"
  | "plan_days_beyond_repetition"
  | "plan_has_no_versions"
  | "plan_listing_not_found"
  | "plan_not_found"
  | "plan_option_not_found"
  | "plan_option_taken"
  | "plan_tag_in_use"
  | "plan_tag_not_found"
  | "plan_version_closed"
  | "plan_version_not_found"
  | "platform_key_not_set"
  | "product_in_use"
  | "product_not_found"
  | "provider_not_connected"
  | "provider_unavailable"
  | "rate_limited"
  | "recurring_purchase_not_found"
  | "refresh_token_reused"
  | "refund_exceeds_captured"
  | "refund_not_possible"
  | "register_budget_reached"
  | "reservation_expired"
  | "reservation_used"
  | "restaurant_category_in_use"
  | "restaurant_category_not_found"
  | "restaurant_closed"
  | "restaurant_in_use"
  | "restaurant_not_found"
  | "restaurant_variant_not_found"
  | "resume_date_out_of_range"
  | "route_not_found"
  | "shard_not_found"
  | "shipment_not_found"
  | "shipment_not_returnable"
  | "shipping_label_not_found"
  | "signed_einvoice_not_found"
  | "sku_taken"
  | "start_date_closed"
  | "start_date_too_early"
  | "start_date_too_late"
  | "store_not_found"
  | "suborder_frozen"
  | "suborder_is_pickup"
  | "suborder_not_changeable"
  | "suborder_not_found"
  | "suborder_not_pickup"
  | "suborder_past_cutoff"
  | "subscription_already_renewed"
  | "subscription_not_found"
  | "subscription_update_not_found"
  | "subscription_update_pending"
  | "ticket_already_checked_in"
  | "ticket_cancelled"
  | "ticket_not_found"
  | "tickets_not_found"
  | "token_expired"
  | "token_revoked"
  | "too_many_images"
  | "transaction_not_found"
  | "unsupported_media_type"
  | "usage_below_zero"
  | "usage_limit_exceeded"
  | "validation_error"
  | "voucher_code_taken"
  | "voucher_not_found"
  | "voucher_usage_limit_reached"
  | "webhook_inactive"
  | "webhook_not_found"
  | "webhook_signature_invalid"
  | "wrong_organization"
  | "wrong_principal"
  | "wrong_tenant";
