CREATE INDEX `customers_app_modified_idx` ON `customers` (`app_id`,`modified_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_app_modified_idx` ON `items` (`app_id`,`modified_at`,`id`);--> statement-breakpoint
CREATE INDEX `orders_app_modified_idx` ON `orders` (`app_id`,`modified_at`,`id`);--> statement-breakpoint
-- Incremental sync (docs/interface-decisions.md, "Lists: incremental sync"): every change of a row
-- moves its `modified_at`. Writers set it; an UPDATE that leaves it as it was (a guard, a raw SQL
-- statement, a scheduled sweep) gets the database's time here. Not recursive: the trigger's own
-- UPDATE changes `modified_at`, so its condition is false for it (and only when the row's time is
-- behind the clock, so that a clock behind the row's time cannot loop).
CREATE TRIGGER `allergens_modified_at_au` AFTER UPDATE ON `allergens`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `allergens` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `bank_accounts_modified_at_au` AFTER UPDATE ON `bank_accounts`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `bank_accounts` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `bundle_categories_modified_at_au` AFTER UPDATE ON `bundle_categories`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `bundle_categories` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `captains_modified_at_au` AFTER UPDATE ON `captains`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `captains` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `carts_modified_at_au` AFTER UPDATE ON `carts`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `carts` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `channel_connections_modified_at_au` AFTER UPDATE ON `channel_connections`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `channel_connections` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `channel_plan_listings_modified_at_au` AFTER UPDATE ON `channel_plan_listings`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `channel_plan_listings` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `channel_profiles_modified_at_au` AFTER UPDATE ON `channel_profiles`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `channel_profiles` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `checkout_config_modified_at_au` AFTER UPDATE ON `checkout_config`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `checkout_config` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `combos_modified_at_au` AFTER UPDATE ON `combos`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `combos` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `corporate_locations_modified_at_au` AFTER UPDATE ON `corporate_locations`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `corporate_locations` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `couriers_modified_at_au` AFTER UPDATE ON `couriers`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `couriers` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `customer_locations_modified_at_au` AFTER UPDATE ON `customer_locations`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `customer_locations` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `customer_memberships_modified_at_au` AFTER UPDATE ON `customer_memberships`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `customer_memberships` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `customer_notifications_modified_at_au` AFTER UPDATE ON `customer_notifications`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `customer_notifications` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `customers_modified_at_au` AFTER UPDATE ON `customers`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `customers` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `delivery_windows_modified_at_au` AFTER UPDATE ON `delivery_windows`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `delivery_windows` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `delivery_zones_modified_at_au` AFTER UPDATE ON `delivery_zones`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `delivery_zones` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `einvoice_units_modified_at_au` AFTER UPDATE ON `einvoice_units`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `einvoice_units` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `fcm_tokens_modified_at_au` AFTER UPDATE ON `fcm_tokens`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `fcm_tokens` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `fulfillments_modified_at_au` AFTER UPDATE ON `fulfillments`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `fulfillments` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `invoice_config_modified_at_au` AFTER UPDATE ON `invoice_config`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `invoice_config` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `invoices_modified_at_au` AFTER UPDATE ON `invoices`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `invoices` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `item_categories_modified_at_au` AFTER UPDATE ON `item_categories`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `item_categories` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `item_config_modified_at_au` AFTER UPDATE ON `item_config`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `item_config` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `item_discounts_modified_at_au` AFTER UPDATE ON `item_discounts`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `item_discounts` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `item_images_modified_at_au` AFTER UPDATE ON `item_images`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `item_images` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `item_tags_modified_at_au` AFTER UPDATE ON `item_tags`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `item_tags` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `items_modified_at_au` AFTER UPDATE ON `items`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `items` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `meal_app_configs_modified_at_au` AFTER UPDATE ON `meal_app_configs`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `meal_app_configs` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `meal_complaints_modified_at_au` AFTER UPDATE ON `meal_complaints`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `meal_complaints` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `meal_orders_modified_at_au` AFTER UPDATE ON `meal_orders`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `meal_orders` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `meal_products_modified_at_au` AFTER UPDATE ON `meal_products`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `meal_products` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `meal_subscriptions_modified_at_au` AFTER UPDATE ON `meal_subscriptions`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `meal_subscriptions` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `menu_categories_modified_at_au` AFTER UPDATE ON `menu_categories`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `menu_categories` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `menus_modified_at_au` AFTER UPDATE ON `menus`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `menus` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `modifier_categories_modified_at_au` AFTER UPDATE ON `modifier_categories`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `modifier_categories` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `modifier_values_modified_at_au` AFTER UPDATE ON `modifier_values`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `modifier_values` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `notifications_modified_at_au` AFTER UPDATE ON `notifications`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `notifications` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `nutritions_modified_at_au` AFTER UPDATE ON `nutritions`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `nutritions` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `orders_modified_at_au` AFTER UPDATE ON `orders`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `orders` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `pickup_locations_modified_at_au` AFTER UPDATE ON `pickup_locations`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `pickup_locations` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `plan_categories_modified_at_au` AFTER UPDATE ON `plan_categories`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `plan_categories` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `plan_days_modified_at_au` AFTER UPDATE ON `plan_days`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `plan_days` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `plan_options_modified_at_au` AFTER UPDATE ON `plan_options`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `plan_options` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `plan_tags_modified_at_au` AFTER UPDATE ON `plan_tags`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `plan_tags` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `plan_versions_modified_at_au` AFTER UPDATE ON `plan_versions`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `plan_versions` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `plans_modified_at_au` AFTER UPDATE ON `plans`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `plans` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `recurring_purchases_modified_at_au` AFTER UPDATE ON `recurring_purchases`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `recurring_purchases` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `restaurant_branches_modified_at_au` AFTER UPDATE ON `restaurant_branches`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `restaurant_branches` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `restaurant_categories_modified_at_au` AFTER UPDATE ON `restaurant_categories`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `restaurant_categories` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `restaurant_variants_modified_at_au` AFTER UPDATE ON `restaurant_variants`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `restaurant_variants` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `restaurants_modified_at_au` AFTER UPDATE ON `restaurants`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `restaurants` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `saved_payment_methods_modified_at_au` AFTER UPDATE ON `saved_payment_methods`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `saved_payment_methods` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `shipments_modified_at_au` AFTER UPDATE ON `shipments`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `shipments` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `shipping_configs_modified_at_au` AFTER UPDATE ON `shipping_configs`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `shipping_configs` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `shipping_labels_modified_at_au` AFTER UPDATE ON `shipping_labels`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `shipping_labels` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `store_settings_modified_at_au` AFTER UPDATE ON `store_settings`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `store_settings` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `suborders_modified_at_au` AFTER UPDATE ON `suborders`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `suborders` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `subscription_updates_modified_at_au` AFTER UPDATE ON `subscription_updates`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `subscription_updates` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `subscriptions_modified_at_au` AFTER UPDATE ON `subscriptions`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `subscriptions` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `supported_cities_modified_at_au` AFTER UPDATE ON `supported_cities`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `supported_cities` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `tickets_modified_at_au` AFTER UPDATE ON `tickets`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `tickets` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `transactions_modified_at_au` AFTER UPDATE ON `transactions`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `transactions` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `vouchers_modified_at_au` AFTER UPDATE ON `vouchers`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `vouchers` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `webhooks_modified_at_au` AFTER UPDATE ON `webhooks`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') BEGIN
  UPDATE `webhooks` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
-- An item's list shows its variants: a change of a variant is a change of its item.
CREATE TRIGGER `items_variant_modified_at_au` AFTER UPDATE ON `items` WHEN new.parent_id IS NOT NULL BEGIN
  UPDATE `items` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = new.parent_id AND modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now');
END;--> statement-breakpoint
CREATE TRIGGER `items_variant_modified_at_ai` AFTER INSERT ON `items` WHEN new.parent_id IS NOT NULL BEGIN
  UPDATE `items` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = new.parent_id AND modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now');
END;
