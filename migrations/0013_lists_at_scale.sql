DROP INDEX `orders_status_idx`;--> statement-breakpoint
CREATE INDEX `orders_app_status_idx` ON `orders` (`app_id`,`is_deleted`,`status`,`id`);--> statement-breakpoint
DROP INDEX `tickets_app_date_idx`;--> statement-breakpoint
CREATE INDEX `tickets_app_date_status_time_idx` ON `tickets` (`app_id`,`is_deleted`,`date`,`status`,`time`,"id" DESC);--> statement-breakpoint
CREATE INDEX `items_app_type_price_idx` ON `items` (`app_id`,`is_deleted`,`parent_id`,`type`,`price_minor`);