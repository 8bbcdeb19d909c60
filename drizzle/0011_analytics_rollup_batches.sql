CREATE TABLE "analytics_rollup_pages" (
	"day" text NOT NULL,
	"path" text NOT NULL,
	"visitor_hash" text NOT NULL,
	"views" integer NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	CONSTRAINT "analytics_rollup_pages_day_path_visitor_hash_pk" PRIMARY KEY("day","path","visitor_hash")
);
--> statement-breakpoint
CREATE TABLE "analytics_rollup_progress" (
	"day" text PRIMARY KEY NOT NULL,
	"phase" text DEFAULT 'views' NOT NULL,
	"after_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "analytics_rollup_visitors" (
	"day" text NOT NULL,
	"visitor_hash" text NOT NULL,
	"views" integer NOT NULL,
	"interested" boolean NOT NULL,
	"contact" boolean NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"first_id" bigint NOT NULL,
	"source" text NOT NULL,
	"campaign" text,
	"device" text NOT NULL,
	CONSTRAINT "analytics_rollup_visitors_day_visitor_hash_pk" PRIMARY KEY("day","visitor_hash")
);
