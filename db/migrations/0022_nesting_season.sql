ALTER TABLE `system_settings` ADD `nesting_from` text;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `nesting_to` text;