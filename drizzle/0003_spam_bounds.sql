CREATE TABLE "rate_limit_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" timestamp with time zone[] NOT NULL,
	"last_allowed" boolean DEFAULT true NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spam_tally" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"stored" integer DEFAULT 0 NOT NULL,
	"dropped" integer DEFAULT 0 NOT NULL,
	"last_stored" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "used_form_tokens" (
	"signature" text PRIMARY KEY NOT NULL,
	"idempotency_key" uuid NOT NULL,
	"issued_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "body_digest" text;--> statement-breakpoint
CREATE INDEX "rate_limit_windows_expires_idx" ON "rate_limit_windows" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "used_form_tokens_issued_idx" ON "used_form_tokens" USING btree ("issued_at");