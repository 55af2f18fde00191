CREATE TABLE `allergens` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`kind` text NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`icon` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `allergens_app_idx` ON `allergens` (`app_id`,`is_deleted`);--> statement-breakpoint
CREATE TABLE `combos` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`custom_fields` text,
	`restaurant_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`description_en` text,
	`description_ar` text,
	`image` text DEFAULT '' NOT NULL,
	`price_minor` integer NOT NULL,
	`discount_percentage` real DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`product_ids` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `combos_category_idx` ON `combos` (`category_id`,`is_deleted`);--> statement-breakpoint
CREATE TABLE `delivery_windows` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`restaurant_id` integer NOT NULL,
	`from_time` text NOT NULL,
	`to_time` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `delivery_windows_app_idx` ON `delivery_windows` (`app_id`,`restaurant_id`);--> statement-breakpoint
CREATE TABLE `delivery_zones` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`restaurant_id` integer NOT NULL,
	`city_id` integer NOT NULL,
	`name_en` text DEFAULT '' NOT NULL,
	`polygon` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `delivery_zones_app_idx` ON `delivery_zones` (`app_id`,`restaurant_id`);--> statement-breakpoint
CREATE TABLE `menu_categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`custom_fields` text,
	`menu_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`image` text DEFAULT '' NOT NULL,
	`is_sub` integer DEFAULT false NOT NULL,
	`is_active` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE INDEX `menu_categories_menu_idx` ON `menu_categories` (`menu_id`,`is_deleted`);--> statement-breakpoint
CREATE TABLE `menus` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`custom_fields` text,
	`restaurant_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`image` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `menus_app_idx` ON `menus` (`app_id`,`restaurant_id`);--> statement-breakpoint
CREATE TABLE `nutritions` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`custom_fields` text,
	`product_id` integer NOT NULL,
	`calories` real,
	`carbs` real,
	`protein` real,
	`fat` real,
	`size` text
);
--> statement-breakpoint
CREATE INDEX `nutritions_product_idx` ON `nutritions` (`product_id`,`is_deleted`);--> statement-breakpoint
CREATE TABLE `plan_categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`plan_id` integer NOT NULL,
	`plan_day_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`is_multi_select` integer DEFAULT false NOT NULL,
	`max_selected_options` integer DEFAULT 1 NOT NULL,
	`category_master_id` integer
);
--> statement-breakpoint
CREATE INDEX `plan_categories_plan_idx` ON `plan_categories` (`plan_id`,`is_deleted`);--> statement-breakpoint
CREATE INDEX `plan_categories_day_idx` ON `plan_categories` (`plan_day_id`);--> statement-breakpoint
CREATE TABLE `plan_days` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`plan_id` integer NOT NULL,
	`restaurant_id` integer NOT NULL,
	`day` text NOT NULL,
	`repetition_counter` integer NOT NULL,
	`master_id` integer
);
--> statement-breakpoint
CREATE INDEX `plan_days_plan_idx` ON `plan_days` (`plan_id`,`is_deleted`);--> statement-breakpoint
CREATE TABLE `plan_options` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`plan_id` integer NOT NULL,
	`plan_category_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	`is_recommended` integer DEFAULT false NOT NULL,
	`is_active` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE INDEX `plan_options_plan_idx` ON `plan_options` (`plan_id`,`is_deleted`);--> statement-breakpoint
CREATE INDEX `plan_options_category_idx` ON `plan_options` (`plan_category_id`);--> statement-breakpoint
CREATE INDEX `plan_options_product_idx` ON `plan_options` (`product_id`);--> statement-breakpoint
CREATE TABLE `plan_tags` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`type_en` text NOT NULL,
	`type_ar` text NOT NULL,
	`tag_en` text NOT NULL,
	`tag_ar` text NOT NULL,
	`description_en` text DEFAULT '' NOT NULL,
	`description_ar` text DEFAULT '' NOT NULL,
	`image` text DEFAULT '' NOT NULL,
	`color` text
);
--> statement-breakpoint
CREATE INDEX `plan_tags_app_idx` ON `plan_tags` (`app_id`,`is_deleted`);--> statement-breakpoint
CREATE TABLE `plan_versions` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`custom_fields` text,
	`plan_id` integer NOT NULL,
	`min_start_date` text NOT NULL,
	`max_start_date` text NOT NULL,
	`off_days` text DEFAULT '[]' NOT NULL,
	`num_of_days` integer NOT NULL,
	`total_num_of_items` integer NOT NULL,
	`delivery_price_minor` integer DEFAULT 0 NOT NULL,
	`original_price_minor` integer NOT NULL,
	`discount_percentage` real DEFAULT 0 NOT NULL,
	`duration` text,
	`pause_credits` integer,
	`num_of_pause_attempts` integer,
	`min_of_pause_days` integer
);
--> statement-breakpoint
CREATE INDEX `plan_versions_plan_idx` ON `plan_versions` (`plan_id`,`is_deleted`);--> statement-breakpoint
CREATE TABLE `plans` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`restaurant_id` integer NOT NULL,
	`menu_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`subtitle_en` text,
	`subtitle_ar` text,
	`description_en` text,
	`description_ar` text,
	`image` text DEFAULT '' NOT NULL,
	`image_ar` text,
	`tag_ids` text DEFAULT '[]' NOT NULL,
	`daily_num_of_items` integer NOT NULL,
	`avg_daily_meal_calories` real DEFAULT 0 NOT NULL,
	`start_after` integer DEFAULT 0 NOT NULL,
	`special_product_selection_limit` integer,
	`featured_title_en` text,
	`featured_title_ar` text,
	`is_featured` integer DEFAULT false NOT NULL,
	`is_marketplace_featured` integer DEFAULT false NOT NULL,
	`is_marketplace_active` integer DEFAULT false NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`supported_service` text,
	`gender` text,
	`subscription_type` text NOT NULL,
	`repetition` integer NOT NULL,
	`skip_option_selection` integer DEFAULT false NOT NULL,
	`size_title` text NOT NULL,
	`size_protein_amount` real NOT NULL,
	`size_carb_amount` real,
	`size_unit` text DEFAULT 'g' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `plans_app_idx` ON `plans` (`app_id`,`is_deleted`,`restaurant_id`);--> statement-breakpoint
