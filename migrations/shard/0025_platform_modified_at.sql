-- Incremental sync of List Organizations, and a store's `modified_at` in its details (docs/
-- interface-decisions.md, "Lists: incremental sync"): every writer stamps it. SQLite adds a NOT NULL
-- column only with a constant default, so the rows here take their last known change.
ALTER TABLE `apps` ADD `modified_at` text DEFAULT '1970-01-01T00:00:00.000Z' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `modified_at` text DEFAULT '1970-01-01T00:00:00.000Z' NOT NULL;--> statement-breakpoint
UPDATE `apps` SET `modified_at` = max(`created_at`, coalesce(`suspended_at`, ''));--> statement-breakpoint
UPDATE `organizations` SET `modified_at` = `created_at`;
