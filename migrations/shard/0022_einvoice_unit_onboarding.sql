ALTER TABLE `einvoice_units` ADD `name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `einvoice_units` ADD `branch` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `einvoice_units` ADD `registered_address` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `einvoice_units` ADD `industry` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `einvoice_units` ADD `invoice_types` text DEFAULT '0100' NOT NULL;--> statement-breakpoint
ALTER TABLE `einvoice_units` ADD `otp_sealed` text;--> statement-breakpoint
ALTER TABLE `einvoice_units` ADD `messages` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `einvoice_units` ADD `renewal_warned_at` text;