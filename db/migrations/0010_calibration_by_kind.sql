CREATE TABLE `calibration_kind_totals` (
	`user_id` integer NOT NULL,
	`method` text NOT NULL,
	`jobs` integer DEFAULT 0 NOT NULL,
	`cutting_observations` integer DEFAULT 0 NOT NULL,
	`cutting_log_ratio_sum` integer DEFAULT 0 NOT NULL,
	`prep_observations` integer DEFAULT 0 NOT NULL,
	`prep_log_ratio_sum` integer DEFAULT 0 NOT NULL,
	`cleanup_observations` integer DEFAULT 0 NOT NULL,
	`cleanup_log_ratio_sum` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `method`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `calibrated_kind_jobs` integer;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `calibrated_install_accounts` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `share_job_times` integer DEFAULT true NOT NULL;--> statement-breakpoint
-- Backfill: each user's feedback so far per kind of job (the analysis's method), summed
-- exactly as migration 0005 summed calibration_totals and as server/analysis/calibration.ts
-- feedbackTotals sums it. An analysis stored without a method has no kind and counts only in calibration_totals.
INSERT INTO `calibration_kind_totals` (`user_id`, `method`, `jobs`, `cutting_observations`, `cutting_log_ratio_sum`, `prep_observations`, `prep_log_ratio_sum`, `cleanup_observations`, `cleanup_log_ratio_sum`)
SELECT
	`user_id`,
	`method`,
	count(*),
	count(`cutting_ratio`), coalesce(sum(CAST(round(ln(`cutting_ratio`) * 1000000) AS INTEGER)), 0),
	count(`prep_ratio`), coalesce(sum(CAST(round(ln(`prep_ratio`) * 1000000) AS INTEGER)), 0),
	count(`cleanup_ratio`), coalesce(sum(CAST(round(ln(`cleanup_ratio`) * 1000000) AS INTEGER)), 0)
FROM (
	SELECT
		`user_id`,
		`method`,
		CASE WHEN `actual_cutting_time` > 0 AND json_extract(`base_times`, '$.cutting') > 0
			THEN CAST(`actual_cutting_time` AS REAL) / json_extract(`base_times`, '$.cutting') END AS `cutting_ratio`,
		CASE WHEN `actual_prep_time` > 0 AND json_extract(`base_times`, '$.prep') > 0
			THEN CAST(`actual_prep_time` AS REAL) / json_extract(`base_times`, '$.prep') END AS `prep_ratio`,
		CASE WHEN `actual_cleanup_time` > 0 AND json_extract(`base_times`, '$.cleanup') > 0
			THEN CAST(`actual_cleanup_time` AS REAL) / json_extract(`base_times`, '$.cleanup') END AS `cleanup_ratio`
	FROM `tree_analyses`
	WHERE `base_times` IS NOT NULL
		AND `method` IS NOT NULL
		AND (`actual_cutting_time` IS NOT NULL OR `actual_prep_time` IS NOT NULL OR `actual_cleanup_time` IS NOT NULL)
)
GROUP BY `user_id`, `method`;
