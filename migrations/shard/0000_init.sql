CREATE TABLE `apps` (
	`id` integer PRIMARY KEY NOT NULL,
	`org_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `merchant_api_tokens` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_prefix` text NOT NULL,
	`permissions` text NOT NULL,
	`expires_at` text,
	`revoked_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `merchant_api_tokens_hash_uq` ON `merchant_api_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `merchant_api_tokens_app_idx` ON `merchant_api_tokens` (`app_id`);--> statement-breakpoint
CREATE TABLE `outbox_events` (
	`id` text PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	`enqueued_at` text
);
--> statement-breakpoint
CREATE INDEX `outbox_events_pending_idx` ON `outbox_events` (`enqueued_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `outbox_events_app_idx` ON `outbox_events` (`app_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `bundle_categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`is_selectable` integer DEFAULT true NOT NULL,
	`is_optional` integer DEFAULT false NOT NULL,
	`min_selections` integer DEFAULT 0 NOT NULL,
	`max_selections` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bundle_categories_app_idx` ON `bundle_categories` (`app_id`);--> statement-breakpoint
CREATE TABLE `item_bundle_categories` (
	`app_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`bundle_category_id` integer NOT NULL,
	PRIMARY KEY(`item_id`, `bundle_category_id`),
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`bundle_category_id`) REFERENCES `bundle_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `item_bundle_categories_category_idx` ON `item_bundle_categories` (`bundle_category_id`);--> statement-breakpoint
CREATE TABLE `item_categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `item_categories_app_idx` ON `item_categories` (`app_id`);--> statement-breakpoint
CREATE TABLE `item_category_links` (
	`app_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	PRIMARY KEY(`item_id`, `category_id`),
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_id`) REFERENCES `item_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `item_category_links_category_idx` ON `item_category_links` (`category_id`);--> statement-breakpoint
CREATE TABLE `item_discounts` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`item_id` integer NOT NULL,
	`kind` text NOT NULL,
	`value` integer NOT NULL,
	`trial_kind` text,
	`trial_value` integer,
	`is_usage_price` integer DEFAULT false NOT NULL,
	`starts_at` text,
	`ends_at` text,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `item_discounts_item_uq` ON `item_discounts` (`item_id`);--> statement-breakpoint
CREATE TABLE `item_images` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`item_id` integer NOT NULL,
	`url` text NOT NULL,
	`alt_en` text DEFAULT '' NOT NULL,
	`alt_ar` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `item_images_item_idx` ON `item_images` (`item_id`);--> statement-breakpoint
CREATE TABLE `item_modifier_categories` (
	`app_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	PRIMARY KEY(`item_id`, `category_id`),
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_id`) REFERENCES `modifier_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `item_modifier_categories_category_idx` ON `item_modifier_categories` (`category_id`);--> statement-breakpoint
CREATE TABLE `items` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`parent_id` integer,
	`type` text NOT NULL,
	`service_type` text NOT NULL,
	`sku` text NOT NULL,
	`price_minor` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`description_en` text DEFAULT '' NOT NULL,
	`description_ar` text DEFAULT '' NOT NULL,
	`custom_fields` text,
	`is_plan_only` integer DEFAULT false NOT NULL,
	`is_plan_enabled` integer DEFAULT false NOT NULL,
	`plan_config` text,
	`off_days` text DEFAULT '[]' NOT NULL,
	`off_dates` text DEFAULT '[]' NOT NULL,
	`served_from_date` text DEFAULT '0001-01-01' NOT NULL,
	`served_to_date` text DEFAULT '9999-12-31' NOT NULL,
	`served_from_time` text DEFAULT '00:00:00' NOT NULL,
	`served_to_time` text DEFAULT '23:59:59' NOT NULL,
	`weight` real DEFAULT 0 NOT NULL,
	`stock_qty` integer DEFAULT 0 NOT NULL,
	`varies_on_id` integer,
	`variant_title_en` text,
	`variant_title_ar` text
);
--> statement-breakpoint
CREATE INDEX `items_app_idx` ON `items` (`app_id`,`is_deleted`,`parent_id`);--> statement-breakpoint
CREATE INDEX `items_parent_idx` ON `items` (`parent_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `items_app_sku_uq` ON `items` (`app_id`,`sku`);--> statement-breakpoint
CREATE TABLE `modifier_categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `modifier_categories_app_idx` ON `modifier_categories` (`app_id`);--> statement-breakpoint
CREATE TABLE `modifier_values` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`category_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `modifier_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `modifier_values_category_idx` ON `modifier_values` (`category_id`);--> statement-breakpoint
CREATE TABLE `variant_modifier_values` (
	`app_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`value_id` integer NOT NULL,
	PRIMARY KEY(`item_id`, `value_id`),
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`value_id`) REFERENCES `modifier_values`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`invoice_item_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`total_amount_minor` integer NOT NULL,
	`date` text NOT NULL,
	`time` text,
	`customer_name` text,
	`customer_email` text,
	`customer_phone` text,
	`token` text NOT NULL,
	`checked_in_at` text,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_token_uq` ON `tickets` (`token`);--> statement-breakpoint
CREATE INDEX `tickets_app_created_idx` ON `tickets` (`app_id`,`is_deleted`,`created_at`);--> statement-breakpoint
CREATE INDEX `tickets_app_status_date_idx` ON `tickets` (`app_id`,`is_deleted`,`status`,`date`);--> statement-breakpoint
CREATE INDEX `tickets_app_date_idx` ON `tickets` (`app_id`,`is_deleted`,`date`);--> statement-breakpoint
CREATE INDEX `tickets_app_item_idx` ON `tickets` (`app_id`,`item_id`);--> statement-breakpoint
CREATE INDEX `tickets_app_invoice_item_idx` ON `tickets` (`app_id`,`invoice_item_id`);--> statement-breakpoint
CREATE INDEX `tickets_app_customer_email_idx` ON `tickets` (`app_id`,`customer_email`);