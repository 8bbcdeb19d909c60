CREATE TABLE "content_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"kind" text NOT NULL,
	"article_id" uuid NOT NULL,
	"created_by" uuid,
	"created_by_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "content_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "content_presence" (
	"article_id" uuid NOT NULL,
	"session_id_hash" text NOT NULL,
	"staff_id" uuid NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_presence_article_id_session_id_hash_pk" PRIMARY KEY("article_id","session_id_hash")
);
--> statement-breakpoint
CREATE TABLE "content_redirects" (
	"kind" text NOT NULL,
	"old_slug" text NOT NULL,
	"article_id" uuid,
	"project_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_label" text NOT NULL,
	CONSTRAINT "content_redirects_kind_old_slug_pk" PRIMARY KEY("kind","old_slug"),
	CONSTRAINT "content_redirects_one_item" CHECK (num_nonnulls("content_redirects"."article_id", "content_redirects"."project_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "content_revisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"article_id" uuid,
	"project_id" uuid,
	"team_member_id" uuid,
	"number" integer NOT NULL,
	"base_revision_id" bigint,
	"author_id" uuid,
	"author_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"restored_from_id" bigint,
	"document" jsonb NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "content_revisions_article_number" UNIQUE("article_id","number"),
	CONSTRAINT "content_revisions_project_number" UNIQUE("project_id","number"),
	CONSTRAINT "content_revisions_team_member_number" UNIQUE("team_member_id","number"),
	CONSTRAINT "content_revisions_one_item" CHECK (num_nonnulls("content_revisions"."article_id", "content_revisions"."project_id", "content_revisions"."team_member_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "blog_posts" ALTER COLUMN "title" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ALTER COLUMN "excerpt" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ALTER COLUMN "category" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ALTER COLUMN "image_url" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ALTER COLUMN "published_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "blog_posts" ALTER COLUMN "published_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ALTER COLUMN "slug" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "image_alt" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "author_id" uuid;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "status" text DEFAULT 'draft' NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "head_revision_id" bigint;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "published_revision_id" bigint;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "origin_hash" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "studio_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "studio_changed_by_label" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "deleted_by_label" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "status" text DEFAULT 'draft' NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "head_revision_id" bigint;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "published_revision_id" bigint;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "origin_hash" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "studio_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "studio_changed_by_label" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "deleted_by_label" text;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "can_publish" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "slug" text;--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "status" text DEFAULT 'draft' NOT NULL;--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "head_revision_id" bigint;--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "published_revision_id" bigint;--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "origin_hash" text;--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "studio_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "studio_changed_by_label" text;--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "deleted_by_label" text;--> statement-breakpoint
ALTER TABLE "content_links" ADD CONSTRAINT "content_links_article_id_blog_posts_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_links" ADD CONSTRAINT "content_links_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_presence" ADD CONSTRAINT "content_presence_article_id_blog_posts_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_presence" ADD CONSTRAINT "content_presence_session_id_hash_staff_sessions_id_hash_fk" FOREIGN KEY ("session_id_hash") REFERENCES "public"."staff_sessions"("id_hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_presence" ADD CONSTRAINT "content_presence_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_redirects" ADD CONSTRAINT "content_redirects_article_id_blog_posts_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_redirects" ADD CONSTRAINT "content_redirects_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_article_id_blog_posts_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_team_member_id_team_members_id_fk" FOREIGN KEY ("team_member_id") REFERENCES "public"."team_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_author_id_staff_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD CONSTRAINT "blog_posts_author_id_team_members_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."team_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blog_posts_public_idx" ON "blog_posts" USING btree ("status","published_at");--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_slug_unique" UNIQUE("slug");--> statement-breakpoint
ALTER TABLE "blog_posts" ADD CONSTRAINT "blog_posts_published_copy" CHECK ("blog_posts"."published_revision_id" is null or ("blog_posts"."title" is not null and "blog_posts"."excerpt" is not null and "blog_posts"."content" is not null and "blog_posts"."category" is not null and "blog_posts"."image_url" is not null and "blog_posts"."published_at" is not null and "blog_posts"."slug" is not null));--> statement-breakpoint
ALTER TABLE "blog_posts" ADD CONSTRAINT "blog_posts_status" CHECK ("blog_posts"."status" in ('draft', 'published', 'unpublished'));--> statement-breakpoint
-- Rows already here were loaded from content/ and are public: the seed gives each its first revision.
UPDATE "blog_posts" SET "status" = 'published';--> statement-breakpoint
UPDATE "projects" SET "status" = 'published';--> statement-breakpoint
UPDATE "team_members" SET "status" = 'published';
