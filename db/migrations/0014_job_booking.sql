ALTER TABLE `jobs` ADD `booked_for` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `booked_start` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `booked_days` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `site_visit_at` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `booking_note` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `booked_at` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `booking_sequence` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `done_at` integer;