CREATE TABLE `calibration_totals` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`jobs` integer DEFAULT 0 NOT NULL,
	`cutting_observations` integer DEFAULT 0 NOT NULL,
	`cutting_log_ratio_sum` integer DEFAULT 0 NOT NULL,
	`prep_observations` integer DEFAULT 0 NOT NULL,
	`prep_log_ratio_sum` integer DEFAULT 0 NOT NULL,
	`cleanup_observations` integer DEFAULT 0 NOT NULL,
	`cleanup_log_ratio_sum` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Backfill: each user's feedback so far, summed as server/analysis/calibration.ts
-- feedbackTotals sums it. A job is an analysis with base times and at least one actual time;
-- a component counts when its base time and actual time are both above zero, and adds
-- ln(actual / base) in whole millionths, rounded half away from zero as core/calibration.ts
-- rounds. (SQLite's ln() and JavaScript's Math.log could differ in the last bit; that moves a
-- total only for a log ratio within about 1e-16 of a rounding boundary.)
INSERT INTO `calibration_totals` (`user_id`, `jobs`, `cutting_observations`, `cutting_log_ratio_sum`, `prep_observations`, `prep_log_ratio_sum`, `cleanup_observations`, `cleanup_log_ratio_sum`)
SELECT
	`user_id`,
	count(*),
	count(`cutting_ratio`), coalesce(sum(CAST(round(ln(`cutting_ratio`) * 1000000) AS INTEGER)), 0),
	count(`prep_ratio`), coalesce(sum(CAST(round(ln(`prep_ratio`) * 1000000) AS INTEGER)), 0),
	count(`cleanup_ratio`), coalesce(sum(CAST(round(ln(`cleanup_ratio`) * 1000000) AS INTEGER)), 0)
FROM (
	SELECT
		`user_id`,
		CASE WHEN `actual_cutting_time` > 0 AND json_extract(`base_times`, '$.cutting') > 0
			THEN CAST(`actual_cutting_time` AS REAL) / json_extract(`base_times`, '$.cutting') END AS `cutting_ratio`,
		CASE WHEN `actual_prep_time` > 0 AND json_extract(`base_times`, '$.prep') > 0
			THEN CAST(`actual_prep_time` AS REAL) / json_extract(`base_times`, '$.prep') END AS `prep_ratio`,
		CASE WHEN `actual_cleanup_time` > 0 AND json_extract(`base_times`, '$.cleanup') > 0
			THEN CAST(`actual_cleanup_time` AS REAL) / json_extract(`base_times`, '$.cleanup') END AS `cleanup_ratio`
	FROM `tree_analyses`
	WHERE `base_times` IS NOT NULL
		AND (`actual_cutting_time` IS NOT NULL OR `actual_prep_time` IS NOT NULL OR `actual_cleanup_time` IS NOT NULL)
)
GROUP BY `user_id`;
