CREATE TABLE `availability` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`expert_id` integer NOT NULL,
	`day_of_week` integer NOT NULL,
	`start_time` text NOT NULL,
	`end_time` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`expert_id`) REFERENCES `experts`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "availability_day_check" CHECK("availability"."day_of_week" between 0 and 6),
	CONSTRAINT "availability_range_check" CHECK("availability"."start_time" < "availability"."end_time")
);
--> statement-breakpoint
CREATE INDEX `availability_expert_idx` ON `availability` (`expert_id`,`day_of_week`);--> statement-breakpoint
CREATE TABLE `bookings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`expert_id` integer NOT NULL,
	`date` text NOT NULL,
	`start_time` text NOT NULL,
	`end_time` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`duration` integer DEFAULT 60 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`meeting_link` text,
	`payment_intent_id` text,
	`amount` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`name` text,
	`email` text,
	`notes` text,
	`hold_expires_at` integer,
	`confirmed_at` integer,
	`link_sent_at` integer,
	`completed_at` integer,
	`cancelled_at` integer,
	`cancelled_by` integer,
	`refund_id` text,
	`refunded_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`expert_id`) REFERENCES `experts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`cancelled_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "bookings_status_check" CHECK(status in ('awaiting_payment', 'pending', 'confirmed', 'completed', 'cancelled', 'expired'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_payment_intent_unique` ON `bookings` (`payment_intent_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_live_slot_unique` ON `bookings` (`expert_id`,`starts_at`) WHERE status in ('awaiting_payment', 'pending', 'confirmed', 'completed');--> statement-breakpoint
CREATE INDEX `bookings_expert_start_idx` ON `bookings` (`expert_id`,`starts_at`);--> statement-breakpoint
CREATE INDEX `bookings_user_start_idx` ON `bookings` (`user_id`,`starts_at`);--> statement-breakpoint
CREATE INDEX `bookings_status_start_idx` ON `bookings` (`status`,`starts_at`);--> statement-breakpoint
CREATE INDEX `bookings_status_hold_idx` ON `bookings` (`status`,`hold_expires_at`);--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text(100) NOT NULL,
	`slug` text(100) NOT NULL,
	`description` text,
	`icon_url` text,
	`image_url` text,
	`display_order` integer DEFAULT 1000 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_name_unique` ON `categories` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `categories_slug_unique` ON `categories` (`slug`);--> statement-breakpoint
CREATE INDEX `categories_order_idx` ON `categories` (`display_order`,`name`);--> statement-breakpoint
CREATE TABLE `contact_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`subject` text NOT NULL,
	`message` text NOT NULL,
	`handled_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `contact_messages_created_idx` ON `contact_messages` (`created_at`);--> statement-breakpoint
CREATE TABLE `cron_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cron` text NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`summary` text,
	`failures` text
);
--> statement-breakpoint
CREATE INDEX `cron_runs_started_idx` ON `cron_runs` (`started_at`);--> statement-breakpoint
CREATE TABLE `email_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`to_email` text NOT NULL,
	`subject` text NOT NULL,
	`body_text` text NOT NULL,
	`body_html` text,
	`notification_id` integer,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`last_error` text,
	`provider_message_id` text,
	`sent_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`notification_id`) REFERENCES `notifications`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `email_outbox_due_idx` ON `email_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `expert_categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`expert_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`expert_id`) REFERENCES `experts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `expert_categories_unique` ON `expert_categories` (`expert_id`,`category_id`);--> statement-breakpoint
