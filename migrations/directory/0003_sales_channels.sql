CREATE TABLE `sales_channel_connections` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`channel_app_id` integer NOT NULL,
	`provider_app_id` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`commission_bp` integer,
	`message` text,
	`requested_at` text NOT NULL,
	`decided_at` text,
	`decided_by` integer,
	`deactivated_by_app_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sales_channel_connections_channel_idx` ON `sales_channel_connections` (`channel_app_id`,`is_deleted`,`status`);--> statement-breakpoint
CREATE INDEX `sales_channel_connections_provider_idx` ON `sales_channel_connections` (`provider_app_id`,`is_deleted`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `sales_channel_connections_live_pair_idx` ON `sales_channel_connections` (`channel_app_id`,`provider_app_id`) WHERE is_deleted = 0 AND status <> 'rejected';--> statement-breakpoint
CREATE TABLE `sales_channel_event_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`connection_id` integer NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	`delivered_at` text
);
--> statement-breakpoint
CREATE INDEX `sales_channel_event_deliveries_pending_idx` ON `sales_channel_event_deliveries` (`delivered_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `sales_channel_event_deliveries_connection_idx` ON `sales_channel_event_deliveries` (`connection_id`);