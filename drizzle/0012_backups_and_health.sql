CREATE TABLE "backup_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"scheduled_day" text,
	"requested_by" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text DEFAULT 'running' NOT NULL,
	"file_name" text,
	"bytes" bigint,
	"error" text,
	"drill_status" text,
	"drill_at" timestamp with time zone,
	"drill_detail" text,
	"copy_status" text,
	"copy_at" timestamp with time zone,
	"copy_detail" text,
	CONSTRAINT "backup_runs_scheduled_day_unique" UNIQUE("scheduled_day")
);
--> statement-breakpoint
CREATE TABLE "erasure_ledger" (
	"address_hash" text NOT NULL,
	"erased_at" timestamp with time zone NOT NULL,
	CONSTRAINT "erasure_ledger_address_hash_erased_at_pk" PRIMARY KEY("address_hash","erased_at")
);
--> statement-breakpoint
CREATE TABLE "health_alerts" (
	"line" text PRIMARY KEY NOT NULL,
	"red" boolean NOT NULL,
	"reason" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"last_mailed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "backup_runs_started_idx" ON "backup_runs" USING btree ("started_at");