CREATE TABLE `fulfillments` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`order_id` integer NOT NULL,
	`order_item_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`customer_id` integer,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`type` text NOT NULL,
	`qty` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`total_amount_minor` integer NOT NULL,
	`date` text,
	`time` text,
	`location` text,
	`location_id` integer,
	`pickup_location_id` integer,
	`shipment_id` integer,
	`tracking_number` text,
	`fulfilled_at` text,
	`delivered_at` text,
	`cancelled_at` text,
	`notes` text,
	`customer_name` text,
	`customer_email` text,
	`customer_phone` text,
	`custom_fields` text,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_item_id`) REFERENCES `order_items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `fulfillments_app_created_idx` ON `fulfillments` (`app_id`,`is_deleted`,`created_at`);--> statement-breakpoint
CREATE INDEX `fulfillments_app_status_date_idx` ON `fulfillments` (`app_id`,`is_deleted`,`status`,`date`);--> statement-breakpoint
CREATE INDEX `fulfillments_app_date_idx` ON `fulfillments` (`app_id`,`is_deleted`,`date`);--> statement-breakpoint
CREATE INDEX `fulfillments_order_idx` ON `fulfillments` (`order_id`,`id`);--> statement-breakpoint
CREATE INDEX `fulfillments_order_item_idx` ON `fulfillments` (`order_item_id`);--> statement-breakpoint
CREATE INDEX `fulfillments_app_customer_idx` ON `fulfillments` (`app_id`,`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `fulfillments_app_shipment_idx` ON `fulfillments` (`app_id`,`shipment_id`);--> statement-breakpoint
CREATE TABLE `subscription_renewals` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`subscription_id` integer NOT NULL,
	`period_start` text NOT NULL,
	`status` text NOT NULL,
	`order_id` integer,
	`invoice_id` integer,
	`amount_minor` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 1 NOT NULL,
	`next_retry_date` text,
	`error_message` text,
	`claimed_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscription_renewals_period_idx` ON `subscription_renewals` (`subscription_id`,`period_start`);--> statement-breakpoint
CREATE INDEX `subscription_renewals_order_idx` ON `subscription_renewals` (`order_id`);--> statement-breakpoint
CREATE TABLE `subscription_updates` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`subscription_id` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`effective` text NOT NULL,
	`effective_at` text,
	`changes` text NOT NULL,
	`proration_minor` integer DEFAULT 0 NOT NULL,
	`applied_at` text,
	`cancelled_at` text,
	FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `subscription_updates_subscription_idx` ON `subscription_updates` (`subscription_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `subscription_updates_pending_idx` ON `subscription_updates` (`subscription_id`) WHERE status = 'pending';--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`customer_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`order_id` integer NOT NULL,
	`first_invoice_id` integer,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`unit_price_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`payment_provider` text,
	`duration` integer NOT NULL,
	`duration_unit` text NOT NULL,
	`trial_days` integer DEFAULT 0 NOT NULL,
	`in_trial` integer DEFAULT false NOT NULL,
	`trial_start_date` text,
	`trial_end_date` text,
	`start_date` text,
	`end_date` text,
	`total_billing_cycles` integer,
	`remaining_billing_cycles` integer,
	`auto_renew` integer DEFAULT true NOT NULL,
	`current_period_start_date` text,
	`current_period_end_date` text,
	`last_billing_date` text,
	`next_billing_date` text,
	`retry_date` text,
	`failed_attempts` integer DEFAULT 0 NOT NULL,
	`usage_counter` integer DEFAULT 0 NOT NULL,
	`usage_limit` integer,
	`usage_unit` text DEFAULT 'credit' NOT NULL,
	`auto_increment_usage` integer DEFAULT false NOT NULL,
	`proration_minor` integer DEFAULT 0 NOT NULL,
	`activated_at` text,
	`paused_at` text,
	`pause_resumes_at` text,
	`suspended_at` text,
	`cancelled_at` text,
	`cancellation_reason` text,
	`custom_fields` text,
	`change_token` text
);
--> statement-breakpoint
CREATE INDEX `subscriptions_app_idx` ON `subscriptions` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE INDEX `subscriptions_customer_idx` ON `subscriptions` (`app_id`,`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `subscriptions_order_idx` ON `subscriptions` (`order_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_due_idx` ON `subscriptions` (`status`,`next_billing_date`);--> statement-breakpoint
CREATE INDEX `subscriptions_retry_idx` ON `subscriptions` (`status`,`retry_date`);--> statement-breakpoint
CREATE INDEX `subscriptions_resume_idx` ON `subscriptions` (`status`,`pause_resumes_at`);--> statement-breakpoint
CREATE TABLE `shipping_labels` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`shipment_id` integer NOT NULL,
	`order_id` integer NOT NULL,
	`courier_id` integer NOT NULL,
	`tracking_number` text NOT NULL,
	`cost_minor` integer NOT NULL,
	`currency` text NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`courier_id`) REFERENCES `couriers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shipping_labels_app_idx` ON `shipping_labels` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `shipping_labels_shipment_uq` ON `shipping_labels` (`shipment_id`) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX `shipping_labels_order_idx` ON `shipping_labels` (`app_id`,`order_id`);--> statement-breakpoint
CREATE TABLE `couriers` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`type` text NOT NULL,
	`code` text,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`logo` text,
	`is_active` integer DEFAULT true NOT NULL,
	`cod_supported` integer DEFAULT false NOT NULL,
	`services` text DEFAULT '[]' NOT NULL,
	`coverage_cities` text DEFAULT '[]' NOT NULL,
	`coverage_districts` text DEFAULT '[]' NOT NULL,
	`price_rules` text DEFAULT '[]' NOT NULL,
	`estimated_days_min` integer,
	`estimated_days_max` integer,
	`custom_fields` text
);
--> statement-breakpoint
CREATE INDEX `couriers_app_idx` ON `couriers` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `couriers_app_code_uq` ON `couriers` (`app_id`,`code`) WHERE code IS NOT NULL;--> statement-breakpoint
CREATE TABLE `pickup_locations` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`name_en` text NOT NULL,
	`name_ar` text NOT NULL,
	`address1` text NOT NULL,
	`lat` real NOT NULL,
	`lng` real NOT NULL,
	`city_id` integer NOT NULL,
	`district_id` integer,
	`phone` text,
	`working_hours` text DEFAULT '[]' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`custom_fields` text,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`district_id`) REFERENCES `districts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `pickup_locations_app_idx` ON `pickup_locations` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `pickup_locations_default_uq` ON `pickup_locations` (`app_id`) WHERE is_default = 1 AND is_deleted = 0;--> statement-breakpoint
CREATE TABLE `shipment_fulfillments` (
	`shipment_id` integer NOT NULL,
	`app_id` integer NOT NULL,
	`fulfillment_id` integer NOT NULL,
	`order_item_id` integer,
	`qty` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shipment_fulfillments_uq` ON `shipment_fulfillments` (`shipment_id`,`fulfillment_id`);--> statement-breakpoint
