ALTER TABLE "projects" DROP CONSTRAINT "projects_published_copy";--> statement-breakpoint
ALTER TABLE "content_presence" DROP CONSTRAINT "content_presence_article_id_session_id_hash_pk";--> statement-breakpoint
ALTER TABLE "content_links" ALTER COLUMN "article_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "content_presence" ALTER COLUMN "article_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "content_links" ADD COLUMN "project_id" uuid;--> statement-breakpoint
ALTER TABLE "content_presence" ADD COLUMN "project_id" uuid;--> statement-breakpoint
ALTER TABLE "content_links" ADD CONSTRAINT "content_links_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_presence" ADD CONSTRAINT "content_presence_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "projects_public_idx" ON "projects" USING btree ("status","published_at");--> statement-breakpoint
ALTER TABLE "content_presence" ADD CONSTRAINT "content_presence_article_session" UNIQUE("article_id","session_id_hash");--> statement-breakpoint
ALTER TABLE "content_presence" ADD CONSTRAINT "content_presence_project_session" UNIQUE("project_id","session_id_hash");--> statement-breakpoint
ALTER TABLE "content_links" ADD CONSTRAINT "content_links_one_item" CHECK (num_nonnulls("content_links"."article_id", "content_links"."project_id") = 1);--> statement-breakpoint
ALTER TABLE "content_presence" ADD CONSTRAINT "content_presence_one_item" CHECK (num_nonnulls("content_presence"."article_id", "content_presence"."project_id") = 1);--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_published_copy" CHECK ("projects"."published_revision_id" is null or ("projects"."title" is not null and "projects"."description" is not null and "projects"."category" is not null and "projects"."image_url" is not null and "projects"."year" is not null and "projects"."slug" is not null));