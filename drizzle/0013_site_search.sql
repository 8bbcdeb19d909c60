-- Site search (docs/decisions/054-site-search.md). Written by drizzle-kit from the schema, with
-- what it cannot write by hand: the functions the generated column and the triggers use, the
-- triggers that keep the rows of articles, projects and team members, and the rows of the content
-- already there. CREATE OR REPLACE: a restore drops the tables, not these. The first synonyms are
-- written by the site (src/server/content/search.ts), not here: a restore into a fresh database
-- would hold them twice.
-- search_fold: "IEEE-519", "IEEE519" and "IEEE 519" the same words (dashes to spaces, a space
-- between letters and digits); src/shared/search.ts folds a query with the same rules.
CREATE OR REPLACE FUNCTION search_fold(input text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fold$
  SELECT regexp_replace(regexp_replace(regexp_replace(coalesce(input, ''), '[-‐‑‒–—]', ' ', 'g'), '([A-Za-z])([0-9])', '\1 \2', 'g'), '([0-9])([A-Za-z])', '\1 \2', 'g')
$fold$;
--> statement-breakpoint
-- Markdown as plain text: what the words are counted from and the excerpt is cut from.
CREATE OR REPLACE FUNCTION search_markdown_text(markdown text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $text$
  SELECT btrim(regexp_replace(
    regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
      coalesce(markdown, ''),
      '!?\[([^\]\n]*)\]\([^)\n]*\)', '\1', 'g'),
      '^[ \t]*\[[^\]\n]+\]:[^\n]*$', '', 'gn'),
      '<[^>\n]*>', ' ', 'g'),
      '^[ \t]*(#{1,6}|>+|[-+*]|[0-9]+[.)])[ \t]+', '', 'gn'),
      '^[ \t]*(```|~~~)[^\n]*$', '', 'gn'),
      '^[ \t|:-]+$', '', 'gn'),
      '[*_`~|]+', ' ', 'g'),
      '\[([^\]\n]*)\]', '\1', 'g'),
      '[ \t]+', ' ', 'g'),
    '\s*\n\s*', E'\n', 'g'))
$text$;
--> statement-breakpoint
-- An article's headings, one a line.
CREATE OR REPLACE FUNCTION search_markdown_headings(markdown text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $headings$
  SELECT coalesce(string_agg(search_markdown_text(heading[1]), E'\n'), '')
  FROM regexp_matches(coalesce(markdown, ''), '^#{1,6}[ \t]+([^\n]+?)[ \t#]*$', 'gn') AS heading
$headings$;
--> statement-breakpoint
CREATE TABLE "search_documents" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"article_id" uuid,
	"project_id" uuid,
	"team_member_id" uuid,
	"path" text,
	"title" text NOT NULL,
	"headings" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, search_fold(title)), 'A') || setweight(to_tsvector('english'::regconfig, search_fold(headings)), 'B') || setweight(to_tsvector('english'::regconfig, search_fold(body)), 'C')) STORED NOT NULL,
	CONSTRAINT "search_documents_kind_key_pk" PRIMARY KEY("kind","key")
);
--> statement-breakpoint
CREATE TABLE "search_misses" (
	"day" text NOT NULL,
	"query" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "search_misses_day_query_pk" PRIMARY KEY("day","query")
);
--> statement-breakpoint
CREATE TABLE "search_synonyms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"terms" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_label" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "search_documents" ADD CONSTRAINT "search_documents_article_id_blog_posts_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_documents" ADD CONSTRAINT "search_documents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_documents" ADD CONSTRAINT "search_documents_team_member_id_team_members_id_fk" FOREIGN KEY ("team_member_id") REFERENCES "public"."team_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_documents_vector_idx" ON "search_documents" USING gin ("vector");--> statement-breakpoint
CREATE INDEX "search_documents_article_idx" ON "search_documents" USING btree ("article_id");--> statement-breakpoint
CREATE INDEX "search_documents_project_idx" ON "search_documents" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "search_documents_team_member_idx" ON "search_documents" USING btree ("team_member_id");
--> statement-breakpoint
-- The rows of articles, projects and team members follow their published copy (null until first
-- published): every publish, import and purge writes that copy, so none can miss its row. Status,
-- time and trash are not copied: a search applies the public read condition to the item itself.
CREATE OR REPLACE FUNCTION search_documents_of_article() RETURNS trigger LANGUAGE plpgsql AS $article$
BEGIN
  IF NEW.title IS NULL OR NEW.content IS NULL THEN
    DELETE FROM search_documents WHERE kind = 'article' AND key = NEW.id::text;
  ELSE
    INSERT INTO search_documents (kind, key, article_id, title, headings, body)
    VALUES ('article', NEW.id::text, NEW.id, NEW.title, search_markdown_headings(NEW.content),
      coalesce(NEW.excerpt, '') || E'\n' || search_markdown_text(NEW.content))
    ON CONFLICT (kind, key) DO UPDATE SET title = excluded.title, headings = excluded.headings, body = excluded.body;
  END IF;
  RETURN NULL;
