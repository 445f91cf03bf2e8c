ALTER TABLE `businesses` ADD `pricing` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `units` text DEFAULT 'metric' NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `pricing` text;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `units` text DEFAULT 'metric' NOT NULL;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `price` text;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `size_warnings` text;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `units` text;