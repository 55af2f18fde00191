CREATE TABLE `item_config` (
	`app_id` integer PRIMARY KEY NOT NULL,
	`reservation_minutes` integer DEFAULT 15 NOT NULL,
	`max_reservation_qty` integer DEFAULT 1000 NOT NULL,
	`modified_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `item_tags` (
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
CREATE INDEX `item_tags_app_idx` ON `item_tags` (`app_id`,`is_deleted`);