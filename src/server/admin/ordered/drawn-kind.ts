import type { OrderedKindDefinition } from "#shared/admin/collections/kind.ts";
import type { DrawnKindPlural } from "#shared/admin/collections/index.ts";
import type { DrawnFieldsView } from "#shared/admin/pages.ts";
import { pictureChoiceFor } from "#shared/media.ts";
import type { OrderedRouteKind } from "./ordered-routes.ts";

// What an ordered kind whose pages are drawn from its definition (testimonials, client logos)
// needs beyond its spec: its fields as the form holds them and back, and its two pages, all from
// the definition's fields (src/web/admin/pages/ordered/ draws them).

/** A document's fields as the form holds them: a ticked box "true" or "", choices as a list, the rest as text. */
export function drawnFieldsOf<Doc>(definition: OrderedKindDefinition) {
  return (document: Doc): DrawnFieldsView => {
    const source = document as Record<string, unknown>;
    const fields: DrawnFieldsView = {};
    for (const [name, field] of Object.entries(definition.fields)) {
      const value = source[name];
      if (field.control === "checkbox") fields[name] = value === true ? "true" : "";
      else if (field.control === "choices")
        fields[name] = Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
      else fields[name] = typeof value === "string" ? value : "";
    }
    return fields;
  };
}

/** The document the form's fields make: the reverse of drawnFieldsOf. */
export function drawnDocumentOf<Doc>(definition: OrderedKindDefinition) {
  return (fields: DrawnFieldsView): Doc => {
    const document: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(definition.fields)) {
      const value = fields[name];
      if (field.control === "checkbox") document[name] = value === "true";
      else if (field.control === "choices") document[name] = Array.isArray(value) ? [...value] : [];
      else document[name] = typeof value === "string" ? value : "";
    }
    return document as Doc;
  };
}

/** The list's and an item's pages of a drawn kind. */
export function drawnPages<Doc>(
  definition: OrderedKindDefinition & { readonly plural: DrawnKindPlural },
  words: {
    /** How the list names an item. */
    nameOf(document: Doc): string;
    /** A line under its name; "" for none. */
    detailOf(document: Doc): string;
  },
): OrderedRouteKind<Doc, DrawnFieldsView>["pages"] {
  const fieldsOf = drawnFieldsOf<Doc>(definition);
  const documentOf = drawnDocumentOf<Doc>(definition);
  const picture = Object.entries(definition.fields).find(([, field]) => field.control === "picture")?.[0];
  return {
    list: ({ viewer, live, trash, pictures, canChange, focus }) => ({
      page: "ordered-list",
      kind: definition.plural,
      viewer,
      rows: live.map((item, index) => {
        const document = item.head.document;
        const url = picture ? String(fieldsOf(document)[picture] ?? "") : "";
        return {
          id: item.id,
          name: words.nameOf(document),
          detail: words.detailOf(document),
          thumbnail: url ? (pictureChoiceFor(pictures, url)?.thumbnail ?? url) : null,
          status: item.status === "published" ? "shown" : "hidden",
          position: index + 1,
          headRevisionId: item.head.id,
        };
      }),
      trash: trash.map((item) => ({
        id: item.id,
        name: words.nameOf(item.head.document),
        trashedAt: item.deletedAt!.toISOString(),
        trashedBy: item.deletedByLabel,
        headRevisionId: item.head.id,
      })),
      canChange,
      ...(focus ? { focus } : {}),
    }),
    editor: (
      viewer,
      { id, status, fields, head, position, pictures, options, blockers, trashedAt, conflict },
      messages,
    ) => ({
      page: "ordered-item",
      kind: definition.plural,
      viewer,
      item: {
        id,
        name: words.nameOf(documentOf(fields)),
        status,
        fields,
        head,
        position,
        pictures,
        options,
        blockers,
        trashedAt,
        ...(conflict ? { conflict } : {}),
      },
      ...messages,
    }),
  };
}
