CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`label` text NOT NULL,
	`message_id` text NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`message` text,
	`status` text NOT NULL,
	`tries` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_try_at` integer NOT NULL,
	`give_up_at` integer NOT NULL,
	`claim` text,
	`claimed_until` integer,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_outbox_message_id_unique` ON `mail_outbox` (`message_id`);--> statement-breakpoint
CREATE INDEX `mail_outbox_due_idx` ON `mail_outbox` (`status`,`next_try_at`);--> statement-breakpoint
CREATE INDEX `mail_outbox_user_idx` ON `mail_outbox` (`user_id`,`created_at`);