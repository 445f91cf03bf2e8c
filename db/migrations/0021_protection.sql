CREATE TABLE `job_protection` (
	`job_id` integer PRIMARY KEY NOT NULL,
	`lookup_status` text DEFAULT 'not_checked' NOT NULL,
	`postcode` text,
	`findings` text,
	`lookup_problem` text,
	`checked_at` integer,
	`source` text,
	`outcome` text,
	`outcome_on` text,
	`outcome_reference` text,
	`outcome_note` text,
	`recorded_at` integer,
	`confirm_reason` text,
	`confirmed_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
