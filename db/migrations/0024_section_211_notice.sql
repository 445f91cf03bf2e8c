ALTER TABLE `job_protection` ADD `notice_trees` text;--> statement-breakpoint
ALTER TABLE `job_protection` ADD `notice_saved_at` integer;