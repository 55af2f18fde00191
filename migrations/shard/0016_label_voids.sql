DROP INDEX `store_wallet_entries_order_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `store_wallet_entries_label_idx` ON `store_wallet_entries` (`app_id`,`type`,`reference`) WHERE source = 'label';--> statement-breakpoint
CREATE UNIQUE INDEX `store_wallet_entries_order_idx` ON `store_wallet_entries` (`app_id`,`source`,`order_id`) WHERE order_id IS NOT NULL AND source <> 'label';--> statement-breakpoint
ALTER TABLE `shipping_labels` ADD `voided_at` text;--> statement-breakpoint
ALTER TABLE `shipping_labels` ADD `refund_minor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The labels bought before this migration were debited without their order: link them (the
-- reference names the shipment; amounts and balances are untouched).
UPDATE `store_wallet_entries` SET `order_id` = (
  SELECT s.order_id FROM `shipments` s WHERE 'shipment:' || s.id = `store_wallet_entries`.`reference`
) WHERE `source` = 'label' AND `order_id` IS NULL;
