CREATE TABLE `analysis_reservations` (
	`reference` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`payment` text NOT NULL,
	`business_id` integer,
	`day` text,
	`image_name` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
