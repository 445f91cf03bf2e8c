CREATE TABLE `card_checkouts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`provider` text NOT NULL,
	`session_id` text NOT NULL,
	`account` text,
	`amount_pence` integer NOT NULL,
	`application_fee_pence` integer DEFAULT 0 NOT NULL,
	`url` text NOT NULL,
	`return_path` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`expires_at` integer NOT NULL,
	`paid_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `card_checkouts_session_id_unique` ON `card_checkouts` (`session_id`);--> statement-breakpoint
CREATE INDEX `card_checkouts_invoice_idx` ON `card_checkouts` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `card_payment_problems` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`invoice_id` integer,
	`event_id` text NOT NULL,
	`session_id` text,
	`payment_intent_id` text,
	`account` text,
	`amount_pence` integer NOT NULL,
	`currency` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	`resolved_at` integer,
	`resolved_note` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `card_payment_problems_user_idx` ON `card_payment_problems` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `payment_accounts` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`details_submitted` integer DEFAULT false NOT NULL,
	`charges_enabled` integer DEFAULT false NOT NULL,
	`requirements` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_accounts_account_id_unique` ON `payment_accounts` (`account_id`);--> statement-breakpoint
CREATE TABLE `payment_refunds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`payment_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`credit_note_id` integer,
	`amount_pence` integer NOT NULL,
	`reason` text NOT NULL,
	`provider_refund_id` text,
	`recorded_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `invoice_payments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`credit_note_id`) REFERENCES `credit_notes`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`recorded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "payment_refunds_positive" CHECK("payment_refunds"."amount_pence" > 0)
);
--> statement-breakpoint
CREATE INDEX `payment_refunds_payment_idx` ON `payment_refunds` (`payment_id`);--> statement-breakpoint
CREATE INDEX `payment_refunds_invoice_idx` ON `payment_refunds` (`invoice_id`);--> statement-breakpoint
ALTER TABLE `invoice_payments` ADD `refunded_pence` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoice_payments` ADD `provider_payment_id` text;--> statement-breakpoint
ALTER TABLE `invoice_payments` ADD `provider_account` text;--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_payments_provider_payment` ON `invoice_payments` (`provider_payment_id`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `deposit_percent` real;