CREATE TABLE `job_finishes` (
	`job_id` integer PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`minutes_on_site` integer NOT NULL,
	`given_per_tree` integer NOT NULL,
	`note` text,
	`finished_by` integer,
	`finished_at` integer NOT NULL,
	`corrected_by` integer,
	`corrected_at` integer,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`finished_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`corrected_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `job_photos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`kind` text NOT NULL,
	`image_name` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`taken_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`taken_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `job_photos_job_idx` ON `job_photos` (`job_id`,`id`);--> statement-breakpoint
CREATE TABLE `work_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`member_id` integer,
	`event` text NOT NULL,
	`at` integer NOT NULL,
	`client_id` text NOT NULL,
	`reason` text,
	`by` integer,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `team_members`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `work_events_client_idx` ON `work_events` (`job_id`,`client_id`);--> statement-breakpoint
CREATE INDEX `work_events_job_idx` ON `work_events` (`job_id`,`at`);