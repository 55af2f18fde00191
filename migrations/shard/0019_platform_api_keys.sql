ALTER TABLE `merchant_api_tokens` ADD `created_by` integer;--> statement-breakpoint
ALTER TABLE `merchant_api_tokens` ADD `last_four` text;--> statement-breakpoint
ALTER TABLE `merchant_api_tokens` ADD `last_used_at` text;--> statement-breakpoint
ALTER TABLE `merchant_api_tokens` ADD `replaced_by` integer;--> statement-breakpoint
ALTER TABLE `apps` ADD `suspended_at` text;--> statement-breakpoint
ALTER TABLE `apps` ADD `suspension_reason` text;--> statement-breakpoint
ALTER TABLE `apps` ADD `status` text GENERATED ALWAYS AS (CASE WHEN suspended_at IS NULL THEN 'active' ELSE 'suspended' END) VIRTUAL;--> statement-breakpoint
CREATE INDEX `apps_org_idx` ON `apps` (`org_id`,`id`);