ALTER TABLE `leads` ADD `owner_mailed_at` integer;--> statement-breakpoint
ALTER TABLE `leads` ADD `owner_mail_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `leads` ADD `acknowledged_at` integer;--> statement-breakpoint
CREATE INDEX `leads_owner_mail_pending_idx` ON `leads` (`owner_mail_pending`) WHERE owner_mail_pending = 1;