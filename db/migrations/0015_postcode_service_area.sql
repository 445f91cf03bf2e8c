ALTER TABLE `businesses` ADD `service_districts` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `leads` ADD `postcode` text;--> statement-breakpoint
ALTER TABLE `leads` ADD `address` text;--> statement-breakpoint
ALTER TABLE `leads` ADD `outside_area` integer DEFAULT false NOT NULL;