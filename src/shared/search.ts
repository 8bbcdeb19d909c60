// Site search (docs/decisions/054-site-search.md): what a query may be, how it is folded into
// words, and what the search page and the blog's search receive. The database folds the text it
// indexes with the same rules (search_fold, drizzle/0013_site_search.sql).

/** The longest query searched, in characters: a longer one is refused with a 400 saying so. */
export const MAX_QUERY_CHARS = 200;
/** Words of a query searched: the rest are left out (and the page says so). */
export const MAX_QUERY_WORDS = 12;
/** Results shown on the search page: the best by rank. */
export const MAX_RESULTS = 20;
/** Article slugs the blog's search is given from the bodies. */
export const MAX_ARTICLE_MATCHES = 200;

// Synonym groups (the back office's Search synonyms page).
export const MAX_SYNONYM_GROUPS = 200;
export const MAX_TERMS_PER_GROUP = 8;
export const MAX_TERM_CHARS = 60;
/** Synonym groups a query may be widened by. */
export const MAX_SYNONYM_MATCHES = 6;

/** Where the search page's highlighted words begin and end in an excerpt: never in indexed text. */
export const MARK_START = "\u0001";
export const MARK_END = "\u0002";

export type SearchKind = "article" | "project" | "team" | "service" | "industry";

export const searchKindLabels: Record<SearchKind, string> = {
  article: "Insight",
  project: "Project",
  team: "Team",
  service: "Service",
  industry: "Industry",
};

export type SearchResult = {
  kind: SearchKind;
  title: string;
  href: string;
  /** Plain text with the matched words between MARK_START and MARK_END (splitExcerpt). */
  excerpt: string;
};

/** What the search page shows for its query. */
export type SearchAnswer =
  | { state: "empty" }
  | { state: "too-long"; query: string }
  /** Nothing searchable in it: punctuation, operators, only common words. */
  | { state: "no-words"; query: string }
  | {
      state: "done";
      query: string;
      results: SearchResult[];
      /** Every match, of which `results` are the best. */
      total: number;
      /** Words left out beyond MAX_QUERY_WORDS. */
      wordsLeftOut: number;
      /** The synonyms the query was widened with, as typed in the back office. */
      widenedWith: string[];
    };

// Control and format characters (bidirectional overrides, zero-width): never searched or kept.
// eslint-disable-next-line no-control-regex
const unwanted = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A query as typed, cleaned: well-formed, no control characters, spaces collapsed, trimmed. */
export function cleanQuery(raw: string): string {
  return raw.replace(loneSurrogate, "").replace(unwanted, " ").replace(/\s+/g, " ").trim();
}

/** Whether a cleaned query is longer than MAX_QUERY_CHARS (code points). */
export function queryTooLong(query: string): boolean {
  return query.length > MAX_QUERY_CHARS && Array.from(query).length > MAX_QUERY_CHARS;
}

/**
 * Text folded as the index folds it: dashes to spaces, a space between letters and digits, so
 * "IEEE-519", "IEEE519" and "IEEE 519" are the same words ("33kV" and "33 kV" too).
 */
export function foldText(text: string): string {
  return text
    .replace(/[-\u2010\u2011\u2012\u2013\u2014]/g, " ")
    .replace(/([A-Za-z])([0-9])/g, "$1 $2")
    .replace(/([0-9])([A-Za-z])/g, "$1 $2");
}

/** The words of a text, folded and lower-cased: letters and digits only, every operator dropped. */
export function queryWords(text: string): string[] {
  return (
    foldText(text)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** A query as the no-result count keeps it: its words, lower-cased, at most MAX_QUERY_CHARS. */
export function missText(query: string): string {
  return Array.from(queryWords(query).join(" ")).slice(0, MAX_QUERY_CHARS).join("");
}

/** An excerpt as parts: plain text, and the matched words to mark. Adjacent marked words join. */
export function splitExcerpt(excerpt: string): { text: string; marked: boolean }[] {
  const parts: { text: string; marked: boolean }[] = [];
  for (const [index, piece] of excerpt.split(MARK_START).entries()) {
    const end = piece.indexOf(MARK_END);
    const marked = index > 0 && end !== -1 ? piece.slice(0, end) : "";
    const rest = index > 0 && end !== -1 ? piece.slice(end + 1) : piece;
    if (marked) {
      const last = parts.at(-1);
      const between = parts.at(-2);
      // "<mark>arc</mark> <mark>flash</mark>" reads as one phrase marked.
      if (last && !last.marked && /^\s*$/.test(last.text) && between?.marked) {
        between.text += last.text + marked;
        parts.pop();
      } else if (last?.marked) last.text += marked;
      else parts.push({ text: marked, marked: true });
    }
    const clean = rest.replaceAll(MARK_END, "");
    if (clean) parts.push({ text: clean, marked: false });
  }
  return parts;
}

/** The search page's address for a query. */
export function searchHref(query: string): string {
  return query ? `/search?${new URLSearchParams({ q: query }).toString()}` : "/search";
}

/** The read API's path of a search (the page's data) and of the blog's body matches. */
export const searchApiPath = (query: string) => `/api/search?${new URLSearchParams({ q: query }).toString()}`;
export const articleMatchesApiPath = (query: string) =>
  `/api/search/articles?${new URLSearchParams({ q: query }).toString()}`;
