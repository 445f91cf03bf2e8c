CREATE TABLE `postcode_locations` (
	`postcode` text PRIMARY KEY NOT NULL,
	`latitude` real,
	`longitude` real,
	`looked_up_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `weather_forecasts` (
	`location` text PRIMARY KEY NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`series` text NOT NULL,
	`expires_at` integer NOT NULL,
	`last_modified` text,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `weather_forecasts_fetched_idx` ON `weather_forecasts` (`fetched_at`);