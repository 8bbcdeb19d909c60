CREATE TABLE "client_logos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text,
	"organisation" text,
	"logo_url" text,
	"permission_by" text,
	"permission_on" date,
	"permission_uses" text[],
	"permission_review" date,
	"order" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"head_revision_id" bigint,
	"published_revision_id" bigint,
	"origin_hash" text,
	"studio_changed_at" timestamp with time zone,
	"studio_changed_by_label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"deleted_by_label" text,
	CONSTRAINT "client_logos_slug_unique" UNIQUE("slug"),
	CONSTRAINT "client_logos_published_copy" CHECK ("client_logos"."published_revision_id" is null or ("client_logos"."organisation" is not null and "client_logos"."logo_url" is not null)),
	CONSTRAINT "client_logos_permission" CHECK ("client_logos"."status" <> 'published' or ("client_logos"."permission_by" is not null and "client_logos"."permission_on" is not null and "client_logos"."permission_review" is not null and coalesce(cardinality("client_logos"."permission_uses"), 0) > 0)),
	CONSTRAINT "client_logos_status" CHECK ("client_logos"."status" in ('draft', 'published', 'unpublished'))
);
--> statement-breakpoint
CREATE TABLE "testimonials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text,
	"quote" text,
	"person_name" text,
	"person_role" text,
	"organisation" text,
	"anonymised" boolean DEFAULT false NOT NULL,
	"description" text,
	"logo_url" text,
	"project_id" uuid,
	"services" text[],
	"industries" text[],
	"permission_by" text,
	"permission_on" date,
	"permission_uses" text[],
	"permission_review" date,
	"order" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"head_revision_id" bigint,
	"published_revision_id" bigint,
	"origin_hash" text,
	"studio_changed_at" timestamp with time zone,
	"studio_changed_by_label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"deleted_by_label" text,
	CONSTRAINT "testimonials_slug_unique" UNIQUE("slug"),
	CONSTRAINT "testimonials_published_copy" CHECK ("testimonials"."published_revision_id" is null or ("testimonials"."quote" is not null and (case when "testimonials"."anonymised" then "testimonials"."description" is not null else "testimonials"."person_name" is not null and "testimonials"."organisation" is not null end))),
	CONSTRAINT "testimonials_permission" CHECK ("testimonials"."status" <> 'published' or ("testimonials"."permission_by" is not null and "testimonials"."permission_on" is not null and "testimonials"."permission_review" is not null and coalesce(cardinality("testimonials"."permission_uses"), 0) > 0)),
	CONSTRAINT "testimonials_status" CHECK ("testimonials"."status" in ('draft', 'published', 'unpublished'))
);
--> statement-breakpoint
ALTER TABLE "content_revisions" DROP CONSTRAINT "content_revisions_one_item";--> statement-breakpoint
ALTER TABLE "content_revisions" ADD COLUMN "testimonial_id" uuid;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD COLUMN "client_logo_id" uuid;--> statement-breakpoint
ALTER TABLE "testimonials" ADD CONSTRAINT "testimonials_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_testimonial_id_testimonials_id_fk" FOREIGN KEY ("testimonial_id") REFERENCES "public"."testimonials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_client_logo_id_client_logos_id_fk" FOREIGN KEY ("client_logo_id") REFERENCES "public"."client_logos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_testimonial_number" UNIQUE("testimonial_id","number");--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_client_logo_number" UNIQUE("client_logo_id","number");--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_one_item" CHECK (num_nonnulls("content_revisions"."article_id", "content_revisions"."project_id", "content_revisions"."team_member_id", "content_revisions"."testimonial_id", "content_revisions"."client_logo_id") = 1);