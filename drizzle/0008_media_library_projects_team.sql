CREATE TABLE "media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"uploaded_bytes" integer NOT NULL,
	"alt" text DEFAULT '' NOT NULL,
	"decorative" boolean DEFAULT false NOT NULL,
	"source_path" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_id" uuid,
	"created_by_label" text NOT NULL,
	CONSTRAINT "media_key_unique" UNIQUE("key"),
	CONSTRAINT "media_source_path_unique" UNIQUE("source_path"),
	CONSTRAINT "media_format" CHECK ("media"."format" in ('jpeg', 'png', 'webp', 'avif'))
);
--> statement-breakpoint
CREATE TABLE "media_files" (
	"media_id" uuid NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "media_files_media_id_name_pk" PRIMARY KEY("media_id","name")
);
--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "title" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "description" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "category" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "image_url" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "year" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "slug" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "team_members" ALTER COLUMN "name" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "team_members" ALTER COLUMN "title" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "team_members" ALTER COLUMN "expertise" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "team_members" ALTER COLUMN "image_url" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
-- Projects published before scheduling existed went public when they were made.
UPDATE "projects" SET "published_at" = "created_at" WHERE "published_revision_id" IS NOT NULL OR "status" = 'published';--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_created_by_id_staff_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_files" ADD CONSTRAINT "media_files_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_published_copy" CHECK ("projects"."published_revision_id" is null or ("projects"."title" is not null and "projects"."description" is not null and "projects"."category" is not null and "projects"."image_url" is not null and "projects"."year" is not null and "projects"."slug" is not null and "projects"."published_at" is not null));--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_status" CHECK ("projects"."status" in ('draft', 'published', 'unpublished'));--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_published_copy" CHECK ("team_members"."published_revision_id" is null or ("team_members"."name" is not null and "team_members"."title" is not null and "team_members"."expertise" is not null and "team_members"."image_url" is not null));--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_status" CHECK ("team_members"."status" in ('draft', 'published', 'unpublished'));