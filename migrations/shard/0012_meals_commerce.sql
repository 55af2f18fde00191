CREATE TABLE `meal_complaints` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`suborder_id` integer NOT NULL,
	`subscription_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`reason` text NOT NULL,
	`description` text,
	`images` text DEFAULT '[]' NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`resolution_note` text,
	`wallet_credit_minor` integer,
	`resolved_at` text
);
--> statement-breakpoint
CREATE INDEX `meal_complaints_app_idx` ON `meal_complaints` (`app_id`,`is_deleted`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `meal_complaints_customer_idx` ON `meal_complaints` (`app_id`,`customer_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `meal_complaints_suborder_idx` ON `meal_complaints` (`suborder_id`);--> statement-breakpoint
CREATE TABLE `captains` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`name` text NOT NULL,
	`country_code` text NOT NULL,
	`mobile_number` text NOT NULL,
	`city_id` integer NOT NULL,
	`branch_id` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`vehicle` text
);
--> statement-breakpoint
CREATE INDEX `captains_app_idx` ON `captains` (`app_id`,`is_deleted`,`city_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `captains_app_mobile_live_uq` ON `captains` (`app_id`,`mobile_number`) WHERE "captains"."is_deleted" = 0;--> statement-breakpoint
CREATE TABLE `meal_orders` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`order_id` integer NOT NULL,
	`type` text NOT NULL,
	`customer_id` integer NOT NULL,
	`restaurant_id` integer NOT NULL,
	`plan_id` integer,
	`plan_version_id` integer,
	`subscription_id` integer,
	`start_date` text,
	`end_date` text,
	`is_pickup` integer DEFAULT false NOT NULL,
	`pickup_branch_id` integer,
	`delivery_window_id` integer,
	`primary_location_id` integer,
	`secondary_location_id` integer,
	`city_id` integer,
	`location` text,
	`notes` text,
	`pause_credits` integer DEFAULT 0 NOT NULL,
	`pause_attempts_credits` integer DEFAULT 0 NOT NULL,
	`selections` text DEFAULT '[]' NOT NULL,
	`channel_app_id` integer,
	`channel_customer_id` integer,
	`custom_fields` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `meal_orders_order_idx` ON `meal_orders` (`order_id`);--> statement-breakpoint
CREATE INDEX `meal_orders_app_idx` ON `meal_orders` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE INDEX `meal_orders_customer_idx` ON `meal_orders` (`app_id`,`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `meal_orders_channel_idx` ON `meal_orders` (`channel_app_id`,`channel_customer_id`,`id`);--> statement-breakpoint
CREATE TABLE `meal_subscriptions` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`customer_id` integer NOT NULL,
	`order_id` integer NOT NULL,
	`restaurant_id` integer NOT NULL,
	`plan_id` integer NOT NULL,
	`plan_version_id` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`num_of_days` integer NOT NULL,
	`is_pickup` integer DEFAULT false NOT NULL,
	`pickup_branch_id` integer,
	`delivery_window_id` integer,
	`primary_location_id` integer,
	`secondary_location_id` integer,
	`location` text,
	`notes` text,
	`pause_attempts_credits` integer DEFAULT 0 NOT NULL,
	`pause_credits` integer DEFAULT 0 NOT NULL,
	`paused_days` integer DEFAULT 0 NOT NULL,
	`cancel_credits` integer DEFAULT 0 NOT NULL,
	`paused_from` text,
	`resume_date` text,
	`cancelled_at` text,
	`renewed_from_id` integer,
	`channel_app_id` integer,
	`channel_customer_id` integer,
	`custom_fields` text,
	`change_token` text
);
--> statement-breakpoint
CREATE INDEX `meal_subscriptions_app_idx` ON `meal_subscriptions` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE INDEX `meal_subscriptions_customer_idx` ON `meal_subscriptions` (`app_id`,`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `meal_subscriptions_order_idx` ON `meal_subscriptions` (`order_id`);--> statement-breakpoint
CREATE INDEX `meal_subscriptions_channel_idx` ON `meal_subscriptions` (`channel_app_id`,`channel_customer_id`,`id`);--> statement-breakpoint
CREATE TABLE `suborders` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`subscription_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`restaurant_id` integer NOT NULL,
	`date` text NOT NULL,
	`original_date` text NOT NULL,
	`status` text DEFAULT 'new' NOT NULL,
	`is_frozen` integer DEFAULT false NOT NULL,
	`is_postponed` integer DEFAULT false NOT NULL,
	`plan_day_id` integer,
	`is_pickup` integer DEFAULT false NOT NULL,
	`pickup_branch_id` integer,
	`delivery_window_id` integer,
	`location_id` integer,
	`location` text,
	`meals` text DEFAULT '[]' NOT NULL,
	`add_ons` text DEFAULT '[]' NOT NULL,
	`captain_id` integer,
	`notes` text,
	`operation_note` text,
	`delivered_at` text,
	`change_token` text
);
--> statement-breakpoint
CREATE INDEX `suborders_subscription_idx` ON `suborders` (`subscription_id`,`date`);--> statement-breakpoint
CREATE INDEX `suborders_customer_idx` ON `suborders` (`app_id`,`customer_id`,`date`);--> statement-breakpoint
CREATE INDEX `suborders_day_idx` ON `suborders` (`app_id`,`date`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `suborders_subscription_date_idx` ON `suborders` (`subscription_id`,`date`) WHERE is_frozen = 0 AND status NOT IN ('cancelled_by_customer', 'cancelled_by_operation');--> statement-breakpoint
CREATE TABLE `corporate_locations` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`custom_fields` text,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`company_name` text,
	`city_id` integer NOT NULL,
	`district` text,
	`address` text DEFAULT '' NOT NULL,
	`lat` real NOT NULL,
	`lng` real NOT NULL,
	`delivery_window_ids` text DEFAULT '[]' NOT NULL,
	`instructions` text,
	`is_active` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE INDEX `corporate_locations_app_idx` ON `corporate_locations` (`app_id`,`is_deleted`,`city_id`);--> statement-breakpoint
CREATE TABLE `meal_app_configs` (
	`app_id` integer PRIMARY KEY NOT NULL,
	`primary_color` text,
	`secondary_color` text,
	`logo` text,
	`splash_image` text,
	`default_lang` text DEFAULT 'ar' NOT NULL,
	`supported_languages` text DEFAULT '["ar","en"]' NOT NULL,
	`min_ios_version` text,
	`min_android_version` text,
	`force_update` integer DEFAULT false NOT NULL,
	`contact_phone` text,
	`contact_email` text,
	`whatsapp_number` text,
	`terms_url_en` text,
	`terms_url_ar` text,
	`privacy_url_en` text,
	`privacy_url_ar` text,
	`features` text DEFAULT '{}' NOT NULL,
	`custom_fields` text,
	`modified_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `channel_connections` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`channel_app_id` integer NOT NULL,
	`provider_app_id` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`commission_bp` integer,
	`message` text,
	`requested_at` text NOT NULL,
	`decided_at` text,
	`decided_by` integer,
	`deactivated_by_app_id` integer
);
--> statement-breakpoint
CREATE INDEX `channel_connections_channel_idx` ON `channel_connections` (`channel_app_id`,`is_deleted`,`status`);--> statement-breakpoint
CREATE INDEX `channel_connections_provider_idx` ON `channel_connections` (`provider_app_id`,`is_deleted`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `channel_connections_live_pair_idx` ON `channel_connections` (`channel_app_id`,`provider_app_id`) WHERE is_deleted = 0 AND status <> 'rejected';--> statement-breakpoint
CREATE TABLE `channel_plan_listings` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`provider_app_id` integer NOT NULL,
	`plan_id` integer NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`is_featured` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `channel_plan_listings_app_idx` ON `channel_plan_listings` (`app_id`,`is_deleted`,`provider_app_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `channel_plan_listings_plan_idx` ON `channel_plan_listings` (`app_id`,`plan_id`) WHERE is_deleted = 0;--> statement-breakpoint
CREATE TABLE `channel_profiles` (
	`app_id` integer PRIMARY KEY NOT NULL,
	`name_en` text,
	`name_ar` text,
	`logo` text,
	`description_en` text,
	`description_ar` text,
	`is_listed` integer DEFAULT false NOT NULL,
	`contact_name` text,
	`contact_email` text,
	`contact_phone` text,
	`website` text,
	`supported_city_ids` text DEFAULT '[]' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `delivery_windows` ADD `type` text DEFAULT 'both' NOT NULL;--> statement-breakpoint
ALTER TABLE `delivery_windows` ADD `is_default` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `delivery_windows` ADD `tag` text;--> statement-breakpoint
ALTER TABLE `delivery_windows` ADD `is_on_demand_opened` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `restaurants` ADD `cutoff_hours` integer DEFAULT 24 NOT NULL;