ALTER TABLE `system_settings` ADD `trading_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `company_phone` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `company_email` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `company_address` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `vat_number` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `quote_validity_days` integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `logo_path` text;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `value_sources` text;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `measurement` text;