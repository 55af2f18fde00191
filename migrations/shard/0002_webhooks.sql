CREATE TABLE `webhook_logs` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`webhook_id` integer NOT NULL,
	`delivery_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event` text NOT NULL,
	`attempt` integer NOT NULL,
	`trigger` text NOT NULL,
	`status_code` integer,
	`duration_ms` integer NOT NULL,
	`response_body` text,
	`error_class` text,
	`outcome` text NOT NULL,
	`next_attempt_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_logs_app_created_idx` ON `webhook_logs` (`app_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_logs_app_webhook_idx` ON `webhook_logs` (`app_id`,`webhook_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_logs_delivery_idx` ON `webhook_logs` (`delivery_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`url` text NOT NULL,
	`secret_key` text NOT NULL,
	`previous_secret_key` text,
	`previous_secret_expires_at` text,
	`is_active` integer DEFAULT true NOT NULL,
	`events` text NOT NULL,
	`headers` text DEFAULT '{}' NOT NULL,
	`failing_since` text,
	`disabled_reason` text
);
--> statement-breakpoint
CREATE INDEX `webhooks_app_idx` ON `webhooks` (`app_id`,`is_deleted`,`is_active`);