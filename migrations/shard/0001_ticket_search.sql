-- Ticket search: an FTS5 index of the words of the searched columns (any script, diacritics folded,
-- with prefix indexes), kept in step by triggers, so that `search` on List Tickets matches words and
-- word prefixes without scanning the table.
CREATE VIRTUAL TABLE `tickets_fts` USING fts5(
  name_en, name_ar, customer_name, customer_email, customer_phone,
  content='tickets', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3'
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
