CREATE TABLE `item_reservations` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`qty` integer NOT NULL,
	`expires_at` text NOT NULL,
	`consumed_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `item_reservations_item_idx` ON `item_reservations` (`item_id`,`consumed_at`,`expires_at`);--> statement-breakpoint
CREATE INDEX `item_reservations_app_idx` ON `item_reservations` (`app_id`);