CREATE TABLE `trusted_sign_in_networks` (
	`key` text PRIMARY KEY NOT NULL,
	`trusted_until` integer NOT NULL
);
