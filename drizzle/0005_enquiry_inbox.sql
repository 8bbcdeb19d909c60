-- The inbox search's trigram index (pg_trgm is a trusted extension: the database's owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "enquiry_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"author_id" uuid,
	"author_label" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "status" text DEFAULT 'new' NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "owner_id" uuid;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "first_reply_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "first_reply_by_id" uuid;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD COLUMN "updated_by_label" text;--> statement-breakpoint
ALTER TABLE "enquiry_notes" ADD CONSTRAINT "enquiry_notes_submission_id_contact_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."contact_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enquiry_notes" ADD CONSTRAINT "enquiry_notes_author_id_staff_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enquiry_notes_submission_idx" ON "enquiry_notes" USING btree ("submission_id","created_at");--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD CONSTRAINT "contact_submissions_owner_id_staff_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD CONSTRAINT "contact_submissions_first_reply_by_id_staff_id_fk" FOREIGN KEY ("first_reply_by_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_submissions_created_idx" ON "contact_submissions" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "contact_submissions_status_created_idx" ON "contact_submissions" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "contact_submissions_unreplied_idx" ON "contact_submissions" USING btree ("created_at") WHERE first_reply_at is null and status not in ('spam', 'won', 'lost');--> statement-breakpoint
CREATE INDEX "contact_submissions_unassigned_idx" ON "contact_submissions" USING btree ("created_at") WHERE owner_id is null and status not in ('spam', 'won', 'lost');--> statement-breakpoint
CREATE INDEX "contact_submissions_search_idx" ON "contact_submissions" USING gin ((first_name || ' ' || last_name || ' ' || email || ' ' || coalesce(company, '') || ' ' || message) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contact_submissions_owner_idx" ON "contact_submissions" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "contact_submissions_email_idx" ON "contact_submissions" USING btree (lower("email"));--> statement-breakpoint
UPDATE "contact_submissions" SET "status" = 'spam' WHERE "is_spam";