END
$article$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_documents_of_project() RETURNS trigger LANGUAGE plpgsql AS $project$
BEGIN
  IF NEW.title IS NULL OR NEW.description IS NULL THEN
    DELETE FROM search_documents WHERE kind = 'project' AND key = NEW.id::text;
  ELSE
    INSERT INTO search_documents (kind, key, project_id, title, headings, body)
    VALUES ('project', NEW.id::text, NEW.id, NEW.title, concat_ws(E'\n', NEW.category, NEW.capacity),
      concat_ws(E'\n', NEW.description, NEW.year, NEW.timeline))
    ON CONFLICT (kind, key) DO UPDATE SET title = excluded.title, headings = excluded.headings, body = excluded.body;
  END IF;
  RETURN NULL;
END
$project$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_documents_of_team_member() RETURNS trigger LANGUAGE plpgsql AS $member$
BEGIN
  IF NEW.name IS NULL OR NEW.title IS NULL THEN
    DELETE FROM search_documents WHERE kind = 'team' AND key = NEW.id::text;
  ELSE
    INSERT INTO search_documents (kind, key, team_member_id, title, headings, body)
    VALUES ('team', NEW.id::text, NEW.id, NEW.name, NEW.title, coalesce(NEW.expertise, ''))
    ON CONFLICT (kind, key) DO UPDATE SET title = excluded.title, headings = excluded.headings, body = excluded.body;
  END IF;
  RETURN NULL;
END
$member$;
--> statement-breakpoint
CREATE TRIGGER "search_documents_article_insert" AFTER INSERT ON "blog_posts" FOR EACH ROW EXECUTE FUNCTION search_documents_of_article();
--> statement-breakpoint
CREATE TRIGGER "search_documents_article_update" AFTER UPDATE ON "blog_posts" FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.excerpt IS DISTINCT FROM NEW.excerpt OR OLD.content IS DISTINCT FROM NEW.content)
  EXECUTE FUNCTION search_documents_of_article();
--> statement-breakpoint
CREATE TRIGGER "search_documents_project_insert" AFTER INSERT ON "projects" FOR EACH ROW EXECUTE FUNCTION search_documents_of_project();
--> statement-breakpoint
CREATE TRIGGER "search_documents_project_update" AFTER UPDATE ON "projects" FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.description IS DISTINCT FROM NEW.description OR OLD.category IS DISTINCT FROM NEW.category
    OR OLD.capacity IS DISTINCT FROM NEW.capacity OR OLD.year IS DISTINCT FROM NEW.year OR OLD.timeline IS DISTINCT FROM NEW.timeline)
  EXECUTE FUNCTION search_documents_of_project();
--> statement-breakpoint
CREATE TRIGGER "search_documents_team_member_insert" AFTER INSERT ON "team_members" FOR EACH ROW EXECUTE FUNCTION search_documents_of_team_member();
--> statement-breakpoint
CREATE TRIGGER "search_documents_team_member_update" AFTER UPDATE ON "team_members" FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.title IS DISTINCT FROM NEW.title OR OLD.expertise IS DISTINCT FROM NEW.expertise)
  EXECUTE FUNCTION search_documents_of_team_member();
--> statement-breakpoint
INSERT INTO search_documents (kind, key, article_id, title, headings, body)
  SELECT 'article', id::text, id, title, search_markdown_headings(content), coalesce(excerpt, '') || E'\n' || search_markdown_text(content)
  FROM blog_posts WHERE title IS NOT NULL AND content IS NOT NULL;
--> statement-breakpoint
INSERT INTO search_documents (kind, key, project_id, title, headings, body)
  SELECT 'project', id::text, id, title, concat_ws(E'\n', category, capacity), concat_ws(E'\n', description, year, timeline)
  FROM projects WHERE title IS NOT NULL AND description IS NOT NULL;
--> statement-breakpoint
INSERT INTO search_documents (kind, key, team_member_id, title, headings, body)
  SELECT 'team', id::text, id, name, title, coalesce(expertise, '')
  FROM team_members WHERE name IS NOT NULL AND title IS NOT NULL;
