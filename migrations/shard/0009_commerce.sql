CREATE TABLE `batch_guards` (
	`reason` text NOT NULL,
	CONSTRAINT "batch_guard_holds" CHECK(0)
);
--> statement-breakpoint
CREATE TABLE `bank_accounts` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`bank_name_en` text NOT NULL,
	`bank_name_ar` text NOT NULL,
	`iban` text NOT NULL,
	`account_holder` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'active' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bank_accounts_app_idx` ON `bank_accounts` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE TABLE `store_settings` (
	`app_id` integer PRIMARY KEY NOT NULL,
	`name_en` text,
	`name_ar` text,
	`logo` text,
	`currency` text DEFAULT 'SAR' NOT NULL,
	`default_lang` text DEFAULT 'ar' NOT NULL,
	`languages` text DEFAULT '["ar","en"]' NOT NULL,
	`timezone` text DEFAULT 'Asia/Riyadh' NOT NULL,
	`vat_percentage_bp` integer DEFAULT 1500 NOT NULL,
	`vat_number` text,
	`seller_name` text,
	`commercial_registration` text,
	`address` text,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `cart_items` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`cart_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`qty` integer NOT NULL,
	`modifier_value_ids` text DEFAULT '[]' NOT NULL,
	`bundle_selections` text DEFAULT '[]' NOT NULL,
	`unit_price_minor` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`cart_id`) REFERENCES `carts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `cart_items_cart_idx` ON `cart_items` (`cart_id`,`id`);--> statement-breakpoint
CREATE TABLE `carts` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`customer_id` integer NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`cart_provider` text DEFAULT 'app' NOT NULL,
	`voucher_code` text,
	`location_id` integer,
	`pickup_location_id` integer,
	`courier_id` integer,
	`wallet_redeem_minor` integer DEFAULT 0 NOT NULL,
	`notes` text,
	`receiver` text,
	`is_recurring` integer DEFAULT false NOT NULL,
	`duration` integer,
	`duration_unit` text,
	`quoted_total_minor` integer DEFAULT 0 NOT NULL,
	`order_id` integer,
	`checked_out_at` text,
	`custom_fields` text
);
--> statement-breakpoint
CREATE INDEX `carts_app_idx` ON `carts` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE INDEX `carts_customer_idx` ON `carts` (`app_id`,`customer_id`,`id`);--> statement-breakpoint
CREATE TABLE `checkout_config` (
	`app_id` integer PRIMARY KEY NOT NULL,
	`enabled_providers` text DEFAULT '["card","wallet","cash_on_delivery","bank_transfer"]' NOT NULL,
	`is_delivery_enabled` integer DEFAULT true NOT NULL,
	`is_pickup_enabled` integer DEFAULT true NOT NULL,
	`is_wallet_redeem_enabled` integer DEFAULT true NOT NULL,
	`min_order_minor` integer DEFAULT 0 NOT NULL,
	`payment_ttl_minutes` integer DEFAULT 30 NOT NULL,
	`bank_transfer_ttl_hours` integer DEFAULT 72 NOT NULL,
	`bank_transfer_instructions_en` text,
	`bank_transfer_instructions_ar` text,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `invoice_config` (
	`app_id` integer PRIMARY KEY NOT NULL,
	`serial_prefix` text DEFAULT 'INV-' NOT NULL,
	`due_days` integer DEFAULT 0 NOT NULL,
	`footer_en` text,
	`footer_ar` text,
	`is_zatca_qr_enabled` integer DEFAULT true NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `invoice_counters` (
	`app_id` integer PRIMARY KEY NOT NULL,
	`last_number` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `invoice_items` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`order_item_id` integer,
	`parent_invoice_item_id` integer,
	`item_id` integer,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`qty` integer NOT NULL,
	`refunded_qty` integer DEFAULT 0 NOT NULL,
	`amount_minor` integer NOT NULL,
	`voucher_discount_minor` integer DEFAULT 0 NOT NULL,
	`total_minor` integer NOT NULL,
	`tax_percentage_bp` integer NOT NULL,
	`tax_minor` integer NOT NULL,
	`total_excluding_tax_minor` integer NOT NULL,
	`refund_reason` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `invoice_items_invoice_idx` ON `invoice_items` (`invoice_id`,`id`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`order_id` integer NOT NULL,
	`customer_id` integer,
	`type` text DEFAULT 'invoice' NOT NULL,
	`status` text DEFAULT 'unpaid' NOT NULL,
	`serial` text,
	`refunded_invoice_id` integer,
	`refund_reason` text,
	`issued_at` text,
	`due_at` text,
	`currency` text NOT NULL,
	`sub_total_minor` integer NOT NULL,
	`shipping_minor` integer DEFAULT 0 NOT NULL,
	`setup_minor` integer DEFAULT 0 NOT NULL,
	`sub_total_discounts_minor` integer DEFAULT 0 NOT NULL,
	`shipping_discounts_minor` integer DEFAULT 0 NOT NULL,
	`total_minor` integer NOT NULL,
	`total_excluding_tax_minor` integer NOT NULL,
	`tax_minor` integer NOT NULL,
	`tax_percentage_bp` integer NOT NULL,
	`wallet_redeem_minor` integer DEFAULT 0 NOT NULL,
	`payment_provider` text,
	`payment_method` text,
	`is_auto_renewal` integer DEFAULT false NOT NULL,
	`seller_name` text,
	`vat_number` text,
	`zatca_status` text,
	`custom_fields` text,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `invoices_app_idx` ON `invoices` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_order_idx` ON `invoices` (`order_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_app_serial_idx` ON `invoices` (`app_id`,`serial`) WHERE serial IS NOT NULL;--> statement-breakpoint
CREATE TABLE `order_items` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`order_id` integer NOT NULL,
	`item_id` integer,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`sku` text,
	`qty` integer NOT NULL,
	`unit_price_minor` integer NOT NULL,
	`amount_minor` integer NOT NULL,
	`voucher_discount_minor` integer DEFAULT 0 NOT NULL,
	`total_minor` integer NOT NULL,
	`is_taxable` integer DEFAULT true NOT NULL,
	`tax_percentage_bp` integer NOT NULL,
	`tax_minor` integer NOT NULL,
	`total_excluding_tax_minor` integer NOT NULL,
	`modifier_value_ids` text DEFAULT '[]' NOT NULL,
	`bundle_selections` text DEFAULT '[]' NOT NULL,
	`custom_fields` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `order_items_order_idx` ON `order_items` (`order_id`,`id`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`kind` text DEFAULT 'purchase' NOT NULL,
	`customer_id` integer,
	`cart_id` integer,
	`recurring_purchase_id` integer,
	`reference` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`payment_status` text DEFAULT 'unpaid' NOT NULL,
	`fulfillment_status` text DEFAULT 'unfulfilled' NOT NULL,
	`payment_provider` text,
	`payment_method` text,
	`cart_provider` text DEFAULT 'app' NOT NULL,
	`currency` text NOT NULL,
	`sub_total_minor` integer NOT NULL,
	`shipping_minor` integer DEFAULT 0 NOT NULL,
	`setup_minor` integer DEFAULT 0 NOT NULL,
	`sub_total_discounts_minor` integer DEFAULT 0 NOT NULL,
	`shipping_discounts_minor` integer DEFAULT 0 NOT NULL,
	`total_minor` integer NOT NULL,
	`wallet_redeem_minor` integer DEFAULT 0 NOT NULL,
	`captured_minor` integer DEFAULT 0 NOT NULL,
	`refunded_minor` integer DEFAULT 0 NOT NULL,
	`voucher_id` integer,
	`voucher_code` text,
	`notes` text,
	`receiver` text,
	`location` text,
	`pickup_location_id` integer,
	`courier_id` integer,
	`expires_at` text,
	`paid_at` text,
	`cancelled_at` text,
	`custom_fields` text
);
--> statement-breakpoint
CREATE INDEX `orders_app_idx` ON `orders` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE INDEX `orders_customer_idx` ON `orders` (`app_id`,`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `orders_status_idx` ON `orders` (`app_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `orders_expiry_idx` ON `orders` (`status`,`expires_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_app_reference_idx` ON `orders` (`app_id`,`reference`) WHERE reference IS NOT NULL;--> statement-breakpoint
CREATE TABLE `recurring_charges` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`recurring_purchase_id` integer NOT NULL,
	`cycle_date` text NOT NULL,
	`order_id` integer,
	`status` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`error_message` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`recurring_purchase_id`) REFERENCES `recurring_purchases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recurring_charges_cycle_idx` ON `recurring_charges` (`recurring_purchase_id`,`cycle_date`);--> statement-breakpoint
CREATE TABLE `recurring_purchases` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`customer_id` integer NOT NULL,
	`cart_id` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`cart_provider` text DEFAULT 'app' NOT NULL,
	`duration` integer NOT NULL,
	`duration_unit` text NOT NULL,
	`payment_provider` text,
	`saved_payment_method_id` integer,
	`next_order_date` text,
	`last_order_date` text,
	`last_charge_date` text,
	`charge_attempts` integer DEFAULT 0 NOT NULL,
	`inactive_reason` text,
	`custom_fields` text
);
--> statement-breakpoint
CREATE INDEX `recurring_purchases_app_idx` ON `recurring_purchases` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE INDEX `recurring_purchases_customer_idx` ON `recurring_purchases` (`app_id`,`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `recurring_purchases_due_idx` ON `recurring_purchases` (`status`,`next_order_date`);--> statement-breakpoint
CREATE TABLE `saved_payment_methods` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`customer_id` integer NOT NULL,
	`gateway` text NOT NULL,
	`brand` text NOT NULL,
	`last4` text NOT NULL,
	`expiry_month` integer NOT NULL,
	`expiry_year` integer NOT NULL,
	`token` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `saved_payment_methods_customer_idx` ON `saved_payment_methods` (`app_id`,`customer_id`,`is_deleted`);--> statement-breakpoint
CREATE TABLE `store_wallet_entries` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`type` text NOT NULL,
	`source` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`balance_after_minor` integer NOT NULL,
	`order_id` integer,
	`reference` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `store_wallet_entries_app_idx` ON `store_wallet_entries` (`app_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `store_wallet_entries_order_idx` ON `store_wallet_entries` (`app_id`,`source`,`order_id`) WHERE order_id IS NOT NULL;--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`order_id` integer NOT NULL,
	`invoice_id` integer,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`payment_provider` text NOT NULL,
	`payment_method` text,
	`gateway` text,
	`provider_reference` text,
	`provider_details` text,
	`payment_url` text,
	`receipt_url` text,
	`reviewed_at` text,
	`decline_reason` text,
	`custom_fields` text,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `transactions_app_idx` ON `transactions` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE INDEX `transactions_order_idx` ON `transactions` (`order_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_gateway_reference_idx` ON `transactions` (`gateway`,`provider_reference`) WHERE provider_reference IS NOT NULL;--> statement-breakpoint
CREATE TABLE `voucher_usages` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`voucher_id` integer NOT NULL,
	`customer_id` integer,
	`order_id` integer NOT NULL,
	`created_at` text NOT NULL,
	`released_at` text,
	FOREIGN KEY (`voucher_id`) REFERENCES `vouchers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `voucher_usages_voucher_order_idx` ON `voucher_usages` (`voucher_id`,`order_id`);--> statement-breakpoint
CREATE INDEX `voucher_usages_customer_idx` ON `voucher_usages` (`voucher_id`,`customer_id`);--> statement-breakpoint
CREATE TABLE `vouchers` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`code` text NOT NULL,
	`title_en` text NOT NULL,
	`title_ar` text NOT NULL,
	`kind` text NOT NULL,
	`value` integer NOT NULL,
	`discount_on` text DEFAULT 'total' NOT NULL,
	`min_order_minor` integer DEFAULT 0 NOT NULL,
	`max_discount_minor` integer,
	`starts_at` text,
	`ends_at` text,
	`usage_limit` integer,
	`per_customer_limit` integer,
	`usage_count` integer DEFAULT 0 NOT NULL,
	`item_ids` text DEFAULT '[]' NOT NULL,
	`category_ids` text DEFAULT '[]' NOT NULL,
	`is_featured` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`custom_fields` text
);
--> statement-breakpoint
CREATE INDEX `vouchers_app_idx` ON `vouchers` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `vouchers_app_code_live_idx` ON `vouchers` (`app_id`,`code`) WHERE is_deleted = 0;