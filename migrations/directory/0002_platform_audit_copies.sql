ALTER TABLE `platform_audit_events` ADD `shard` text;--> statement-breakpoint
ALTER TABLE `platform_audit_events` ADD `source_id` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `platform_audit_events_source_uq` ON `platform_audit_events` (`shard`,`source_id`);