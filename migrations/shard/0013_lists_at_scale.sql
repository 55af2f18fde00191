CREATE TABLE `order_counts` (
	`app_id` integer NOT NULL,
	`status` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`app_id`, `status`)
);
--> statement-breakpoint
DROP INDEX `orders_status_idx`;--> statement-breakpoint
CREATE INDEX `orders_app_status_idx` ON `orders` (`app_id`,`is_deleted`,`status`,`id`);--> statement-breakpoint
DROP INDEX `tickets_app_date_idx`;--> statement-breakpoint
CREATE INDEX `tickets_app_date_status_time_idx` ON `tickets` (`app_id`,`is_deleted`,`date`,`status`,`time`,"id" DESC);--> statement-breakpoint
CREATE INDEX `items_app_type_price_idx` ON `items` (`app_id`,`is_deleted`,`parent_id`,`type`,`price_minor`);--> statement-breakpoint
-- order_counts: a store's live orders of each status, kept in the statement of every write (see orders/tables.ts).
CREATE TRIGGER `orders_count_ai` AFTER INSERT ON `orders` WHEN new.is_deleted = 0 BEGIN
  INSERT INTO order_counts (app_id, status, n) VALUES (new.app_id, new.status, 1)
    ON CONFLICT (app_id, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `orders_count_ad` AFTER DELETE ON `orders` WHEN old.is_deleted = 0 BEGIN
  UPDATE order_counts SET n = n - 1 WHERE app_id = old.app_id AND status = old.status;
END;
--> statement-breakpoint
CREATE TRIGGER `orders_count_au` AFTER UPDATE OF app_id, status, is_deleted ON `orders`
  WHEN old.app_id IS NOT new.app_id OR old.status IS NOT new.status OR old.is_deleted IS NOT new.is_deleted BEGIN
  UPDATE order_counts SET n = n - 1 WHERE old.is_deleted = 0 AND app_id = old.app_id AND status = old.status;
  INSERT INTO order_counts (app_id, status, n) SELECT new.app_id, new.status, 1 WHERE new.is_deleted = 0
    ON CONFLICT (app_id, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
INSERT INTO order_counts (app_id, status, n)
  SELECT app_id, status, count(*) FROM orders WHERE is_deleted = 0 GROUP BY app_id, status;
