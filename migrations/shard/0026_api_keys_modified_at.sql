-- List API Keys syncs on `modified_at` (docs/interface-decisions.md, "Lists: incremental sync"). A
-- column added to a table with rows takes a constant default only: the keys there get the latest
-- time they are known to have changed (created, revoked, last used); every writer sets it from now.
ALTER TABLE `merchant_api_tokens` ADD `modified_at` text DEFAULT '1970-01-01T00:00:00.000Z' NOT NULL;--> statement-breakpoint
UPDATE `merchant_api_tokens` SET `modified_at` = max(`created_at`, coalesce(`revoked_at`, ''), coalesce(`last_used_at`, ''));