CREATE INDEX `shipment_fulfillments_fulfillment_idx` ON `shipment_fulfillments` (`app_id`,`fulfillment_id`);--> statement-breakpoint
CREATE TABLE `shipment_status_history` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`shipment_id` integer NOT NULL,
	`status` text NOT NULL,
	`at` text NOT NULL,
	`note` text,
	`source` text NOT NULL,
	`carrier_status` text,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shipment_status_history_idx` ON `shipment_status_history` (`shipment_id`,`id`);--> statement-breakpoint
CREATE TABLE `shipments` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`modified_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`ordering` integer DEFAULT 0 NOT NULL,
	`order_id` integer NOT NULL,
	`courier_id` integer NOT NULL,
	`service` text NOT NULL,
	`direction` text DEFAULT 'forward' NOT NULL,
	`return_of_id` integer,
	`return_status` text,
	`origin_pickup_location_id` integer,
	`origin` text NOT NULL,
	`destination` text NOT NULL,
	`packages` text NOT NULL,
	`weight_g` integer NOT NULL,
	`cod_amount_minor` integer DEFAULT 0 NOT NULL,
	`cost_minor` integer DEFAULT 0 NOT NULL,
	`currency` text NOT NULL,
	`carrier_reference` text,
	`tracking_number` text,
	`tracking_url` text,
	`label_url` text,
	`status` text DEFAULT 'created' NOT NULL,
	`notes` text,
	`delivered_at` text,
	`cancelled_at` text,
	`custom_fields` text,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`courier_id`) REFERENCES `couriers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`return_of_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`origin_pickup_location_id`) REFERENCES `pickup_locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shipments_app_idx` ON `shipments` (`app_id`,`is_deleted`,`id`);--> statement-breakpoint
CREATE INDEX `shipments_order_idx` ON `shipments` (`app_id`,`order_id`);--> statement-breakpoint
CREATE INDEX `shipments_return_of_idx` ON `shipments` (`return_of_id`);--> statement-breakpoint
CREATE INDEX `shipments_carrier_ref_idx` ON `shipments` (`carrier_reference`);--> statement-breakpoint
CREATE TABLE `shipping_configs` (
	`app_id` integer PRIMARY KEY NOT NULL,
	`default_pickup_location_id` integer,
	`package_defaults` text,
	`enabled_courier_ids` text,
	`modified_at` text NOT NULL,
	FOREIGN KEY (`default_pickup_location_id`) REFERENCES `pickup_locations`(`id`) ON UPDATE no action ON DELETE no action
);
