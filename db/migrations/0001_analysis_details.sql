ALTER TABLE `tree_analyses` ADD `cost_min_pence` integer;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `cost_max_pence` integer;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `image_path` text;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `method` text;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `site_visit_reason` text;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `base_times` text;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `calibrated_from_jobs` integer;