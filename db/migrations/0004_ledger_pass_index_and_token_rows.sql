CREATE INDEX `credit_ledger_user_reason_time_idx` ON `credit_ledger` (`user_id`,`reason`,`created_at`);
--> statement-breakpoint
-- Reads never write: every user has a user_tokens row from registration on,
-- so GET /api/user-tokens only reads; this gives one to any account made before that.
INSERT INTO `user_tokens` (`user_id`, `created_at`) SELECT `id`, `created_at` FROM `users` WHERE `id` NOT IN (SELECT `user_id` FROM `user_tokens`);
