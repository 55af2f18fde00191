-- List Orders' search: FTS5 trigram indexes of the searched columns (customers' name and mobile
-- number, orders' reference), kept in step by triggers, so that a substring of 3 characters or more
-- is found from the index instead of by testing every customer and reference of the store. The
-- trigram tokenizer matches any substring, in any script, digits included.
CREATE VIRTUAL TABLE `customers_fts` USING fts5(
  name, mobile_number, content='customers', content_rowid='id', tokenize='trigram case_sensitive 0'
);
--> statement-breakpoint
CREATE TRIGGER `customers_fts_ai` AFTER INSERT ON `customers` BEGIN
  INSERT INTO customers_fts(rowid, name, mobile_number) VALUES (new.id, new.name, new.mobile_number);
END;
--> statement-breakpoint
CREATE TRIGGER `customers_fts_ad` AFTER DELETE ON `customers` BEGIN
  INSERT INTO customers_fts(customers_fts, rowid, name, mobile_number)
  VALUES ('delete', old.id, old.name, old.mobile_number);
END;
--> statement-breakpoint
CREATE TRIGGER `customers_fts_au` AFTER UPDATE OF id, name, mobile_number ON `customers`
  WHEN old.id IS NOT new.id OR old.name IS NOT new.name OR old.mobile_number IS NOT new.mobile_number BEGIN
  INSERT INTO customers_fts(customers_fts, rowid, name, mobile_number)
  VALUES ('delete', old.id, old.name, old.mobile_number);
  INSERT INTO customers_fts(rowid, name, mobile_number) VALUES (new.id, new.name, new.mobile_number);
END;
--> statement-breakpoint
INSERT INTO customers_fts(customers_fts) VALUES ('rebuild');
--> statement-breakpoint
-- Only the orders with a reference (a tenth of them in a busy store) are indexed: an order placed
-- without one costs its insert no index write.
CREATE VIRTUAL TABLE `orders_fts` USING fts5(
  reference, content='orders', content_rowid='id', tokenize='trigram case_sensitive 0'
);
--> statement-breakpoint
CREATE TRIGGER `orders_fts_ai` AFTER INSERT ON `orders` WHEN new.reference IS NOT NULL BEGIN
  INSERT INTO orders_fts(rowid, reference) VALUES (new.id, new.reference);
END;
--> statement-breakpoint
CREATE TRIGGER `orders_fts_ad` AFTER DELETE ON `orders` WHEN old.reference IS NOT NULL BEGIN
  INSERT INTO orders_fts(orders_fts, rowid, reference) VALUES ('delete', old.id, old.reference);
END;
--> statement-breakpoint
CREATE TRIGGER `orders_fts_au` AFTER UPDATE OF id, reference ON `orders`
  WHEN old.id IS NOT new.id OR old.reference IS NOT new.reference BEGIN
  INSERT INTO orders_fts(orders_fts, rowid, reference)
    SELECT 'delete', old.id, old.reference WHERE old.reference IS NOT NULL;
  INSERT INTO orders_fts(rowid, reference) SELECT new.id, new.reference WHERE new.reference IS NOT NULL;
END;
--> statement-breakpoint
-- Not 'rebuild': that would index every order, those without a reference too.
INSERT INTO orders_fts(rowid, reference) SELECT id, reference FROM orders WHERE reference IS NOT NULL;
