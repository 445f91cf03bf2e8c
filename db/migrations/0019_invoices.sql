CREATE TABLE `credit_notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`number` text NOT NULL,
	`sequence` integer NOT NULL,
	`issued_on` text NOT NULL,
	`reason` text NOT NULL,
	`net_pence` integer NOT NULL,
	`vat_pence` integer NOT NULL,
	`gross_pence` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credit_notes_user_number` ON `credit_notes` (`user_id`,`number`);--> statement-breakpoint
CREATE INDEX `credit_notes_invoice_idx` ON `credit_notes` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `invoice_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_id` integer NOT NULL,
	`position` integer NOT NULL,
	`kind` text NOT NULL,
	`description` text NOT NULL,
	`note` text,
	`quantity` integer DEFAULT 1 NOT NULL,
	`unit_pence` integer NOT NULL,
	`net_pence` integer NOT NULL,
	`vat_pence` integer NOT NULL,
	`gross_pence` integer NOT NULL,
	`deposit_invoice_id` integer,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`deposit_invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `invoice_lines_invoice_idx` ON `invoice_lines` (`invoice_id`,`position`);--> statement-breakpoint
CREATE TABLE `invoice_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_links_token_hash_unique` ON `invoice_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `invoice_links_invoice_idx` ON `invoice_links` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `invoice_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_id` integer NOT NULL,
	`amount_pence` integer NOT NULL,
	`paid_on` text NOT NULL,
	`method` text NOT NULL,
	`reference` text,
	`recorded_by` integer,
	`removed_at` integer,
	`removed_reason` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recorded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "invoice_payments_positive" CHECK("invoice_payments"."amount_pence" > 0)
);
--> statement-breakpoint
CREATE INDEX `invoice_payments_invoice_idx` ON `invoice_payments` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`job_id` integer NOT NULL,
	`version_id` integer NOT NULL,
	`kind` text NOT NULL,
	`deposit_percent` real,
	`vat_mode` text NOT NULL,
	`vat_rate_percent` integer NOT NULL,
	`net_pence` integer NOT NULL,
	`vat_pence` integer NOT NULL,
	`gross_pence` integer NOT NULL,
	`number` text,
	`sequence` integer,
	`issued_at` integer,
	`issued_on` text,
	`due_on` text,
	`parties` text,
	`sent_to` text,
	`sent_at` integer,
	`viewed_at` integer,
	`first_reminder_at` integer,
	`second_reminder_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`version_id`) REFERENCES `quote_versions`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "invoices_issued_whole" CHECK(("invoices"."number" IS NULL) = ("invoices"."issued_on" IS NULL))
);
--> statement-breakpoint
CREATE INDEX `invoices_user_idx` ON `invoices` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `invoices_job_idx` ON `invoices` (`job_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_user_number` ON `invoices` (`user_id`,`number`);--> statement-breakpoint
ALTER TABLE `system_settings` ADD `bank_details` text;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `payment_terms_days` integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `deposit_rule` text;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `invoice_prefix` text DEFAULT 'INV-' NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `next_invoice_number` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `next_credit_note_number` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `invoice_reminder_first_days` integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `invoice_reminder_second_days` integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `sales_account_code` text DEFAULT '200' NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `late_interest_base_rate_percent` real;