CREATE INDEX `customers_app_modified_idx` ON `customers` (`app_id`,`modified_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_app_modified_idx` ON `items` (`app_id`,`modified_at`,`id`);--> statement-breakpoint
CREATE INDEX `orders_app_modified_idx` ON `orders` (`app_id`,`modified_at`,`id`);--> statement-breakpoint
-- Incremental sync (docs/interface-decisions.md, "Lists: incremental sync"): every change of a row
-- moves its `modified_at`. Writers set it; an UPDATE that changed a column but left `modified_at` as
-- it was (a guard, a raw SQL statement, a scheduled sweep) gets the database's time here. An UPDATE
-- that changed nothing is no change. Not recursive: the trigger's own UPDATE changes `modified_at`,
-- which its condition requires unchanged (and only when the row's time is behind the clock).
CREATE TRIGGER `allergens_modified_at_au` AFTER UPDATE ON `allergens`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`kind` IS NOT old.`kind` OR new.`name_en` IS NOT old.`name_en` OR
    new.`name_ar` IS NOT old.`name_ar` OR new.`icon` IS NOT old.`icon`) BEGIN
  UPDATE `allergens` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `bank_accounts_modified_at_au` AFTER UPDATE ON `bank_accounts`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`bank_name_en` IS NOT old.`bank_name_en` OR new.`bank_name_ar` IS NOT old.`bank_name_ar` OR
    new.`iban` IS NOT old.`iban` OR new.`account_holder` IS NOT old.`account_holder` OR
    new.`is_default` IS NOT old.`is_default` OR new.`status` IS NOT old.`status`) BEGIN
  UPDATE `bank_accounts` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `bundle_categories_modified_at_au` AFTER UPDATE ON `bundle_categories`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`is_selectable` IS NOT old.`is_selectable` OR new.`is_optional` IS NOT old.`is_optional` OR
    new.`min_selections` IS NOT old.`min_selections` OR
    new.`max_selections` IS NOT old.`max_selections`) BEGIN
  UPDATE `bundle_categories` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `captains_modified_at_au` AFTER UPDATE ON `captains`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`name` IS NOT old.`name` OR new.`country_code` IS NOT old.`country_code` OR
    new.`mobile_number` IS NOT old.`mobile_number` OR new.`city_id` IS NOT old.`city_id` OR
    new.`branch_id` IS NOT old.`branch_id` OR new.`is_active` IS NOT old.`is_active` OR
    new.`vehicle` IS NOT old.`vehicle`) BEGIN
  UPDATE `captains` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `carts_modified_at_au` AFTER UPDATE ON `carts`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`customer_id` IS NOT old.`customer_id` OR new.`status` IS NOT old.`status` OR
    new.`cart_provider` IS NOT old.`cart_provider` OR new.`voucher_code` IS NOT old.`voucher_code` OR
    new.`location_id` IS NOT old.`location_id` OR
    new.`pickup_location_id` IS NOT old.`pickup_location_id` OR
    new.`courier_id` IS NOT old.`courier_id` OR
    new.`wallet_redeem_minor` IS NOT old.`wallet_redeem_minor` OR new.`notes` IS NOT old.`notes` OR
    new.`receiver` IS NOT old.`receiver` OR new.`is_recurring` IS NOT old.`is_recurring` OR
    new.`duration` IS NOT old.`duration` OR new.`duration_unit` IS NOT old.`duration_unit` OR
    new.`quoted_total_minor` IS NOT old.`quoted_total_minor` OR new.`order_id` IS NOT old.`order_id` OR
    new.`checked_out_at` IS NOT old.`checked_out_at` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR
    new.`buyer` IS NOT old.`buyer`) BEGIN
  UPDATE `carts` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `channel_connections_modified_at_au` AFTER UPDATE ON `channel_connections`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`channel_app_id` IS NOT old.`channel_app_id` OR
    new.`provider_app_id` IS NOT old.`provider_app_id` OR new.`status` IS NOT old.`status` OR
    new.`commission_bp` IS NOT old.`commission_bp` OR new.`message` IS NOT old.`message` OR
    new.`requested_at` IS NOT old.`requested_at` OR new.`decided_at` IS NOT old.`decided_at` OR
    new.`decided_by` IS NOT old.`decided_by` OR
    new.`deactivated_by_app_id` IS NOT old.`deactivated_by_app_id`) BEGIN
  UPDATE `channel_connections` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `channel_plan_listings_modified_at_au` AFTER UPDATE ON `channel_plan_listings`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`provider_app_id` IS NOT old.`provider_app_id` OR new.`plan_id` IS NOT old.`plan_id` OR
    new.`is_active` IS NOT old.`is_active` OR new.`is_featured` IS NOT old.`is_featured`) BEGIN
  UPDATE `channel_plan_listings` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `channel_profiles_modified_at_au` AFTER UPDATE ON `channel_profiles`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`app_id` IS NOT old.`app_id` OR new.`name_en` IS NOT old.`name_en` OR
    new.`name_ar` IS NOT old.`name_ar` OR new.`logo` IS NOT old.`logo` OR
    new.`description_en` IS NOT old.`description_en` OR
    new.`description_ar` IS NOT old.`description_ar` OR new.`is_listed` IS NOT old.`is_listed` OR
    new.`contact_name` IS NOT old.`contact_name` OR new.`contact_email` IS NOT old.`contact_email` OR
    new.`contact_phone` IS NOT old.`contact_phone` OR new.`website` IS NOT old.`website` OR
    new.`supported_city_ids` IS NOT old.`supported_city_ids` OR
    new.`created_at` IS NOT old.`created_at`) BEGIN
  UPDATE `channel_profiles` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `checkout_config_modified_at_au` AFTER UPDATE ON `checkout_config`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`app_id` IS NOT old.`app_id` OR new.`enabled_providers` IS NOT old.`enabled_providers` OR
    new.`is_delivery_enabled` IS NOT old.`is_delivery_enabled` OR
    new.`is_pickup_enabled` IS NOT old.`is_pickup_enabled` OR
    new.`is_wallet_redeem_enabled` IS NOT old.`is_wallet_redeem_enabled` OR
    new.`min_order_minor` IS NOT old.`min_order_minor` OR
    new.`payment_ttl_minutes` IS NOT old.`payment_ttl_minutes` OR
    new.`bank_transfer_ttl_hours` IS NOT old.`bank_transfer_ttl_hours` OR
    new.`bank_transfer_instructions_en` IS NOT old.`bank_transfer_instructions_en` OR
    new.`bank_transfer_instructions_ar` IS NOT old.`bank_transfer_instructions_ar`) BEGIN
  UPDATE `checkout_config` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `combos_modified_at_au` AFTER UPDATE ON `combos`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR new.`restaurant_id` IS NOT old.`restaurant_id` OR
    new.`category_id` IS NOT old.`category_id` OR new.`name_en` IS NOT old.`name_en` OR
    new.`name_ar` IS NOT old.`name_ar` OR new.`description_en` IS NOT old.`description_en` OR
    new.`description_ar` IS NOT old.`description_ar` OR new.`image` IS NOT old.`image` OR
    new.`price_minor` IS NOT old.`price_minor` OR
    new.`discount_percentage` IS NOT old.`discount_percentage` OR
    new.`is_active` IS NOT old.`is_active` OR new.`product_ids` IS NOT old.`product_ids`) BEGIN
  UPDATE `combos` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `corporate_locations_modified_at_au` AFTER UPDATE ON `corporate_locations`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR new.`name_en` IS NOT old.`name_en` OR
    new.`name_ar` IS NOT old.`name_ar` OR new.`company_name` IS NOT old.`company_name` OR
    new.`city_id` IS NOT old.`city_id` OR new.`district` IS NOT old.`district` OR
    new.`address` IS NOT old.`address` OR new.`lat` IS NOT old.`lat` OR new.`lng` IS NOT old.`lng` OR
    new.`delivery_window_ids` IS NOT old.`delivery_window_ids` OR
    new.`instructions` IS NOT old.`instructions` OR new.`is_active` IS NOT old.`is_active`) BEGIN
  UPDATE `corporate_locations` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `couriers_modified_at_au` AFTER UPDATE ON `couriers`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`type` IS NOT old.`type` OR new.`code` IS NOT old.`code` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`logo` IS NOT old.`logo` OR new.`is_active` IS NOT old.`is_active` OR
    new.`cod_supported` IS NOT old.`cod_supported` OR new.`services` IS NOT old.`services` OR
    new.`coverage_cities` IS NOT old.`coverage_cities` OR
    new.`coverage_districts` IS NOT old.`coverage_districts` OR
    new.`price_rules` IS NOT old.`price_rules` OR
    new.`estimated_days_min` IS NOT old.`estimated_days_min` OR
    new.`estimated_days_max` IS NOT old.`estimated_days_max` OR
    new.`custom_fields` IS NOT old.`custom_fields`) BEGIN
  UPDATE `couriers` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `customer_locations_modified_at_au` AFTER UPDATE ON `customer_locations`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`customer_id` IS NOT old.`customer_id` OR new.`type` IS NOT old.`type` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`latitude` IS NOT old.`latitude` OR new.`longitude` IS NOT old.`longitude` OR
    new.`city_id` IS NOT old.`city_id` OR new.`district_id` IS NOT old.`district_id` OR
    new.`address1` IS NOT old.`address1` OR new.`address2` IS NOT old.`address2` OR
    new.`postal_code` IS NOT old.`postal_code` OR
    new.`formatted_address` IS NOT old.`formatted_address` OR new.`place_id` IS NOT old.`place_id` OR
    new.`route` IS NOT old.`route` OR new.`street_number` IS NOT old.`street_number` OR
    new.`location_url` IS NOT old.`location_url` OR new.`image` IS NOT old.`image` OR
    new.`description` IS NOT old.`description`) BEGIN
  UPDATE `customer_locations` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `customer_memberships_modified_at_au` AFTER UPDATE ON `customer_memberships`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`customer_id` IS NOT old.`customer_id` OR new.`name_en` IS NOT old.`name_en` OR
    new.`name_ar` IS NOT old.`name_ar` OR new.`subscription_id` IS NOT old.`subscription_id` OR
    new.`status` IS NOT old.`status` OR new.`start_date` IS NOT old.`start_date` OR
    new.`end_date` IS NOT old.`end_date`) BEGIN
  UPDATE `customer_memberships` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `customer_notifications_modified_at_au` AFTER UPDATE ON `customer_notifications`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`notification_id` IS NOT old.`notification_id` OR new.`customer_id` IS NOT old.`customer_id` OR
    new.`title_en` IS NOT old.`title_en` OR new.`title_ar` IS NOT old.`title_ar` OR
    new.`body_en` IS NOT old.`body_en` OR new.`body_ar` IS NOT old.`body_ar` OR
    new.`data` IS NOT old.`data` OR new.`read_at` IS NOT old.`read_at`) BEGIN
  UPDATE `customer_notifications` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `customers_modified_at_au` AFTER UPDATE ON `customers`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`country_code` IS NOT old.`country_code` OR new.`mobile_number` IS NOT old.`mobile_number` OR
    new.`username` IS NOT old.`username` OR new.`email` IS NOT old.`email` OR
    new.`name` IS NOT old.`name` OR new.`lang` IS NOT old.`lang` OR
    new.`current_city_id` IS NOT old.`current_city_id` OR
    new.`is_email_verified` IS NOT old.`is_email_verified` OR
    new.`is_mobile_verified` IS NOT old.`is_mobile_verified` OR
    new.`is_blocked` IS NOT old.`is_blocked` OR new.`national_id` IS NOT old.`national_id` OR
    new.`secondary_mobile_number` IS NOT old.`secondary_mobile_number` OR
    new.`date_of_birth` IS NOT old.`date_of_birth` OR new.`avatar` IS NOT old.`avatar` OR
    new.`platform_version` IS NOT old.`platform_version` OR new.`joined_at` IS NOT old.`joined_at` OR
    new.`custom_fields` IS NOT old.`custom_fields`) BEGIN
  UPDATE `customers` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `delivery_windows_modified_at_au` AFTER UPDATE ON `delivery_windows`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`restaurant_id` IS NOT old.`restaurant_id` OR new.`from_time` IS NOT old.`from_time` OR
    new.`to_time` IS NOT old.`to_time` OR new.`type` IS NOT old.`type` OR
    new.`is_default` IS NOT old.`is_default` OR new.`tag` IS NOT old.`tag` OR
    new.`is_on_demand_opened` IS NOT old.`is_on_demand_opened`) BEGIN
  UPDATE `delivery_windows` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `delivery_zones_modified_at_au` AFTER UPDATE ON `delivery_zones`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`restaurant_id` IS NOT old.`restaurant_id` OR new.`city_id` IS NOT old.`city_id` OR
    new.`name_en` IS NOT old.`name_en` OR new.`polygon` IS NOT old.`polygon`) BEGIN
  UPDATE `delivery_zones` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `einvoice_units_modified_at_au` AFTER UPDATE ON `einvoice_units`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`egs_serial` IS NOT old.`egs_serial` OR new.`status` IS NOT old.`status` OR
    new.`private_key_sealed` IS NOT old.`private_key_sealed` OR
    new.`compliance_certificate` IS NOT old.`compliance_certificate` OR
    new.`compliance_secret_sealed` IS NOT old.`compliance_secret_sealed` OR
    new.`compliance_request_id` IS NOT old.`compliance_request_id` OR
    new.`production_certificate` IS NOT old.`production_certificate` OR
    new.`production_secret_sealed` IS NOT old.`production_secret_sealed` OR
    new.`production_not_after` IS NOT old.`production_not_after` OR
    new.`last_icv` IS NOT old.`last_icv` OR new.`signed_icv` IS NOT old.`signed_icv` OR
    new.`last_hash` IS NOT old.`last_hash` OR new.`created_at` IS NOT old.`created_at` OR
    new.`name` IS NOT old.`name` OR
    new.`branch` IS NOT old.`branch` OR
    new.`registered_address` IS NOT old.`registered_address` OR
    new.`industry` IS NOT old.`industry` OR
    new.`invoice_types` IS NOT old.`invoice_types` OR
    new.`otp_sealed` IS NOT old.`otp_sealed` OR
    new.`messages` IS NOT old.`messages` OR
    new.`renewal_warned_at` IS NOT old.`renewal_warned_at` OR
    new.`credentials_refused_at` IS NOT old.`credentials_refused_at`) BEGIN
  UPDATE `einvoice_units` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `fcm_tokens_modified_at_au` AFTER UPDATE ON `fcm_tokens`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`customer_id` IS NOT old.`customer_id` OR new.`token` IS NOT old.`token` OR
    new.`platform` IS NOT old.`platform` OR new.`is_active` IS NOT old.`is_active`) BEGIN
  UPDATE `fcm_tokens` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `fulfillments_modified_at_au` AFTER UPDATE ON `fulfillments`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`order_id` IS NOT old.`order_id` OR new.`order_item_id` IS NOT old.`order_item_id` OR
    new.`item_id` IS NOT old.`item_id` OR new.`customer_id` IS NOT old.`customer_id` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`type` IS NOT old.`type` OR new.`qty` IS NOT old.`qty` OR new.`status` IS NOT old.`status` OR
    new.`total_amount_minor` IS NOT old.`total_amount_minor` OR new.`date` IS NOT old.`date` OR
    new.`time` IS NOT old.`time` OR new.`location` IS NOT old.`location` OR
    new.`location_id` IS NOT old.`location_id` OR
    new.`pickup_location_id` IS NOT old.`pickup_location_id` OR
    new.`shipment_id` IS NOT old.`shipment_id` OR new.`tracking_number` IS NOT old.`tracking_number` OR
    new.`fulfilled_at` IS NOT old.`fulfilled_at` OR new.`delivered_at` IS NOT old.`delivered_at` OR
    new.`cancelled_at` IS NOT old.`cancelled_at` OR new.`notes` IS NOT old.`notes` OR
    new.`customer_name` IS NOT old.`customer_name` OR
    new.`customer_email` IS NOT old.`customer_email` OR
    new.`customer_phone` IS NOT old.`customer_phone` OR
    new.`custom_fields` IS NOT old.`custom_fields`) BEGIN
  UPDATE `fulfillments` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `invoice_config_modified_at_au` AFTER UPDATE ON `invoice_config`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`app_id` IS NOT old.`app_id` OR new.`serial_prefix` IS NOT old.`serial_prefix` OR
    new.`due_days` IS NOT old.`due_days` OR new.`footer_en` IS NOT old.`footer_en` OR
    new.`footer_ar` IS NOT old.`footer_ar` OR
    new.`is_zatca_qr_enabled` IS NOT old.`is_zatca_qr_enabled`) BEGIN
  UPDATE `invoice_config` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `invoices_modified_at_au` AFTER UPDATE ON `invoices`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`order_id` IS NOT old.`order_id` OR new.`customer_id` IS NOT old.`customer_id` OR
    new.`type` IS NOT old.`type` OR new.`status` IS NOT old.`status` OR
    new.`serial` IS NOT old.`serial` OR new.`refunded_invoice_id` IS NOT old.`refunded_invoice_id` OR
    new.`refund_reason` IS NOT old.`refund_reason` OR new.`issued_at` IS NOT old.`issued_at` OR
    new.`due_at` IS NOT old.`due_at` OR new.`currency` IS NOT old.`currency` OR
    new.`sub_total_minor` IS NOT old.`sub_total_minor` OR
    new.`shipping_minor` IS NOT old.`shipping_minor` OR new.`setup_minor` IS NOT old.`setup_minor` OR
    new.`sub_total_discounts_minor` IS NOT old.`sub_total_discounts_minor` OR
    new.`shipping_discounts_minor` IS NOT old.`shipping_discounts_minor` OR
    new.`total_minor` IS NOT old.`total_minor` OR
    new.`total_excluding_tax_minor` IS NOT old.`total_excluding_tax_minor` OR
    new.`tax_minor` IS NOT old.`tax_minor` OR new.`tax_percentage_bp` IS NOT old.`tax_percentage_bp` OR
    new.`wallet_redeem_minor` IS NOT old.`wallet_redeem_minor` OR
    new.`payment_provider` IS NOT old.`payment_provider` OR
    new.`payment_method` IS NOT old.`payment_method` OR
    new.`is_auto_renewal` IS NOT old.`is_auto_renewal` OR new.`seller_name` IS NOT old.`seller_name` OR
    new.`vat_number` IS NOT old.`vat_number` OR new.`zatca_status` IS NOT old.`zatca_status` OR
    new.`custom_fields` IS NOT old.`custom_fields`) BEGIN
  UPDATE `invoices` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `item_categories_modified_at_au` AFTER UPDATE ON `item_categories`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar`) BEGIN
  UPDATE `item_categories` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `item_config_modified_at_au` AFTER UPDATE ON `item_config`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`app_id` IS NOT old.`app_id` OR new.`reservation_minutes` IS NOT old.`reservation_minutes` OR
    new.`max_reservation_qty` IS NOT old.`max_reservation_qty`) BEGIN
  UPDATE `item_config` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `item_discounts_modified_at_au` AFTER UPDATE ON `item_discounts`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`item_id` IS NOT old.`item_id` OR new.`kind` IS NOT old.`kind` OR
    new.`value` IS NOT old.`value` OR new.`trial_kind` IS NOT old.`trial_kind` OR
    new.`trial_value` IS NOT old.`trial_value` OR new.`is_usage_price` IS NOT old.`is_usage_price` OR
    new.`starts_at` IS NOT old.`starts_at` OR new.`ends_at` IS NOT old.`ends_at`) BEGIN
  UPDATE `item_discounts` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `item_images_modified_at_au` AFTER UPDATE ON `item_images`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`item_id` IS NOT old.`item_id` OR new.`url` IS NOT old.`url` OR
    new.`alt_en` IS NOT old.`alt_en` OR new.`alt_ar` IS NOT old.`alt_ar`) BEGIN
  UPDATE `item_images` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `item_tags_modified_at_au` AFTER UPDATE ON `item_tags`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar`) BEGIN
  UPDATE `item_tags` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `items_modified_at_au` AFTER UPDATE ON `items`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`parent_id` IS NOT old.`parent_id` OR new.`type` IS NOT old.`type` OR
    new.`service_type` IS NOT old.`service_type` OR new.`sku` IS NOT old.`sku` OR
    new.`price_minor` IS NOT old.`price_minor` OR new.`name_en` IS NOT old.`name_en` OR
    new.`name_ar` IS NOT old.`name_ar` OR new.`description_en` IS NOT old.`description_en` OR
    new.`description_ar` IS NOT old.`description_ar` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR new.`is_plan_only` IS NOT old.`is_plan_only` OR
    new.`is_plan_enabled` IS NOT old.`is_plan_enabled` OR new.`plan_config` IS NOT old.`plan_config` OR
    new.`off_days` IS NOT old.`off_days` OR new.`off_dates` IS NOT old.`off_dates` OR
    new.`served_from_date` IS NOT old.`served_from_date` OR
    new.`served_to_date` IS NOT old.`served_to_date` OR
    new.`served_from_time` IS NOT old.`served_from_time` OR
    new.`served_to_time` IS NOT old.`served_to_time` OR new.`weight` IS NOT old.`weight` OR
    new.`stock_qty` IS NOT old.`stock_qty` OR new.`varies_on_id` IS NOT old.`varies_on_id` OR
    new.`variant_title_en` IS NOT old.`variant_title_en` OR
    new.`variant_title_ar` IS NOT old.`variant_title_ar`) BEGIN
  UPDATE `items` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `meal_app_configs_modified_at_au` AFTER UPDATE ON `meal_app_configs`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`app_id` IS NOT old.`app_id` OR new.`primary_color` IS NOT old.`primary_color` OR
    new.`secondary_color` IS NOT old.`secondary_color` OR new.`logo` IS NOT old.`logo` OR
    new.`splash_image` IS NOT old.`splash_image` OR new.`default_lang` IS NOT old.`default_lang` OR
    new.`supported_languages` IS NOT old.`supported_languages` OR
    new.`min_ios_version` IS NOT old.`min_ios_version` OR
    new.`min_android_version` IS NOT old.`min_android_version` OR
    new.`force_update` IS NOT old.`force_update` OR new.`contact_phone` IS NOT old.`contact_phone` OR
    new.`contact_email` IS NOT old.`contact_email` OR
    new.`whatsapp_number` IS NOT old.`whatsapp_number` OR
    new.`terms_url_en` IS NOT old.`terms_url_en` OR new.`terms_url_ar` IS NOT old.`terms_url_ar` OR
    new.`privacy_url_en` IS NOT old.`privacy_url_en` OR
    new.`privacy_url_ar` IS NOT old.`privacy_url_ar` OR new.`features` IS NOT old.`features` OR
    new.`custom_fields` IS NOT old.`custom_fields`) BEGIN
  UPDATE `meal_app_configs` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `meal_complaints_modified_at_au` AFTER UPDATE ON `meal_complaints`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`suborder_id` IS NOT old.`suborder_id` OR new.`subscription_id` IS NOT old.`subscription_id` OR
    new.`customer_id` IS NOT old.`customer_id` OR new.`reason` IS NOT old.`reason` OR
    new.`description` IS NOT old.`description` OR new.`images` IS NOT old.`images` OR
    new.`status` IS NOT old.`status` OR new.`resolution_note` IS NOT old.`resolution_note` OR
    new.`wallet_credit_minor` IS NOT old.`wallet_credit_minor` OR
    new.`resolved_at` IS NOT old.`resolved_at`) BEGIN
  UPDATE `meal_complaints` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `meal_orders_modified_at_au` AFTER UPDATE ON `meal_orders`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`order_id` IS NOT old.`order_id` OR new.`type` IS NOT old.`type` OR
    new.`customer_id` IS NOT old.`customer_id` OR new.`restaurant_id` IS NOT old.`restaurant_id` OR
    new.`plan_id` IS NOT old.`plan_id` OR new.`plan_version_id` IS NOT old.`plan_version_id` OR
    new.`subscription_id` IS NOT old.`subscription_id` OR new.`start_date` IS NOT old.`start_date` OR
    new.`end_date` IS NOT old.`end_date` OR new.`is_pickup` IS NOT old.`is_pickup` OR
    new.`pickup_branch_id` IS NOT old.`pickup_branch_id` OR
    new.`delivery_window_id` IS NOT old.`delivery_window_id` OR
    new.`primary_location_id` IS NOT old.`primary_location_id` OR
    new.`secondary_location_id` IS NOT old.`secondary_location_id` OR
    new.`city_id` IS NOT old.`city_id` OR new.`location` IS NOT old.`location` OR
    new.`notes` IS NOT old.`notes` OR new.`pause_credits` IS NOT old.`pause_credits` OR
    new.`pause_attempts_credits` IS NOT old.`pause_attempts_credits` OR
    new.`selections` IS NOT old.`selections` OR new.`channel_app_id` IS NOT old.`channel_app_id` OR
    new.`channel_customer_id` IS NOT old.`channel_customer_id` OR
    new.`custom_fields` IS NOT old.`custom_fields`) BEGIN
  UPDATE `meal_orders` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `meal_products_modified_at_au` AFTER UPDATE ON `meal_products`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`restaurant_id` IS NOT old.`restaurant_id` OR new.`category_id` IS NOT old.`category_id` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`description_en` IS NOT old.`description_en` OR
    new.`description_ar` IS NOT old.`description_ar` OR new.`price_minor` IS NOT old.`price_minor` OR
    new.`discount_percentage` IS NOT old.`discount_percentage` OR new.`image` IS NOT old.`image` OR
    new.`original_image` IS NOT old.`original_image` OR new.`is_sub` IS NOT old.`is_sub` OR
    new.`is_active` IS NOT old.`is_active` OR new.`is_special` IS NOT old.`is_special` OR
    new.`in_stock` IS NOT old.`in_stock` OR new.`allergies` IS NOT old.`allergies` OR
    new.`tags` IS NOT old.`tags` OR new.`allergens_dislikes` IS NOT old.`allergens_dislikes` OR
    new.`variant` IS NOT old.`variant` OR new.`off_days` IS NOT old.`off_days` OR
    new.`wallet_credit_minor` IS NOT old.`wallet_credit_minor`) BEGIN
  UPDATE `meal_products` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `meal_subscriptions_modified_at_au` AFTER UPDATE ON `meal_subscriptions`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`customer_id` IS NOT old.`customer_id` OR new.`order_id` IS NOT old.`order_id` OR
    new.`restaurant_id` IS NOT old.`restaurant_id` OR new.`plan_id` IS NOT old.`plan_id` OR
    new.`plan_version_id` IS NOT old.`plan_version_id` OR new.`status` IS NOT old.`status` OR
    new.`start_date` IS NOT old.`start_date` OR new.`end_date` IS NOT old.`end_date` OR
    new.`num_of_days` IS NOT old.`num_of_days` OR new.`is_pickup` IS NOT old.`is_pickup` OR
    new.`pickup_branch_id` IS NOT old.`pickup_branch_id` OR
    new.`delivery_window_id` IS NOT old.`delivery_window_id` OR
    new.`primary_location_id` IS NOT old.`primary_location_id` OR
    new.`secondary_location_id` IS NOT old.`secondary_location_id` OR
    new.`location` IS NOT old.`location` OR new.`notes` IS NOT old.`notes` OR
    new.`pause_attempts_credits` IS NOT old.`pause_attempts_credits` OR
    new.`pause_credits` IS NOT old.`pause_credits` OR new.`paused_days` IS NOT old.`paused_days` OR
    new.`cancel_credits` IS NOT old.`cancel_credits` OR new.`paused_from` IS NOT old.`paused_from` OR
    new.`resume_date` IS NOT old.`resume_date` OR new.`cancelled_at` IS NOT old.`cancelled_at` OR
    new.`renewed_from_id` IS NOT old.`renewed_from_id` OR
    new.`channel_app_id` IS NOT old.`channel_app_id` OR
    new.`channel_customer_id` IS NOT old.`channel_customer_id` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR new.`change_token` IS NOT old.`change_token`) BEGIN
  UPDATE `meal_subscriptions` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `menu_categories_modified_at_au` AFTER UPDATE ON `menu_categories`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR new.`menu_id` IS NOT old.`menu_id` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`image` IS NOT old.`image` OR new.`is_sub` IS NOT old.`is_sub` OR
    new.`is_active` IS NOT old.`is_active`) BEGIN
  UPDATE `menu_categories` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `menus_modified_at_au` AFTER UPDATE ON `menus`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR new.`restaurant_id` IS NOT old.`restaurant_id` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`image` IS NOT old.`image`) BEGIN
  UPDATE `menus` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `modifier_categories_modified_at_au` AFTER UPDATE ON `modifier_categories`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar`) BEGIN
  UPDATE `modifier_categories` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `modifier_values_modified_at_au` AFTER UPDATE ON `modifier_values`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`category_id` IS NOT old.`category_id` OR new.`name_en` IS NOT old.`name_en` OR
    new.`name_ar` IS NOT old.`name_ar`) BEGIN
  UPDATE `modifier_values` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `notifications_modified_at_au` AFTER UPDATE ON `notifications`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`title_en` IS NOT old.`title_en` OR new.`title_ar` IS NOT old.`title_ar` OR
    new.`body_en` IS NOT old.`body_en` OR new.`body_ar` IS NOT old.`body_ar` OR
    new.`data` IS NOT old.`data` OR new.`audience` IS NOT old.`audience` OR
    new.`status` IS NOT old.`status` OR new.`recipients_count` IS NOT old.`recipients_count` OR
    new.`push_sent` IS NOT old.`push_sent` OR new.`push_failed` IS NOT old.`push_failed`) BEGIN
  UPDATE `notifications` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `nutritions_modified_at_au` AFTER UPDATE ON `nutritions`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR new.`product_id` IS NOT old.`product_id` OR
    new.`calories` IS NOT old.`calories` OR new.`carbs` IS NOT old.`carbs` OR
    new.`protein` IS NOT old.`protein` OR new.`fat` IS NOT old.`fat` OR new.`size` IS NOT old.`size`) BEGIN
  UPDATE `nutritions` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `orders_modified_at_au` AFTER UPDATE ON `orders`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`kind` IS NOT old.`kind` OR new.`customer_id` IS NOT old.`customer_id` OR
    new.`cart_id` IS NOT old.`cart_id` OR
    new.`recurring_purchase_id` IS NOT old.`recurring_purchase_id` OR
    new.`reference` IS NOT old.`reference` OR new.`status` IS NOT old.`status` OR
    new.`payment_status` IS NOT old.`payment_status` OR
    new.`fulfillment_status` IS NOT old.`fulfillment_status` OR
    new.`payment_provider` IS NOT old.`payment_provider` OR
    new.`payment_method` IS NOT old.`payment_method` OR
    new.`cart_provider` IS NOT old.`cart_provider` OR new.`currency` IS NOT old.`currency` OR
    new.`sub_total_minor` IS NOT old.`sub_total_minor` OR
    new.`shipping_minor` IS NOT old.`shipping_minor` OR new.`setup_minor` IS NOT old.`setup_minor` OR
    new.`sub_total_discounts_minor` IS NOT old.`sub_total_discounts_minor` OR
    new.`shipping_discounts_minor` IS NOT old.`shipping_discounts_minor` OR
    new.`total_minor` IS NOT old.`total_minor` OR
    new.`wallet_redeem_minor` IS NOT old.`wallet_redeem_minor` OR
    new.`captured_minor` IS NOT old.`captured_minor` OR
    new.`refunded_minor` IS NOT old.`refunded_minor` OR new.`voucher_id` IS NOT old.`voucher_id` OR
    new.`voucher_code` IS NOT old.`voucher_code` OR new.`notes` IS NOT old.`notes` OR
    new.`receiver` IS NOT old.`receiver` OR new.`location` IS NOT old.`location` OR
    new.`pickup_location_id` IS NOT old.`pickup_location_id` OR
    new.`courier_id` IS NOT old.`courier_id` OR new.`expires_at` IS NOT old.`expires_at` OR
    new.`paid_at` IS NOT old.`paid_at` OR new.`cancelled_at` IS NOT old.`cancelled_at` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR
    new.`buyer` IS NOT old.`buyer`) BEGIN
  UPDATE `orders` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `pickup_locations_modified_at_au` AFTER UPDATE ON `pickup_locations`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`address1` IS NOT old.`address1` OR new.`lat` IS NOT old.`lat` OR new.`lng` IS NOT old.`lng` OR
    new.`city_id` IS NOT old.`city_id` OR new.`district_id` IS NOT old.`district_id` OR
    new.`phone` IS NOT old.`phone` OR new.`working_hours` IS NOT old.`working_hours` OR
    new.`is_active` IS NOT old.`is_active` OR new.`is_default` IS NOT old.`is_default` OR
    new.`custom_fields` IS NOT old.`custom_fields`) BEGIN
  UPDATE `pickup_locations` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `plan_categories_modified_at_au` AFTER UPDATE ON `plan_categories`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`plan_id` IS NOT old.`plan_id` OR new.`plan_day_id` IS NOT old.`plan_day_id` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`is_multi_select` IS NOT old.`is_multi_select` OR
    new.`max_selected_options` IS NOT old.`max_selected_options` OR
    new.`category_master_id` IS NOT old.`category_master_id`) BEGIN
  UPDATE `plan_categories` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `plan_days_modified_at_au` AFTER UPDATE ON `plan_days`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`plan_id` IS NOT old.`plan_id` OR new.`restaurant_id` IS NOT old.`restaurant_id` OR
    new.`day` IS NOT old.`day` OR new.`repetition_counter` IS NOT old.`repetition_counter` OR
    new.`master_id` IS NOT old.`master_id`) BEGIN
  UPDATE `plan_days` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `plan_options_modified_at_au` AFTER UPDATE ON `plan_options`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`plan_id` IS NOT old.`plan_id` OR new.`plan_category_id` IS NOT old.`plan_category_id` OR
    new.`product_id` IS NOT old.`product_id` OR new.`is_recommended` IS NOT old.`is_recommended` OR
    new.`is_active` IS NOT old.`is_active`) BEGIN
  UPDATE `plan_options` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `plan_tags_modified_at_au` AFTER UPDATE ON `plan_tags`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`type_en` IS NOT old.`type_en` OR new.`type_ar` IS NOT old.`type_ar` OR
    new.`tag_en` IS NOT old.`tag_en` OR new.`tag_ar` IS NOT old.`tag_ar` OR
    new.`description_en` IS NOT old.`description_en` OR
    new.`description_ar` IS NOT old.`description_ar` OR new.`image` IS NOT old.`image` OR
    new.`color` IS NOT old.`color`) BEGIN
  UPDATE `plan_tags` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `plan_versions_modified_at_au` AFTER UPDATE ON `plan_versions`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR new.`plan_id` IS NOT old.`plan_id` OR
    new.`min_start_date` IS NOT old.`min_start_date` OR
    new.`max_start_date` IS NOT old.`max_start_date` OR new.`off_days` IS NOT old.`off_days` OR
    new.`num_of_days` IS NOT old.`num_of_days` OR
    new.`total_num_of_items` IS NOT old.`total_num_of_items` OR
    new.`delivery_price_minor` IS NOT old.`delivery_price_minor` OR
    new.`original_price_minor` IS NOT old.`original_price_minor` OR
    new.`discount_percentage` IS NOT old.`discount_percentage` OR
    new.`duration` IS NOT old.`duration` OR new.`pause_credits` IS NOT old.`pause_credits` OR
    new.`num_of_pause_attempts` IS NOT old.`num_of_pause_attempts` OR
    new.`min_of_pause_days` IS NOT old.`min_of_pause_days`) BEGIN
  UPDATE `plan_versions` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `plans_modified_at_au` AFTER UPDATE ON `plans`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`restaurant_id` IS NOT old.`restaurant_id` OR new.`menu_id` IS NOT old.`menu_id` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`subtitle_en` IS NOT old.`subtitle_en` OR new.`subtitle_ar` IS NOT old.`subtitle_ar` OR
    new.`description_en` IS NOT old.`description_en` OR
    new.`description_ar` IS NOT old.`description_ar` OR new.`image` IS NOT old.`image` OR
    new.`image_ar` IS NOT old.`image_ar` OR new.`tag_ids` IS NOT old.`tag_ids` OR
    new.`daily_num_of_items` IS NOT old.`daily_num_of_items` OR
    new.`avg_daily_meal_calories` IS NOT old.`avg_daily_meal_calories` OR
    new.`start_after` IS NOT old.`start_after` OR
    new.`special_product_selection_limit` IS NOT old.`special_product_selection_limit` OR
    new.`featured_title_en` IS NOT old.`featured_title_en` OR
    new.`featured_title_ar` IS NOT old.`featured_title_ar` OR
    new.`is_featured` IS NOT old.`is_featured` OR
    new.`is_marketplace_featured` IS NOT old.`is_marketplace_featured` OR
    new.`is_marketplace_active` IS NOT old.`is_marketplace_active` OR
    new.`is_active` IS NOT old.`is_active` OR new.`supported_service` IS NOT old.`supported_service` OR
    new.`gender` IS NOT old.`gender` OR new.`subscription_type` IS NOT old.`subscription_type` OR
    new.`repetition` IS NOT old.`repetition` OR
    new.`skip_option_selection` IS NOT old.`skip_option_selection` OR
    new.`size_title` IS NOT old.`size_title` OR
    new.`size_protein_amount` IS NOT old.`size_protein_amount` OR
    new.`size_carb_amount` IS NOT old.`size_carb_amount` OR new.`size_unit` IS NOT old.`size_unit`) BEGIN
  UPDATE `plans` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `recurring_purchases_modified_at_au` AFTER UPDATE ON `recurring_purchases`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`customer_id` IS NOT old.`customer_id` OR new.`cart_id` IS NOT old.`cart_id` OR
    new.`status` IS NOT old.`status` OR new.`cart_provider` IS NOT old.`cart_provider` OR
    new.`duration` IS NOT old.`duration` OR new.`duration_unit` IS NOT old.`duration_unit` OR
    new.`payment_provider` IS NOT old.`payment_provider` OR
    new.`saved_payment_method_id` IS NOT old.`saved_payment_method_id` OR
    new.`next_order_date` IS NOT old.`next_order_date` OR
    new.`last_order_date` IS NOT old.`last_order_date` OR
    new.`last_charge_date` IS NOT old.`last_charge_date` OR
    new.`charge_attempts` IS NOT old.`charge_attempts` OR
    new.`inactive_reason` IS NOT old.`inactive_reason` OR
    new.`custom_fields` IS NOT old.`custom_fields`) BEGIN
  UPDATE `recurring_purchases` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `restaurant_branches_modified_at_au` AFTER UPDATE ON `restaurant_branches`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`restaurant_id` IS NOT old.`restaurant_id` OR new.`name_en` IS NOT old.`name_en` OR
    new.`name_ar` IS NOT old.`name_ar` OR new.`city_id` IS NOT old.`city_id` OR
    new.`address1` IS NOT old.`address1` OR new.`lat` IS NOT old.`lat` OR new.`lng` IS NOT old.`lng` OR
    new.`is_main` IS NOT old.`is_main` OR new.`supports_pickup` IS NOT old.`supports_pickup` OR
    new.`delivery_radius_km` IS NOT old.`delivery_radius_km`) BEGIN
  UPDATE `restaurant_branches` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `restaurant_categories_modified_at_au` AFTER UPDATE ON `restaurant_categories`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`image` IS NOT old.`image`) BEGIN
  UPDATE `restaurant_categories` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `restaurant_variants_modified_at_au` AFTER UPDATE ON `restaurant_variants`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`restaurant_id` IS NOT old.`restaurant_id` OR new.`name_en` IS NOT old.`name_en` OR
    new.`name_ar` IS NOT old.`name_ar`) BEGIN
  UPDATE `restaurant_variants` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `restaurants_modified_at_au` AFTER UPDATE ON `restaurants`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR new.`category_id` IS NOT old.`category_id` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`subtitle_en` IS NOT old.`subtitle_en` OR new.`subtitle_ar` IS NOT old.`subtitle_ar` OR
    new.`description_en` IS NOT old.`description_en` OR
    new.`description_ar` IS NOT old.`description_ar` OR new.`logo` IS NOT old.`logo` OR
    new.`banner` IS NOT old.`banner` OR new.`rest_type` IS NOT old.`rest_type` OR
    new.`start_after` IS NOT old.`start_after` OR
    new.`store_start_after` IS NOT old.`store_start_after` OR new.`is_active` IS NOT old.`is_active` OR
    new.`primary_color` IS NOT old.`primary_color` OR
    new.`secondary_color` IS NOT old.`secondary_color` OR
    new.`closed_dates` IS NOT old.`closed_dates` OR new.`off_days` IS NOT old.`off_days` OR
    new.`supports_pickup` IS NOT old.`supports_pickup` OR
    new.`supports_delivery` IS NOT old.`supports_delivery` OR
    new.`delivery_by_platform` IS NOT old.`delivery_by_platform` OR
    new.`menu_id` IS NOT old.`menu_id` OR new.`time_zone` IS NOT old.`time_zone` OR
    new.`cutoff_hours` IS NOT old.`cutoff_hours`) BEGIN
  UPDATE `restaurants` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `saved_payment_methods_modified_at_au` AFTER UPDATE ON `saved_payment_methods`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`customer_id` IS NOT old.`customer_id` OR new.`gateway` IS NOT old.`gateway` OR
    new.`brand` IS NOT old.`brand` OR new.`last4` IS NOT old.`last4` OR
    new.`expiry_month` IS NOT old.`expiry_month` OR new.`expiry_year` IS NOT old.`expiry_year` OR
    new.`token` IS NOT old.`token` OR new.`is_default` IS NOT old.`is_default`) BEGIN
  UPDATE `saved_payment_methods` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `shipments_modified_at_au` AFTER UPDATE ON `shipments`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`order_id` IS NOT old.`order_id` OR new.`courier_id` IS NOT old.`courier_id` OR
    new.`service` IS NOT old.`service` OR new.`direction` IS NOT old.`direction` OR
    new.`return_of_id` IS NOT old.`return_of_id` OR new.`return_status` IS NOT old.`return_status` OR
    new.`origin_pickup_location_id` IS NOT old.`origin_pickup_location_id` OR
    new.`origin` IS NOT old.`origin` OR new.`destination` IS NOT old.`destination` OR
    new.`packages` IS NOT old.`packages` OR new.`weight_g` IS NOT old.`weight_g` OR
    new.`cod_amount_minor` IS NOT old.`cod_amount_minor` OR new.`cost_minor` IS NOT old.`cost_minor` OR
    new.`currency` IS NOT old.`currency` OR new.`carrier_reference` IS NOT old.`carrier_reference` OR
    new.`tracking_number` IS NOT old.`tracking_number` OR
    new.`tracking_url` IS NOT old.`tracking_url` OR new.`label_url` IS NOT old.`label_url` OR
    new.`status` IS NOT old.`status` OR new.`notes` IS NOT old.`notes` OR
    new.`delivered_at` IS NOT old.`delivered_at` OR new.`cancelled_at` IS NOT old.`cancelled_at` OR
    new.`custom_fields` IS NOT old.`custom_fields`) BEGIN
  UPDATE `shipments` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `shipping_configs_modified_at_au` AFTER UPDATE ON `shipping_configs`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`app_id` IS NOT old.`app_id` OR
    new.`default_pickup_location_id` IS NOT old.`default_pickup_location_id` OR
    new.`package_defaults` IS NOT old.`package_defaults` OR
    new.`enabled_courier_ids` IS NOT old.`enabled_courier_ids`) BEGIN
  UPDATE `shipping_configs` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `shipping_labels_modified_at_au` AFTER UPDATE ON `shipping_labels`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`shipment_id` IS NOT old.`shipment_id` OR new.`order_id` IS NOT old.`order_id` OR
    new.`courier_id` IS NOT old.`courier_id` OR new.`tracking_number` IS NOT old.`tracking_number` OR
    new.`cost_minor` IS NOT old.`cost_minor` OR new.`currency` IS NOT old.`currency` OR
    new.`voided_at` IS NOT old.`voided_at` OR new.`refund_minor` IS NOT old.`refund_minor`) BEGIN
  UPDATE `shipping_labels` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `store_settings_modified_at_au` AFTER UPDATE ON `store_settings`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`app_id` IS NOT old.`app_id` OR new.`name_en` IS NOT old.`name_en` OR
    new.`name_ar` IS NOT old.`name_ar` OR new.`logo` IS NOT old.`logo` OR
    new.`currency` IS NOT old.`currency` OR new.`default_lang` IS NOT old.`default_lang` OR
    new.`languages` IS NOT old.`languages` OR new.`timezone` IS NOT old.`timezone` OR
    new.`vat_percentage_bp` IS NOT old.`vat_percentage_bp` OR
    new.`vat_number` IS NOT old.`vat_number` OR new.`seller_name` IS NOT old.`seller_name` OR
    new.`commercial_registration` IS NOT old.`commercial_registration` OR
    new.`address` IS NOT old.`address` OR new.`seller_address` IS NOT old.`seller_address`) BEGIN
  UPDATE `store_settings` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `suborders_modified_at_au` AFTER UPDATE ON `suborders`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`subscription_id` IS NOT old.`subscription_id` OR new.`customer_id` IS NOT old.`customer_id` OR
    new.`restaurant_id` IS NOT old.`restaurant_id` OR new.`date` IS NOT old.`date` OR
    new.`original_date` IS NOT old.`original_date` OR new.`status` IS NOT old.`status` OR
    new.`is_frozen` IS NOT old.`is_frozen` OR new.`is_postponed` IS NOT old.`is_postponed` OR
    new.`plan_day_id` IS NOT old.`plan_day_id` OR new.`is_pickup` IS NOT old.`is_pickup` OR
    new.`pickup_branch_id` IS NOT old.`pickup_branch_id` OR
    new.`delivery_window_id` IS NOT old.`delivery_window_id` OR
    new.`location_id` IS NOT old.`location_id` OR new.`location` IS NOT old.`location` OR
    new.`meals` IS NOT old.`meals` OR new.`add_ons` IS NOT old.`add_ons` OR
    new.`captain_id` IS NOT old.`captain_id` OR new.`notes` IS NOT old.`notes` OR
    new.`operation_note` IS NOT old.`operation_note` OR new.`delivered_at` IS NOT old.`delivered_at` OR
    new.`change_token` IS NOT old.`change_token`) BEGIN
  UPDATE `suborders` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `subscription_updates_modified_at_au` AFTER UPDATE ON `subscription_updates`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`subscription_id` IS NOT old.`subscription_id` OR new.`status` IS NOT old.`status` OR
    new.`effective` IS NOT old.`effective` OR new.`effective_at` IS NOT old.`effective_at` OR
    new.`changes` IS NOT old.`changes` OR new.`proration_minor` IS NOT old.`proration_minor` OR
    new.`applied_at` IS NOT old.`applied_at` OR new.`cancelled_at` IS NOT old.`cancelled_at`) BEGIN
  UPDATE `subscription_updates` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `subscriptions_modified_at_au` AFTER UPDATE ON `subscriptions`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`customer_id` IS NOT old.`customer_id` OR new.`item_id` IS NOT old.`item_id` OR
    new.`order_id` IS NOT old.`order_id` OR new.`first_invoice_id` IS NOT old.`first_invoice_id` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`status` IS NOT old.`status` OR new.`quantity` IS NOT old.`quantity` OR
    new.`unit_price_minor` IS NOT old.`unit_price_minor` OR new.`currency` IS NOT old.`currency` OR
    new.`payment_provider` IS NOT old.`payment_provider` OR new.`duration` IS NOT old.`duration` OR
    new.`duration_unit` IS NOT old.`duration_unit` OR new.`trial_days` IS NOT old.`trial_days` OR
    new.`in_trial` IS NOT old.`in_trial` OR new.`trial_start_date` IS NOT old.`trial_start_date` OR
    new.`trial_end_date` IS NOT old.`trial_end_date` OR new.`start_date` IS NOT old.`start_date` OR
    new.`end_date` IS NOT old.`end_date` OR
    new.`total_billing_cycles` IS NOT old.`total_billing_cycles` OR
    new.`remaining_billing_cycles` IS NOT old.`remaining_billing_cycles` OR
    new.`auto_renew` IS NOT old.`auto_renew` OR
    new.`current_period_start_date` IS NOT old.`current_period_start_date` OR
    new.`current_period_end_date` IS NOT old.`current_period_end_date` OR
    new.`last_billing_date` IS NOT old.`last_billing_date` OR
    new.`next_billing_date` IS NOT old.`next_billing_date` OR
    new.`retry_date` IS NOT old.`retry_date` OR new.`failed_attempts` IS NOT old.`failed_attempts` OR
    new.`usage_counter` IS NOT old.`usage_counter` OR new.`usage_limit` IS NOT old.`usage_limit` OR
    new.`usage_unit` IS NOT old.`usage_unit` OR
    new.`auto_increment_usage` IS NOT old.`auto_increment_usage` OR
    new.`proration_minor` IS NOT old.`proration_minor` OR
    new.`activated_at` IS NOT old.`activated_at` OR new.`paused_at` IS NOT old.`paused_at` OR
    new.`pause_resumes_at` IS NOT old.`pause_resumes_at` OR
    new.`suspended_at` IS NOT old.`suspended_at` OR new.`cancelled_at` IS NOT old.`cancelled_at` OR
    new.`cancellation_reason` IS NOT old.`cancellation_reason` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR new.`change_token` IS NOT old.`change_token`) BEGIN
  UPDATE `subscriptions` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `supported_cities_modified_at_au` AFTER UPDATE ON `supported_cities`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`city_id` IS NOT old.`city_id`) BEGIN
  UPDATE `supported_cities` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `tickets_modified_at_au` AFTER UPDATE ON `tickets`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`invoice_item_id` IS NOT old.`invoice_item_id` OR new.`item_id` IS NOT old.`item_id` OR
    new.`name_en` IS NOT old.`name_en` OR new.`name_ar` IS NOT old.`name_ar` OR
    new.`status` IS NOT old.`status` OR new.`total_amount_minor` IS NOT old.`total_amount_minor` OR
    new.`date` IS NOT old.`date` OR new.`time` IS NOT old.`time` OR
    new.`customer_name` IS NOT old.`customer_name` OR
    new.`customer_email` IS NOT old.`customer_email` OR
    new.`customer_phone` IS NOT old.`customer_phone` OR new.`token` IS NOT old.`token` OR
    new.`checked_in_at` IS NOT old.`checked_in_at`) BEGIN
  UPDATE `tickets` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `transactions_modified_at_au` AFTER UPDATE ON `transactions`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`order_id` IS NOT old.`order_id` OR new.`invoice_id` IS NOT old.`invoice_id` OR
    new.`type` IS NOT old.`type` OR new.`status` IS NOT old.`status` OR
    new.`amount_minor` IS NOT old.`amount_minor` OR new.`currency` IS NOT old.`currency` OR
    new.`payment_provider` IS NOT old.`payment_provider` OR
    new.`payment_method` IS NOT old.`payment_method` OR new.`gateway` IS NOT old.`gateway` OR
    new.`provider_reference` IS NOT old.`provider_reference` OR
    new.`provider_details` IS NOT old.`provider_details` OR
    new.`payment_url` IS NOT old.`payment_url` OR new.`receipt_url` IS NOT old.`receipt_url` OR
    new.`reviewed_at` IS NOT old.`reviewed_at` OR new.`decline_reason` IS NOT old.`decline_reason` OR
    new.`custom_fields` IS NOT old.`custom_fields`) BEGIN
  UPDATE `transactions` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `vouchers_modified_at_au` AFTER UPDATE ON `vouchers`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`code` IS NOT old.`code` OR new.`title_en` IS NOT old.`title_en` OR
    new.`title_ar` IS NOT old.`title_ar` OR new.`kind` IS NOT old.`kind` OR
    new.`value` IS NOT old.`value` OR new.`discount_on` IS NOT old.`discount_on` OR
    new.`min_order_minor` IS NOT old.`min_order_minor` OR
    new.`max_discount_minor` IS NOT old.`max_discount_minor` OR
    new.`starts_at` IS NOT old.`starts_at` OR new.`ends_at` IS NOT old.`ends_at` OR
    new.`usage_limit` IS NOT old.`usage_limit` OR
    new.`per_customer_limit` IS NOT old.`per_customer_limit` OR
    new.`usage_count` IS NOT old.`usage_count` OR new.`item_ids` IS NOT old.`item_ids` OR
    new.`category_ids` IS NOT old.`category_ids` OR new.`is_featured` IS NOT old.`is_featured` OR
    new.`status` IS NOT old.`status` OR new.`custom_fields` IS NOT old.`custom_fields`) BEGIN
  UPDATE `vouchers` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `webhooks_modified_at_au` AFTER UPDATE ON `webhooks`
  WHEN new.modified_at IS old.modified_at AND old.modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now') AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`url` IS NOT old.`url` OR new.`secret_key` IS NOT old.`secret_key` OR
    new.`previous_secret_key` IS NOT old.`previous_secret_key` OR
    new.`previous_secret_expires_at` IS NOT old.`previous_secret_expires_at` OR
    new.`is_active` IS NOT old.`is_active` OR new.`events` IS NOT old.`events` OR
    new.`headers` IS NOT old.`headers` OR new.`failing_since` IS NOT old.`failing_since` OR
    new.`slow_since` IS NOT old.`slow_since` OR new.`disabled_reason` IS NOT old.`disabled_reason` OR
    new.`disabled_at` IS NOT old.`disabled_at`) BEGIN
  UPDATE `webhooks` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE rowid = new.rowid;
END;--> statement-breakpoint
-- An item's list shows its variants: a change of a variant is a change of its item.
CREATE TRIGGER `items_variant_modified_at_au` AFTER UPDATE ON `items` WHEN new.parent_id IS NOT NULL AND (
    new.`id` IS NOT old.`id` OR new.`app_id` IS NOT old.`app_id` OR
    new.`created_at` IS NOT old.`created_at` OR new.`deleted_at` IS NOT old.`deleted_at` OR
    new.`is_deleted` IS NOT old.`is_deleted` OR new.`ordering` IS NOT old.`ordering` OR
    new.`parent_id` IS NOT old.`parent_id` OR new.`type` IS NOT old.`type` OR
    new.`service_type` IS NOT old.`service_type` OR new.`sku` IS NOT old.`sku` OR
    new.`price_minor` IS NOT old.`price_minor` OR new.`name_en` IS NOT old.`name_en` OR
    new.`name_ar` IS NOT old.`name_ar` OR new.`description_en` IS NOT old.`description_en` OR
    new.`description_ar` IS NOT old.`description_ar` OR
    new.`custom_fields` IS NOT old.`custom_fields` OR new.`is_plan_only` IS NOT old.`is_plan_only` OR
    new.`is_plan_enabled` IS NOT old.`is_plan_enabled` OR new.`plan_config` IS NOT old.`plan_config` OR
    new.`off_days` IS NOT old.`off_days` OR new.`off_dates` IS NOT old.`off_dates` OR
    new.`served_from_date` IS NOT old.`served_from_date` OR
    new.`served_to_date` IS NOT old.`served_to_date` OR
    new.`served_from_time` IS NOT old.`served_from_time` OR
    new.`served_to_time` IS NOT old.`served_to_time` OR new.`weight` IS NOT old.`weight` OR
    new.`stock_qty` IS NOT old.`stock_qty` OR new.`varies_on_id` IS NOT old.`varies_on_id` OR
    new.`variant_title_en` IS NOT old.`variant_title_en` OR
    new.`variant_title_ar` IS NOT old.`variant_title_ar` OR
    new.`modified_at` IS NOT old.`modified_at`) BEGIN
  UPDATE `items` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = new.parent_id AND modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now');
END;--> statement-breakpoint
CREATE TRIGGER `items_variant_modified_at_ai` AFTER INSERT ON `items` WHEN new.parent_id IS NOT NULL BEGIN
  UPDATE `items` SET modified_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = new.parent_id AND modified_at < strftime('%Y-%m-%dT%H:%M:%fZ','now');
END;