CREATE TABLE `meal_products` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`restaurant_id` integer NOT NULL,
	`category_id` integer,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`description_en` text,
	`description_ar` text,
	`price_minor` integer NOT NULL,
	`discount_percentage` real DEFAULT 0 NOT NULL,
	`image` text DEFAULT '' NOT NULL,
	`original_image` text DEFAULT '' NOT NULL,
	`is_sub` integer DEFAULT false NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`is_special` integer DEFAULT false NOT NULL,
	`in_stock` integer DEFAULT true NOT NULL,
	`allergies` text DEFAULT '[]' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`allergens_dislikes` text DEFAULT '[]' NOT NULL,
	`variant` text DEFAULT '[]' NOT NULL,
	`off_days` text DEFAULT '[]' NOT NULL,
	`wallet_credit_minor` integer
);
--> statement-breakpoint
CREATE INDEX `meal_products_app_idx` ON `meal_products` (`app_id`,`restaurant_id`,`is_deleted`);--> statement-breakpoint
CREATE INDEX `meal_products_category_idx` ON `meal_products` (`category_id`);--> statement-breakpoint
CREATE TABLE `restaurant_branches` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`restaurant_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`city_id` integer NOT NULL,
	`address1` text DEFAULT '' NOT NULL,
	`lat` real NOT NULL,
	`lng` real NOT NULL,
	`is_main` integer DEFAULT false NOT NULL,
	`supports_pickup` integer DEFAULT true NOT NULL,
	`delivery_radius_km` real
);
--> statement-breakpoint
CREATE INDEX `restaurant_branches_app_idx` ON `restaurant_branches` (`app_id`,`restaurant_id`,`is_deleted`);--> statement-breakpoint
CREATE TABLE `restaurant_categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`image` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `restaurant_categories_app_idx` ON `restaurant_categories` (`app_id`,`is_deleted`);--> statement-breakpoint
CREATE TABLE `restaurant_variants` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`restaurant_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `restaurant_variants_app_idx` ON `restaurant_variants` (`app_id`,`restaurant_id`);--> statement-breakpoint
CREATE TABLE `restaurants` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`custom_fields` text,
	`category_id` integer,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`subtitle_en` text,
	`subtitle_ar` text,
	`description_en` text,
	`description_ar` text,
	`logo` text DEFAULT '' NOT NULL,
	`banner` text,
	`rest_type` text NOT NULL,
	`start_after` integer DEFAULT 0 NOT NULL,
	`store_start_after` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`primary_color` text,
	`secondary_color` text,
	`closed_dates` text DEFAULT '[]' NOT NULL,
	`off_days` text DEFAULT '[]' NOT NULL,
	`supports_pickup` integer DEFAULT false NOT NULL,
	`supports_delivery` integer DEFAULT true NOT NULL,
	`delivery_by_platform` integer DEFAULT false NOT NULL,
	`menu_id` integer,
	`time_zone` text DEFAULT 'Asia/Riyadh' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `restaurants_app_idx` ON `restaurants` (`app_id`,`is_deleted`,`is_active`);