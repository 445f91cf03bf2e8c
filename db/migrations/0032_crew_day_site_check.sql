CREATE TABLE `site_check_signatures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`check_id` integer NOT NULL,
	`member_id` integer NOT NULL,
	`name` text NOT NULL,
	`signed_at` integer NOT NULL,
	FOREIGN KEY (`check_id`) REFERENCES `site_checks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `site_check_signatures_once` ON `site_check_signatures` (`check_id`,`member_id`);--> statement-breakpoint
CREATE TABLE `site_checks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`date` text NOT NULL,
	`hazards` text NOT NULL,
	`emergency` text NOT NULL,
	`postcode` text,
	`latitude` real,
	`longitude` real,
	`nearest_hospital` text,
	`updated_at` integer NOT NULL,
	`updated_by` integer,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `site_checks_job_date_unique` ON `site_checks` (`job_id`,`date`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `what3words` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `access_notes` text;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `hospitals` text;