CREATE INDEX `expert_categories_category_idx` ON `expert_categories` (`category_id`,`expert_id`);--> statement-breakpoint
CREATE TABLE `experts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`bio` text DEFAULT '' NOT NULL,
	`expertise` text DEFAULT '' NOT NULL,
	`consulting_topics` text,
	`qualifications` text,
	`profile_image` text,
	`header_image` text,
	`title` text(100),
	`occupation` text(100),
	`company` text(100),
	`location` text(100),
	`custom_url` text(50),
	`is_top_expert` integer DEFAULT false NOT NULL,
	`is_verified` integer DEFAULT false NOT NULL,
	`verified_at` integer,
	`category_id` integer,
	`session_price` integer DEFAULT 10000 NOT NULL,
	`question_rate` integer DEFAULT 500 NOT NULL,
	`social_instagram` text,
	`social_twitter` text,
	`social_linkedin` text,
	`social_website` text,
	`time_zone` text DEFAULT 'America/New_York' NOT NULL,
	`is_available` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "experts_question_rate_check" CHECK("experts"."question_rate" >= 500),
	CONSTRAINT "experts_session_price_check" CHECK("experts"."session_price" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `experts_user_unique` ON `experts` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `experts_custom_url_unique` ON `experts` (lower("custom_url"));--> statement-breakpoint
CREATE INDEX `experts_category_idx` ON `experts` (`category_id`);--> statement-breakpoint
CREATE INDEX `experts_top_idx` ON `experts` (`is_top_expert`,`id`);--> statement-breakpoint
CREATE INDEX `experts_question_rate_idx` ON `experts` (`question_rate`);--> statement-breakpoint
CREATE TABLE `login_throttle` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`window_started_at` integer NOT NULL,
	`locked_until` integer
);
--> statement-breakpoint
CREATE TABLE `newsletter_signups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_email_unique` ON `newsletter_signups` (lower("email"));--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`link` text,
	`dedupe_key` text,
	`read_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`read_at`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_dedupe_unique` ON `notifications` (`user_id`,`dedupe_key`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`user_id` integer,
	`expert_id` integer,
	`question_id` integer,
	`booking_id` integer,
	`stripe_payment_intent_id` text,
	`stripe_invoice_id` text,
	`stripe_refund_id` text,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	`settled_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`expert_id`) REFERENCES `experts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`question_id`) REFERENCES `questions`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "payments_amount_check" CHECK("payments"."amount" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_question_unique` ON `payments` (`question_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_booking_unique` ON `payments` (`booking_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_invoice_unique` ON `payments` (`stripe_invoice_id`);--> statement-breakpoint
CREATE INDEX `payments_expert_idx` ON `payments` (`expert_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_user_idx` ON `payments` (`user_id`);--> statement-breakpoint
CREATE INDEX `payments_intent_idx` ON `payments` (`stripe_payment_intent_id`);--> statement-breakpoint
CREATE TABLE `questions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`expert_id` integer,
	`name` text,
	`email` text,
	`question` text NOT NULL,
	`answer` text,
	`audio_response` text,
	`audio_content_type` text,
	`request_audio_response` integer DEFAULT false NOT NULL,
	`show_on_profile` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`payment_intent_id` text,
	`payment_state` text DEFAULT 'none' NOT NULL,
	`subscription_day` text,
	`paid_at` integer,
	`deadline_at` integer,
	`reminder_sent_at` integer,
	`answered_at` integer,
	`declined_at` integer,
	`expired_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`expert_id`) REFERENCES `experts`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "questions_status_check" CHECK(status in ('awaiting_payment', 'pending', 'in_progress', 'answered', 'rejected', 'expired'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `questions_payment_intent_unique` ON `questions` (`payment_intent_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `questions_subscription_day_unique` ON `questions` (`user_id`,`subscription_day`) WHERE "questions"."subscription_day" is not null;--> statement-breakpoint
CREATE INDEX `questions_expert_status_idx` ON `questions` (`expert_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `questions_user_idx` ON `questions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `questions_status_deadline_idx` ON `questions` (`status`,`deadline_at`);--> statement-breakpoint
CREATE INDEX `questions_payment_state_idx` ON `questions` (`payment_state`);--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`expert_id` integer NOT NULL,
	`rating` integer NOT NULL,
	`comment` text,
	`booking_id` integer,
	`question_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`expert_id`) REFERENCES `experts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`question_id`) REFERENCES `questions`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "reviews_rating_check" CHECK("reviews"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE INDEX `reviews_expert_idx` ON `reviews` (`expert_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_booking_unique` ON `reviews` (`booking_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_question_unique` ON `reviews` (`question_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`last_seen_at` integer,
	`user_agent` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `user_favorites` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`expert_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`expert_id`) REFERENCES `experts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_favorites_unique` ON `user_favorites` (`user_id`,`expert_id`);--> statement-breakpoint
CREATE INDEX `user_favorites_expert_idx` ON `user_favorites` (`expert_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`email` text NOT NULL,
	`name` text,
	`first_name` text,
	`last_name` text,
	`role` text DEFAULT 'user' NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`profile_image` text,
	`stripe_customer_id` text,
	`stripe_subscription_id` text,
	`subscription_status` text,
	`subscription_end_date` integer,
	`subscription_cancel_at_period_end` integer DEFAULT false NOT NULL,
	`subscription_event_at` integer,
	`password_changed_at` integer,
	`deleted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "users_role_check" CHECK(role in ('user', 'expert', 'admin'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX `users_stripe_customer_unique` ON `users` (`stripe_customer_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_stripe_subscription_unique` ON `users` (`stripe_subscription_id`);--> statement-breakpoint
CREATE INDEX `users_subscription_end_idx` ON `users` (`subscription_status`,`subscription_end_date`);