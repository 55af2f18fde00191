-- Incremental sync of List Stores (docs/interface-decisions.md, "Lists: incremental sync"): every
-- writer stamps `modified_at` (src/db/directory.ts). SQLite adds a NOT NULL column only with a
-- constant default, so the rows here take their last known change: the latest of their times.
-- Organizations carry it too, as the shards' copies do.
ALTER TABLE `apps` ADD `modified_at` text DEFAULT '1970-01-01T00:00:00.000Z' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `modified_at` text DEFAULT '1970-01-01T00:00:00.000Z' NOT NULL;--> statement-breakpoint
UPDATE `apps` SET `modified_at` = max(`created_at`, coalesce(`suspended_at`, ''), coalesce(`provisioned_at`, ''));--> statement-breakpoint
UPDATE `organizations` SET `modified_at` = `created_at`;
