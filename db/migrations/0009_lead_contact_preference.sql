ALTER TABLE `leads` ADD `contact_method` text;--> statement-breakpoint
ALTER TABLE `leads` ADD `contact_time` text;