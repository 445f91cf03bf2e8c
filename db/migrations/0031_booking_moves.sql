CREATE TABLE `booking_moves` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`from_date` text NOT NULL,
	`to_date` text NOT NULL,
	`from_start` text NOT NULL,
	`to_start` text NOT NULL,
	`from_days` integer NOT NULL,
	`to_days` integer NOT NULL,
	`from_crew_id` integer,
	`to_crew_id` integer,
	`reason` text,
	`note` text,
	`moved_by` integer,
	`moved_at` integer NOT NULL,
	`customer_notified` integer NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`from_crew_id`) REFERENCES `crews`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`to_crew_id`) REFERENCES `crews`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`moved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `booking_moves_job_idx` ON `booking_moves` (`job_id`,`moved_at`);