CREATE TABLE `quote_cancellations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`version_id` integer NOT NULL,
	`via` text NOT NULL,
	`received_on` text NOT NULL,
	`name` text,
	`note` text,
	`within_period` integer NOT NULL,
	`content_hash` text NOT NULL,
	`address` text,
	`user_agent` text,
	`recorded_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`version_id`) REFERENCES `quote_versions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recorded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quote_cancellations_job_id_unique` ON `quote_cancellations` (`job_id`);