import { AlertTriangle, Search } from "lucide-react";
import { paths } from "#shared/paths.ts";
import {
  MAX_QUERY_CHARS,
  MAX_QUERY_WORDS,
  type SearchAnswer,
  searchApiPath,
  searchKindLabels,
  type SearchResult,
  splitExcerpt,
} from "#shared/search.ts";
import { PageHero } from "../../components/page-hero.tsx";
import { usePageContext, useRouteBreadcrumbs, useSearch } from "../../lib/page-context.ts";

// The site search (docs/decisions/054-site-search.md): a plain GET form, rendered by the server
// with its results, so it works the same without JavaScript. Nothing here is an island.

/** The answer the server loaded for the page's query, if it has one. */
function answerOf(data: (apiPath: string) => unknown, query: string | null): SearchAnswer | undefined {
  if (!query) return { state: "empty" };
  return (data(searchApiPath(query)) ?? undefined) as SearchAnswer | undefined;
}

/** 400 for a query the page refuses (too long), which the page explains; else 200. */
export function searchPageStatus(data: (apiPath: string) => unknown, search: string): number {
  return answerOf(data, new URLSearchParams(search).get("q"))?.state === "too-long" ? 400 : 200;
}

export function SearchPage() {
  const query = new URLSearchParams(useSearch()).get("q");
  const data = usePageContext().data;
  const answer = answerOf((key) => data[key], query);
  return (
    <>
      <PageHero eyebrow="Search" title="Search the Site" breadcrumbs={useRouteBreadcrumbs()}>
        <p>Find a standard, a study or a term across our insights, projects, services, industries and team.</p>
      </PageHero>
      <section aria-labelledby="results-heading" className="py-12">
        <div className="container-page max-w-4xl">
          <SearchForm query={answer && "query" in answer ? answer.query : (query ?? "")} />
          <Results answer={answer} />
        </div>
      </section>
    </>
  );
}

function SearchForm({ query }: { query: string }) {
  return (
    <form method="get" action={paths.search} role="search" className="flex gap-2">
      <div className="relative grow">
        <label htmlFor="search-query" className="sr-only">
          Search the site
        </label>
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-500"
        />
        <input
          id="search-query"
          type="search"
          name="q"
          defaultValue={query}
          placeholder="IEEE 519, LVRT, arc flash..."
          className="min-h-11 w-full rounded-md border border-slate-300 bg-white py-2 pr-3 pl-10 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-600"
        />
      </div>
      <button type="submit" className="btn-primary shrink-0">
        Search
      </button>
    </form>
  );
}

function Suggestions() {
  return (
    <p className="mt-3 text-slate-600">
      Browse our{" "}
      <a href={paths.blog} className="font-medium text-brand-700 underline">
        Insights
      </a>{" "}
      or our{" "}
      <a href={paths.services} className="font-medium text-brand-700 underline">
        Services
      </a>
      , or{" "}
      <a href={paths.contact} className="font-medium text-brand-700 underline">
        ask our engineers
      </a>
      .
    </p>
  );
}

function Results({ answer }: { answer: SearchAnswer | undefined }) {
  if (!answer) {
    return (
      <div role="alert" className="mt-8 rounded-xl border border-red-200 bg-red-50 p-6">
        <div className="flex items-center gap-3">
          <AlertTriangle aria-hidden="true" className="size-6 text-red-700" />
          <h2 id="results-heading" className="text-xl font-bold text-red-900">
            Search is unavailable
          </h2>
        </div>
        <p className="mt-2 text-red-900">We could not search just now. Please try again in a minute.</p>
      </div>
    );
  }
  if (answer.state === "empty") {
    return (
      <div className="mt-8">
        <h2 id="results-heading" className="text-xl font-bold text-navy-900">
          What are you looking for?
        </h2>
        <p className="mt-2 text-slate-600">
          Type a standard, a study or a term: &ldquo;IEEE 519&rdquo;, &ldquo;LVRT&rdquo;, &ldquo;arc flash&rdquo;.
        </p>
        <Suggestions />
      </div>
    );
  }
  if (answer.state === "too-long" || answer.state === "no-words") {
    return (
      <div role="alert" className="mt-8 rounded-xl border border-amber-300 bg-amber-50 p-6">
        <h2 id="results-heading" className="text-xl font-bold text-navy-900">
          {answer.state === "too-long" ? `Search for at most ${MAX_QUERY_CHARS} characters` : "Type a word to search"}
        </h2>
        <p className="mt-2 text-slate-700">
          {answer.state === "too-long"
            ? "That search is too long for us to run. Shorten it to the words that matter: a standard, a study, a term."
            : "Your search has no words we can look for (only punctuation, symbols or very common words). Try a standard, a study or a term."}
        </p>
      </div>
    );
  }
  const { results, total, query } = answer;
  if (results.length === 0) {
    return (
      <div className="mt-8">
        <h2 id="results-heading" className="text-xl font-bold text-navy-900">
          {`No results for “${query}”`}
        </h2>
        <p className="mt-2 text-slate-600">
          Nothing on the site matches those words. Try fewer or other words, or the full name of a term.
        </p>
        {answer.widenedWith.length > 0 ? (
          <p className="mt-1 text-sm text-slate-600">{`Also searched for: ${answer.widenedWith.join(", ")}.`}</p>
        ) : null}
        {answer.wordsLeftOut > 0 ? (
          <p className="mt-1 text-sm text-slate-600">{`Only the first ${MAX_QUERY_WORDS} words were searched.`}</p>
        ) : null}
        <Suggestions />
      </div>
    );
  }
  return (
    <div className="mt-8">
      <h2 id="results-heading" className="text-xl font-bold text-navy-900">
        {`${total === 1 ? "1 result" : `${total} results`} for “${query}”`}
      </h2>
      {total > results.length ? (
        <p className="mt-1 text-sm text-slate-600">
          {`The best ${results.length} are shown: add a word to narrow the search.`}
        </p>
      ) : null}
      {answer.widenedWith.length > 0 ? (
        <p className="mt-1 text-sm text-slate-600">{`Also searched for: ${answer.widenedWith.join(", ")}.`}</p>
      ) : null}
      {answer.wordsLeftOut > 0 ? (
        <p className="mt-1 text-sm text-slate-600">{`Only the first ${MAX_QUERY_WORDS} words were searched.`}</p>
      ) : null}
      <ol className="mt-6 flex flex-col gap-4" data-testid="search-results">
        {results.map((result) => (
          <ResultItem key={`${result.kind}:${result.href}:${result.title}`} result={result} />
        ))}
      </ol>
    </div>
  );
}

function ResultItem({ result }: { result: SearchResult }) {
  return (
    <li className="card p-5">
      <p className="text-xs font-semibold tracking-wider text-brand-700 uppercase">{searchKindLabels[result.kind]}</p>
      <h3 className="mt-1 text-lg font-bold text-navy-900">
        <a href={result.href} className="hover:text-brand-700 hover:underline">
          {result.title}
        </a>
      </h3>
      {/* Text parts only: React escapes them, so nothing of the content is ever read as HTML. */}
      <p className="mt-2 text-sm leading-6 text-slate-700">
        {splitExcerpt(result.excerpt).map((part, index) =>
          part.marked ? (
            <mark key={index} className="rounded-sm bg-amber-100 px-0.5 text-navy-900">
              {part.text}
            </mark>
          ) : (
            part.text
          ),
        )}
      </p>
    </li>
  );
}
