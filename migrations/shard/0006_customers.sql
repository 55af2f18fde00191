CREATE TABLE `idempotency_keys` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`principal` text NOT NULL,
	`key` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`body_hash` text NOT NULL,
	`state` text DEFAULT 'in_flight' NOT NULL,
	`response_status` integer,
	`response_headers` text,
	`response_body` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idempotency_keys_uq` ON `idempotency_keys` (`app_id`,`principal`,`key`);--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `cities` (
	`id` integer PRIMARY KEY NOT NULL,
	`region_id` integer NOT NULL,
	`country_code` text NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`keywords` text DEFAULT '' NOT NULL,
	`lat` real NOT NULL,
	`lng` real NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`region_id`) REFERENCES `regions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `cities_region_idx` ON `cities` (`region_id`);--> statement-breakpoint
CREATE TABLE `countries` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`phone_code` text NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `countries_code_unique` ON `countries` (`code`);--> statement-breakpoint
CREATE TABLE `customer_locations` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`customer_id` integer NOT NULL,
	`type` text DEFAULT 'home' NOT NULL,
	`name_en` text DEFAULT '' NOT NULL,
	`name_ar` text DEFAULT '' NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`city_id` integer,
	`district_id` integer,
	`address1` text DEFAULT '' NOT NULL,
	`address2` text,
	`postal_code` text,
	`formatted_address` text,
	`place_id` text,
	`route` text,
	`street_number` text,
	`location_url` text,
	`image` text,
	`description` text,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`district_id`) REFERENCES `districts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `customer_locations_app_customer_idx` ON `customer_locations` (`app_id`,`customer_id`,`is_deleted`);--> statement-breakpoint
CREATE TABLE `customer_memberships` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`customer_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`subscription_id` integer,
	`status` text DEFAULT 'active' NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `customer_memberships_app_customer_idx` ON `customer_memberships` (`app_id`,`customer_id`,`is_deleted`);--> statement-breakpoint
CREATE TABLE `customer_notifications` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`notification_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`title_en` text NOT NULL,
	`title_ar` text NOT NULL,
	`body_en` text NOT NULL,
	`body_ar` text NOT NULL,
	`data` text,
	`read_at` text,
	FOREIGN KEY (`notification_id`) REFERENCES `notifications`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customer_notifications_uq` ON `customer_notifications` (`notification_id`,`customer_id`);--> statement-breakpoint
CREATE INDEX `customer_notifications_app_customer_idx` ON `customer_notifications` (`app_id`,`customer_id`,`is_deleted`,`created_at`);--> statement-breakpoint
CREATE TABLE `customer_settings` (
	`app_id` integer PRIMARY KEY NOT NULL,
	`otp_length` integer DEFAULT 6 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `customers` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`country_code` text NOT NULL,
	`mobile_number` text NOT NULL,
	`username` text NOT NULL,
	`email` text,
	`name` text,
	`lang` text DEFAULT 'ar' NOT NULL,
	`current_city_id` integer,
	`is_email_verified` integer DEFAULT false NOT NULL,
	`is_mobile_verified` integer DEFAULT false NOT NULL,
	`is_blocked` integer DEFAULT false NOT NULL,
	`national_id` text,
	`secondary_mobile_number` text,
	`date_of_birth` text,
	`avatar` text,
	`platform_version` text,
	`joined_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`custom_fields` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customers_app_mobile_live_uq` ON `customers` (`app_id`,`mobile_number`) WHERE "customers"."is_deleted" = 0;--> statement-breakpoint
CREATE INDEX `customers_app_created_idx` ON `customers` (`app_id`,`is_deleted`,`created_at`);--> statement-breakpoint
CREATE INDEX `customers_app_email_idx` ON `customers` (`app_id`,`email`);--> statement-breakpoint
CREATE TABLE `districts` (
	`id` integer PRIMARY KEY NOT NULL,
	`city_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `districts_city_idx` ON `districts` (`city_id`);--> statement-breakpoint
CREATE TABLE `fcm_tokens` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`customer_id` integer NOT NULL,
	`token` text NOT NULL,
	`platform` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fcm_tokens_app_token_uq` ON `fcm_tokens` (`app_id`,`token`);--> statement-breakpoint
CREATE INDEX `fcm_tokens_app_customer_idx` ON `fcm_tokens` (`app_id`,`customer_id`,`is_active`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`title_en` text NOT NULL,
	`title_ar` text NOT NULL,
	`body_en` text NOT NULL,
	`body_ar` text NOT NULL,
	`data` text,
	`audience` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`recipients_count` integer DEFAULT 0 NOT NULL,
	`push_sent` integer DEFAULT 0 NOT NULL,
	`push_failed` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notifications_app_created_idx` ON `notifications` (`app_id`,`is_deleted`,`created_at`);--> statement-breakpoint
CREATE TABLE `otp_codes` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`phone` text NOT NULL,
	`purpose` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`payload` text,
	`ip` text,
	`expires_at` text NOT NULL,
	`consumed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `otp_codes_app_phone_idx` ON `otp_codes` (`app_id`,`phone`,`created_at`);--> statement-breakpoint
CREATE TABLE `refresh_tokens` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`family_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`rotated_at` text,
	`revoked_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refresh_tokens_hash_uq` ON `refresh_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_family_idx` ON `refresh_tokens` (`family_id`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_app_customer_idx` ON `refresh_tokens` (`app_id`,`customer_id`);--> statement-breakpoint
CREATE TABLE `regions` (
	`id` integer PRIMARY KEY NOT NULL,
	`country_id` integer NOT NULL,
	`code` text NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `regions_code_unique` ON `regions` (`code`);--> statement-breakpoint
CREATE INDEX `regions_country_idx` ON `regions` (`country_id`);--> statement-breakpoint
CREATE TABLE `supported_cities` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`city_id` integer NOT NULL,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `supported_cities_app_city_uq` ON `supported_cities` (`app_id`,`city_id`);--> statement-breakpoint
CREATE TABLE `wallet_entries` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`kind` text NOT NULL,
	`type` text NOT NULL,
	`amount` integer NOT NULL,
	`balance_after` integer NOT NULL,
	`reason` text,
	`reference` text,
	`order_id` integer,
	`expires_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `wallet_entries_app_customer_kind_idx` ON `wallet_entries` (`app_id`,`customer_id`,`kind`,`id`);