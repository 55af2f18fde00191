CREATE TABLE `audit_events` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer,
	`actor_type` text NOT NULL,
	`actor_id` integer,
	`action` text NOT NULL,
	`resource_type` text NOT NULL,
	`resource_id` text NOT NULL,
	`request_id` text NOT NULL,
	`before` text,
	`after` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_events_app_idx` ON `audit_events` (`app_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_events_app_action_idx` ON `audit_events` (`app_id`,`action`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_events_app_resource_idx` ON `audit_events` (`app_id`,`resource_type`,`resource_id`);--> statement-breakpoint
CREATE INDEX `audit_events_app_actor_idx` ON `audit_events` (`app_id`,`actor_id`,`created_at`);