CREATE TABLE `job_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`kind` text NOT NULL,
	`analysis_id` integer,
	`description` text NOT NULL,
	`price_pence` integer NOT NULL,
	`optional` integer DEFAULT false NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`analysis_id`) REFERENCES `tree_analyses`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "job_items_price_nonnegative" CHECK("job_items"."price_pence" >= 0)
);
--> statement-breakpoint
CREATE INDEX `job_items_job_idx` ON `job_items` (`job_id`,`position`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`business_id` integer,
	`lead_id` integer,
	`status` text DEFAULT 'draft' NOT NULL,
	`customer_name` text NOT NULL,
	`customer_email` text,
	`customer_phone` text,
	`site_address` text,
	`vat_mode` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`lead_id`) REFERENCES `leads`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `jobs_user_idx` ON `jobs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_lead_idx` ON `jobs` (`lead_id`);--> statement-breakpoint
CREATE TABLE `quote_answers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`version_id` integer NOT NULL,
	`kind` text NOT NULL,
	`name` text,
	`message` text,
	`optional_item_ids` text,
	`start_early` integer,
	`content_hash` text NOT NULL,
	`address` text NOT NULL,
	`user_agent` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`version_id`) REFERENCES `quote_versions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `quote_answers_version_idx` ON `quote_answers` (`version_id`);--> statement-breakpoint
CREATE TABLE `quote_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`version` integer NOT NULL,
	`content` text NOT NULL,
	`content_hash` text NOT NULL,
	`token_hash` text NOT NULL,
	`sent_to` text NOT NULL,
	`sent_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`viewed_at` integer,
	`reminded_at` integer,
	`reminder_token_hash` text,
	`revoked_at` integer,
	`replaced_at` integer,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quote_versions_token_hash_unique` ON `quote_versions` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `quote_versions_reminder_token_hash_unique` ON `quote_versions` (`reminder_token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `quote_versions_job_version` ON `quote_versions` (`job_id`,`version`);--> statement-breakpoint
ALTER TABLE `system_settings` ADD `quote_rounding_pence` integer DEFAULT 500 NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `quote_terms` text;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `quote_reminder_days` integer DEFAULT 5 NOT NULL;