ALTER TABLE `einvoice_units` ADD `credentials_refused_at` text;--> statement-breakpoint
CREATE INDEX `einvoices_unsubmitted_idx` ON `einvoices` (`unit_id`,`icv`) WHERE submitted_at IS NULL;