CREATE TABLE `early_start_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`version_id` integer NOT NULL,
	`asked_at` integer NOT NULL,
	`asked_by` integer,
	`requested_at` integer,
	`name` text,
	`wording` text,
	`address` text,
	`user_agent` text,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`version_id`) REFERENCES `quote_versions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`asked_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `early_start_requests_job_id_unique` ON `early_start_requests` (`job_id`);--> statement-breakpoint
ALTER TABLE `quote_versions` ADD `early_start_token_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `quote_versions_early_start_token_hash_unique` ON `quote_versions` (`early_start_token_hash`);