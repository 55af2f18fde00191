CREATE INDEX `customers_app_modified_idx` ON `customers` (`app_id`,`modified_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_app_modified_idx` ON `items` (`app_id`,`modified_at`,`id`);--> statement-breakpoint
CREATE INDEX `orders_app_modified_idx` ON `orders` (`app_id`,`modified_at`,`id`);--> statement-breakpoint
-- Incremental sync (docs/interface-decisions.md, "Lists: incremental sync"): every change of a row
-- moves its `modified_at`. Writers set it; an UPDATE that changed a column but left `modified_at` as
-- it was (a guard, a raw SQL statement, a scheduled sweep) gets the database's time here. An UPDATE
-- that changed nothing is no change. Not recursive: the trigger's own UPDATE changes `modified_at`,
-- which its condition requires unchanged (and only when the row's time is behind the clock).
-- Only on the tables of orders, customers and items: a trigger cannot tell an UPDATE that leaves
-- `modified_at` from one that sets it to the value it has, so a batch that writes a row twice under
-- its own time and then selects that row's event by that time (fulfillments, suborders) would lose
-- the event. The other tables' writers set `modified_at` themselves.
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
