-- ZATCA Phase 2's chain (docs/zatca.md): the stores' e-invoicing units and one e-invoice per invoice.
-- invoices.zatca_status takes pending, reported, cleared, rejected and not_required from now on (a
-- text column: no constraint to change); its former values (pending, reported, aborted) were never
-- set, so no row needs rewriting. The seller's national address joins the store's settings.
CREATE TABLE `einvoice_units` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`egs_serial` text NOT NULL,
	`status` text DEFAULT 'onboarding' NOT NULL,
	`private_key_sealed` text,
	`compliance_certificate` text,
	`compliance_secret_sealed` text,
	`compliance_request_id` text,
	`production_certificate` text,
	`production_secret_sealed` text,
	`production_not_after` text,
	`last_icv` integer DEFAULT 0 NOT NULL,
	`signed_icv` integer DEFAULT 0 NOT NULL,
	`last_hash` text DEFAULT 'NWZlY2ViNjZmZmM4NmYzOGQ5NTI3ODZjNmQ2OTZjNzljMmRiYzIzOWRkNGU5MWI0NjcyOWQ3M2EyN2ZiNTdlOQ==' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `einvoice_units_app_idx` ON `einvoice_units` (`app_id`,`status`,`id`);--> statement-breakpoint
CREATE TABLE `einvoices` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`unit_id` integer NOT NULL,
	`icv` integer NOT NULL,
	`uuid` text NOT NULL,
	`pih` text,
	`invoice_hash` text,
	`xml` text,
	`qr` text,
	`signed_at` text,
	`zatca_messages` text DEFAULT '[]' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`submitted_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`unit_id`) REFERENCES `einvoice_units`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `einvoices_invoice_idx` ON `einvoices` (`invoice_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `einvoices_unit_icv_idx` ON `einvoices` (`unit_id`,`icv`);--> statement-breakpoint
CREATE INDEX `einvoices_app_idx` ON `einvoices` (`app_id`,`id`);--> statement-breakpoint
ALTER TABLE `store_settings` ADD `seller_address` text;