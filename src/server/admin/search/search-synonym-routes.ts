import { desc, eq, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { PageMessages } from "#shared/admin/pages.ts";
import { parseForm, formProblem } from "#shared/admin/forms.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { synonymGroupForm, synonymTerms } from "#shared/admin/schemas.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import { MAX_SYNONYM_GROUPS } from "#shared/search.ts";
import { ensureSeedSynonyms } from "../../content/search.ts";
import { searchSynonyms } from "../../db/schema.ts";
import type { AdminContext, AdminHandlers } from "../context.ts";

// The site search's synonyms (admins; docs/decisions/054-site-search.md): groups of words and
// phrases that mean the same ("LVRT", "low-voltage ride-through"). A search that names one term
// of a group also finds the others, from the next search on: nothing is cached.

export function searchSynonymRoutes(
  context: AdminContext,
): AdminHandlers<"searchSynonyms" | "searchSynonymAdd" | "searchSynonymRemove"> {
  const { db } = context;

  async function page(request: FastifyRequest, reply: FastifyReply, extra: PageMessages = {}, status = 200) {
    await ensureSeedSynonyms(db);
    const groups = await db
      .select()
      .from(searchSynonyms)
      .orderBy(desc(searchSynonyms.createdAt), desc(searchSynonyms.id))
      .limit(MAX_SYNONYM_GROUPS);
    return context.render(
      reply,
      {
        page: "searchSynonyms",
        viewer: context.viewerOf(context.sessionOf(request)),
        groups: groups.map((group) => ({
          id: group.id,
          terms: group.terms,
          createdByLabel: group.createdByLabel,
          createdAt: group.createdAt.toISOString(),
        })),
        maxGroups: MAX_SYNONYM_GROUPS,
        ...extra,
      },
      status,
    );
  }

  return {
    searchSynonyms: (request, reply) => page(request, reply),

    async searchSynonymAdd(request, reply) {
      const parsed = parseForm(synonymGroupForm, request.body);
      if (!parsed.ok) return page(request, reply, { form: parsed.form }, 400);
      const terms = synonymTerms(parsed.data.terms);
      const actor = context.actorOf(context.sessionOf(request));
      // The count and the insert in one statement: two admins at once cannot pass the bound.
      const added = await db.execute(sql`
        insert into search_synonyms (terms, created_by_label)
        select ${sql`array[${sql.join(
          terms.map((term) => sql`${term}`),
          sql`, `,
        )}]::text[]`}, ${actor.label}
        where (select count(*) from search_synonyms) < ${MAX_SYNONYM_GROUPS}
        returning id`);
      const id = (added as unknown as { rows: { id: string }[] }).rows[0]?.id;
      if (!id) {
        const form = formProblem(
          request.body,
          "terms",
          `There are ${MAX_SYNONYM_GROUPS} groups already, the most there may be: remove one first.`,
        );
        return page(request, reply, { form }, 409);
      }
      await context.audit(request, {
        actor,
        action: "search-synonyms-added",
        target: { type: "search-synonyms", id, label: terms.join(", ") },
        details: { terms },
      });
      return context.seeOther(reply, adminHref("searchSynonyms", {}, { notice: "synonyms-added" }));
    },

    async searchSynonymRemove(request, reply) {
      const id = request.params.id;
      const [removed] = isUuid(id) ? await db.delete(searchSynonyms).where(eq(searchSynonyms.id, id)).returning() : [];
      if (!removed) return page(request, reply, { error: "There is no such synonym group." }, 404);
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "search-synonyms-removed",
        target: { type: "search-synonyms", id: removed.id, label: removed.terms.join(", ") },
        details: { terms: removed.terms },
      });
      return context.seeOther(reply, adminHref("searchSynonyms", {}, { notice: "synonyms-removed" }));
    },
  };
}
