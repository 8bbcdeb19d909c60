ALTER TABLE "contact_submissions" ADD COLUMN "notice_version" text;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "notice_version" text;