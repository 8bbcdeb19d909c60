CREATE TABLE "analytics_daily" (
	"day" text NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"visitors" integer DEFAULT 0 NOT NULL,
	"enquiries" integer DEFAULT 0 NOT NULL,
	"subscriptions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_day_dimension_value_pk" PRIMARY KEY("day","dimension","value")
);
--> statement-breakpoint
CREATE TABLE "analytics_rolled_days" (
	"day" text PRIMARY KEY NOT NULL,
	"rolled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_salts" (
	"day" text PRIMARY KEY NOT NULL,
	"salt" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_views" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"path" text NOT NULL,
	"referrer_host" text,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"device" text NOT NULL,
	"visitor_hash" text NOT NULL,
	"views" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "landing_page" text;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "attribution_source" text;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "attribution_medium" text;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "attribution_campaign" text;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "visitor_hash" text;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "landing_page" text;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "attribution_source" text;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "attribution_medium" text;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "attribution_campaign" text;--> statement-breakpoint
CREATE INDEX "page_views_at_idx" ON "page_views" USING btree ("at");--> statement-breakpoint
CREATE INDEX "page_views_visitor_idx" ON "page_views" USING btree ("visitor_hash","at");