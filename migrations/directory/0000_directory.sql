CREATE TABLE `apps` (
	`id` integer PRIMARY KEY NOT NULL,
	`org_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`shard` text NOT NULL,
	`created_at` text NOT NULL,
	`suspended_at` text,
	`suspension_reason` text,
	`provisioned_at` text,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `apps_org_idx` ON `apps` (`org_id`,`id`);--> statement-breakpoint
CREATE INDEX `apps_shard_idx` ON `apps` (`shard`);--> statement-breakpoint
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
	`created_by` integer,
	`last_four` text,
	`last_used_at` text,
	`replaced_by` integer,
	FOREIGN KEY (`app_id`) REFERENCES `apps`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `merchant_api_tokens_hash_uq` ON `merchant_api_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `merchant_api_tokens_app_idx` ON `merchant_api_tokens` (`app_id`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `platform_audit_events` (
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
CREATE INDEX `platform_audit_events_created_idx` ON `platform_audit_events` (`created_at`);--> statement-breakpoint
CREATE TABLE `relay_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	`applied_at` text
);
--> statement-breakpoint
CREATE INDEX `relay_messages_pending_idx` ON `relay_messages` (`applied_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `shards` (
	`name` text PRIMARY KEY NOT NULL,
	`size_bytes` integer DEFAULT 0 NOT NULL,
	`stores` integer DEFAULT 0 NOT NULL,
	`accepts_stores` integer DEFAULT true NOT NULL,
	`measured_at` text
);
