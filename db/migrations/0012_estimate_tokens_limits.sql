CREATE TABLE `estimate_tokens` (
	`analysis_id` integer PRIMARY KEY NOT NULL,
	`business_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`analysis_id`) REFERENCES `tree_analyses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `estimate_tokens_token_hash_unique` ON `estimate_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `estimate_tokens_expiry_idx` ON `estimate_tokens` (`expires_at`);--> statement-breakpoint
ALTER TABLE `businesses` ADD `limit_notice_day` text;--> statement-breakpoint
ALTER TABLE `embed_funnel` ADD `turned_away` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The daily cap may be at most 1,000 now (core/embed.ts MAX_DAILY_CAP): a higher one becomes 1,000.
UPDATE `businesses` SET `daily_cap` = 1000 WHERE `daily_cap` > 1000;