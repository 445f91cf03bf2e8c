CREATE TABLE `embed_usage` (
	`business_id` integer NOT NULL,
	`day` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`business_id`, `day`),
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "embed_usage_count_nonnegative" CHECK("embed_usage"."count" >= 0)
);
--> statement-breakpoint
CREATE TABLE `leads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`analysis_id` integer,
	`name` text NOT NULL,
	`email` text,
	`phone` text,
	`note` text,
	`contacted_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`analysis_id`) REFERENCES `tree_analyses`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `leads_business_idx` ON `leads` (`business_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `leads_analysis_unique` ON `leads` (`analysis_id`);--> statement-breakpoint
ALTER TABLE `businesses` ADD `daily_cap` integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `accent_color` text;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `source` text DEFAULT 'dashboard' NOT NULL;