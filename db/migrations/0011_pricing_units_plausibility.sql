ALTER TABLE `businesses` ADD `pricing` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `units` text DEFAULT 'metric' NOT NULL;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `pricing` text;--> statement-breakpoint
ALTER TABLE `system_settings` ADD `units` text DEFAULT 'metric' NOT NULL;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `price` text;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `size_warnings` text;--> statement-breakpoint
ALTER TABLE `tree_analyses` ADD `units` text;--> statement-breakpoint
-- An account with a VAT number had VAT added on its PDF quotes: it keeps charging VAT, now shown
-- including VAT everywhere (core/price.ts VatMode). Every other account starts with the defaults.
UPDATE `system_settings` SET `pricing` = json_object('crewSize', 2, 'minimumChargePence', 0, 'travelPence', 0, 'wastePerTonnePence', 0, 'stumpGrindingPence', 0, 'accessPlatformPence', 0, 'trafficManagementPence', 0, 'vatMode', 'inc') WHERE `vat_number` <> '';
