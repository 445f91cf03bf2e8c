CREATE TABLE `embed_funnel` (
	`business_id` integer NOT NULL,
	`day` text NOT NULL,
	`loads` integer DEFAULT 0 NOT NULL,
	`photos` integer DEFAULT 0 NOT NULL,
	`estimates` integer DEFAULT 0 NOT NULL,
	`needs_details` integer DEFAULT 0 NOT NULL,
	`leads` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`business_id`, `day`),
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
