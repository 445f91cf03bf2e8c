CREATE TABLE `lead_trees` (
	`lead_id` integer NOT NULL,
	`analysis_id` integer,
	`position` integer NOT NULL,
	PRIMARY KEY(`lead_id`, `position`),
	FOREIGN KEY (`lead_id`) REFERENCES `leads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`analysis_id`) REFERENCES `tree_analyses`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lead_trees_analysis_unique` ON `lead_trees` (`analysis_id`);--> statement-breakpoint
ALTER TABLE `embed_funnel` ADD `trees` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every lead so far had one tree: its analysis, at the first place; each past day's leads were as many trees.
INSERT INTO `lead_trees` (`lead_id`, `analysis_id`, `position`) SELECT `id`, `analysis_id`, 0 FROM `leads` WHERE `analysis_id` IS NOT NULL;--> statement-breakpoint
UPDATE `embed_funnel` SET `trees` = `leads`;
