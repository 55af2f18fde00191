-- Ticket search: a trigram FTS5 index over the searched columns, kept in step by triggers, so that
-- `search` on List Tickets matches substrings (any script) without scanning the table.
CREATE VIRTUAL TABLE `tickets_fts` USING fts5(
  name_en, name_ar, customer_name, customer_email, customer_phone,
  content='tickets', content_rowid='id', tokenize='trigram'
);
--> statement-breakpoint
CREATE TRIGGER `tickets_fts_ai` AFTER INSERT ON `tickets` BEGIN
  INSERT INTO tickets_fts(rowid, name_en, name_ar, customer_name, customer_email, customer_phone)
  VALUES (new.id, new.name_en, new.name_ar, new.customer_name, new.customer_email, new.customer_phone);
END;
--> statement-breakpoint
CREATE TRIGGER `tickets_fts_ad` AFTER DELETE ON `tickets` BEGIN
  INSERT INTO tickets_fts(tickets_fts, rowid, name_en, name_ar, customer_name, customer_email, customer_phone)
  VALUES ('delete', old.id, old.name_en, old.name_ar, old.customer_name, old.customer_email, old.customer_phone);
END;
--> statement-breakpoint
CREATE TRIGGER `tickets_fts_au` AFTER UPDATE OF name_en, name_ar, customer_name, customer_email, customer_phone ON `tickets` BEGIN
  INSERT INTO tickets_fts(tickets_fts, rowid, name_en, name_ar, customer_name, customer_email, customer_phone)
  VALUES ('delete', old.id, old.name_en, old.name_ar, old.customer_name, old.customer_email, old.customer_phone);
  INSERT INTO tickets_fts(rowid, name_en, name_ar, customer_name, customer_email, customer_phone)
  VALUES (new.id, new.name_en, new.name_ar, new.customer_name, new.customer_email, new.customer_phone);
END;
