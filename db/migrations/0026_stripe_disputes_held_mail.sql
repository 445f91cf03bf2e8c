CREATE TABLE `invoice_held_mail` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_id` integer NOT NULL,
	`kind` text NOT NULL,
	`payment_id` integer,
	`reminder` text,
	`credit_note_id` integer,
	`refund_id` integer,
	`card` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`payment_id`) REFERENCES `invoice_payments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`credit_note_id`) REFERENCES `credit_notes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`refund_id`) REFERENCES `payment_refunds`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `invoice_held_mail_invoice_idx` ON `invoice_held_mail` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `payment_disputes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`payment_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`provider_dispute_id` text NOT NULL,
	`amount_pence` integer NOT NULL,
	`reason` text NOT NULL,
	`status` text NOT NULL,
	`evidence_due_by` integer,
	`closed_at` integer,
	`refund_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `invoice_payments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`refund_id`) REFERENCES `payment_refunds`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "payment_disputes_positive" CHECK("payment_disputes"."amount_pence" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_disputes_provider_dispute_id_unique` ON `payment_disputes` (`provider_dispute_id`);--> statement-breakpoint
CREATE INDEX `payment_disputes_invoice_idx` ON `payment_disputes` (`invoice_id`);--> statement-breakpoint
ALTER TABLE `invoices` ADD `links_withdrawn_at` integer;