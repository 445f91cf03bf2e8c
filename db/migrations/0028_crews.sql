CREATE TABLE `crew_members` (
	`crew_id` integer NOT NULL,
	`member_id` integer NOT NULL,
	PRIMARY KEY(`crew_id`, `member_id`),
	FOREIGN KEY (`crew_id`) REFERENCES `crews`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `team_members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `crew_members_member_idx` ON `crew_members` (`member_id`);--> statement-breakpoint
CREATE TABLE `crews` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`colour` text,
	`day_minutes` integer DEFAULT 480 NOT NULL,
	`equipment` text DEFAULT '[]' NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "crews_day_minutes" CHECK("crews"."day_minutes" BETWEEN 60 AND 960)
);
--> statement-breakpoint
CREATE INDEX `crews_account_idx` ON `crews` (`account_id`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `crew_id` integer REFERENCES crews(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `jobs_crew_idx` ON `jobs` (`crew_id`,`booked_for`);--> statement-breakpoint
ALTER TABLE `system_settings` ADD `working_days` text;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `climbing_wind_limit_ms` real;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `days_off` text DEFAULT '[]' NOT NULL;