CREATE TABLE `batch_handles` (
	`name` text PRIMARY KEY NOT NULL,
	`id` integer NOT NULL
);
