ALTER TABLE `einvoice_units` ADD `credentials_refused_at` text;--> statement-breakpoint
ALTER TABLE `carts` ADD `buyer` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `buyer` text;--> statement-breakpoint
CREATE INDEX `einvoices_unsubmitted_idx` ON `einvoices` (`unit_id`,`icv`) WHERE submitted_at IS NULL;