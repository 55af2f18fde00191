CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`webhook_id` integer NOT NULL,
	`event_id` text NOT NULL,
	`event` text NOT NULL,
	`status` text NOT NULL,
	`skip_reason` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`schedule_from` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`leased_until` text,
	`last_attempt_at` text,
	`last_status_code` integer,
	`last_error_class` text,
	`last_error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event_webhook_uq` ON `webhook_deliveries` (`event_id`,`webhook_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_open_idx` ON `webhook_deliveries` (`next_attempt_at`) WHERE "webhook_deliveries"."status" IN ('pending', 'retrying');--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`app_id`,`webhook_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_app_idx` ON `webhook_deliveries` (`app_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `webhooks` ADD `slow_since` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `disabled_at` text;