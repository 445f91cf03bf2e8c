CREATE TABLE `sign_ins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`address` text,
	`user_agent` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sign_ins_account_idx` ON `sign_ins` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `sign_ins_user_idx` ON `sign_ins` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `team_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by` integer,
	`created_at` integer NOT NULL,
	`sent_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`used_by` integer,
	`withdrawn_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`used_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `team_invitations_token_hash_unique` ON `team_invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `team_invitations_account_idx` ON `team_invitations` (`account_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `team_invitations_open_email` ON `team_invitations` (`account_id`,`email`) WHERE used_at IS NULL AND withdrawn_at IS NULL;--> statement-breakpoint
CREATE TABLE `team_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`role` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`invited_by` integer,
	`joined_at` integer NOT NULL,
	`last_seen_at` integer,
	`removed_at` integer,
	`removed_by` integer,
	FOREIGN KEY (`account_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`removed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `team_members_user_id_unique` ON `team_members` (`user_id`);--> statement-breakpoint
CREATE INDEX `team_members_account_idx` ON `team_members` (`account_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `team_members_one_owner` ON `team_members` (`account_id`) WHERE role = 'owner' AND status = 'active';--> statement-breakpoint
ALTER TABLE `businesses` ADD `created_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `credit_ledger` ADD `by_user_id` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `credit_notes` ADD `issued_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `invoices` ADD `created_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `invoices` ADD `issued_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `invoices` ADD `sent_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `jobs` ADD `created_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `jobs` ADD `booked_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `jobs` ADD `done_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `leads` ADD `updated_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `quote_versions` ADD `sent_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `run_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
-- Every account before teams becomes the owner of a team of one, its records unchanged.
INSERT INTO `team_members` (`account_id`, `user_id`, `role`, `status`, `joined_at`) SELECT `id`, `id`, 'owner', 'active', `created_at` FROM `users`;
