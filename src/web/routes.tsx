import type { ArticleDetail, ProjectDetail } from "#shared/api-types.ts";
import { trail } from "#shared/breadcrumbs.ts";
import type { ResponsiveImage } from "#shared/media.ts";
import type { PageMeta, PreviewImage } from "#shared/page-rendering.ts";
import { apiPaths, articleApiPath, articlePath, paths, projectApiPath, projectPath } from "#shared/paths.ts";
import { matchRoute, type RouteId, type RouteParams } from "#shared/routes.ts";
import { limits, site } from "#shared/site.ts";
import { articleCard, projectCard } from "#shared/link-card.ts";

import type { ComponentType } from "react";
import { AboutPage } from "./pages/about/about-page.tsx";
import { ArticlePage } from "./pages/article/article-page.tsx";
import { BlogPage } from "./pages/blog/blog-page.tsx";
import { ContactPage } from "./pages/contact/contact-page.tsx";
import { HomePage } from "./pages/home/home-page.tsx";
import { IndustriesPage } from "./pages/industries/industries-page.tsx";
import {
  CookiesPage,
  PrivacyPage,
  PrivacyPageGujarati,
  PrivacyPageHindi,
  TermsPage,
} from "./pages/legal/legal-pages.tsx";
import { ProjectPage } from "./pages/project/project-page.tsx";
import { ProjectsPage } from "./pages/projects/projects-page.tsx";
import { ServicesPage } from "./pages/services/services-page.tsx";
import { SearchPage, searchPageStatus } from "./pages/search/search-page.tsx";
import { articleMatchesApiPath, searchApiPath } from "#shared/search.ts";
import { ThankYouPage } from "./pages/thank-you/thank-you-page.tsx";
import { NewsletterPage, newsletterPageMeta } from "./pages/newsletter/newsletter-page.tsx";
import { newsletterPageKey, type NewsletterPageState } from "#shared/page-rendering.ts";

// Pages are rendered by the server only: the browser hydrates a page's islands, never the page
// (src/web/islands/registry.ts), so no page's code is in the browser's bundle.

export type PageRoute = {
  component: ComponentType<{ params: RouteParams }>;
  /** API paths whose data the page shows; the server reads them before rendering (pageDataFor). */
  queries: (params: RouteParams, search: string) => string[];
  /** Title, description and the rest of the head; null when the data says there is no such page. */
  meta: (params: RouteParams, data: (apiPath: string) => unknown) => PageMeta | null;
  /** The answer's status when not 200 (the search page's refusal of an overlong query). */
  status?: (data: (apiPath: string) => unknown, search: string) => number;
};

/** The widest picture link previews are given (Open Graph asks for about 1200 × 630). */
const PREVIEW_WIDTH = 1280;

/**
 * A library picture as a link preview shows it: the JPEG of its ladder at PREVIEW_WIDTH, or the
 * widest below; nothing for a picture the library does not know (the site's own picture then).
 */
export function previewImage(image: ResponsiveImage | null | undefined, alt: string): PreviewImage | undefined {
  if (!image) return undefined;
  const ladder = image.srcset.jpeg.split(", ").map((entry) => {
    const [path = "", width = ""] = entry.split(" ");
    return { path, width: Number.parseInt(width, 10) };
  });
  const chosen = ladder.filter((entry) => entry.width <= PREVIEW_WIDTH).at(-1) ?? ladder[0];
  if (!chosen?.path || !chosen.width) return undefined;
  return {
    path: chosen.path,
    width: chosen.width,
    height: Math.round((image.height * chosen.width) / image.width),
    alt,
  };
}

const staticPage = (component: ComponentType<object>, queries: string[], meta: PageMeta): PageRoute => ({
  component: component as PageRoute["component"],
  queries: () => queries,
  meta: () => meta,
});

/** What each route of the table (#shared/routes.ts) shows: its code, its data and its head. */
export const pageRoutes: { readonly [Id in RouteId]: PageRoute } = {
  home: staticPage(HomePage, [apiPaths.teamMembers, apiPaths.projects, apiPaths.blogPosts, apiPaths.testimonials], {
    title: `${site.name} | ${site.tagline} in Ahmedabad`,
    description: site.description,
  }),
  about: staticPage(AboutPage, [apiPaths.teamMembers], {
    title: `About Us | ${site.name}`,
    description:
      "Power-system engineers in Ahmedabad since 2009: our story, mission, values, certifications and the team who will work on your project.",
    breadcrumbs: trail({ name: "About", path: paths.about }),
  }),
  services: staticPage(ServicesPage, [apiPaths.testimonials], {
    title: `Power System Studies | ${site.name}`,
    description:
      "29 power-system studies, from load flow, short circuit and protection coordination to arc flash, harmonics, transient stability and grid-code compliance.",
    breadcrumbs: trail({ name: "Services", path: paths.services }),
  }),
  industries: staticPage(IndustriesPage, [apiPaths.testimonials], {
    title: `Industries We Serve | ${site.name}`,
    description:
      "Power-system engineering for utilities, renewable developers, industrial plants and commercial buildings across India.",
    breadcrumbs: trail({ name: "Industries", path: paths.industries }),
  }),
  projects: staticPage(ProjectsPage, [apiPaths.projects], {
    title: `Projects | ${site.name}`,
    description:
      "Grid-integration, renewable, utility, industrial and commercial power-system projects delivered by our engineers, with capacity and timeline.",
    breadcrumbs: trail({ name: "Projects", path: paths.projects }),
  }),
  project: {
    component: ProjectPage,
    queries: ({ slug = "" }) => [projectApiPath(slug), apiPaths.testimonials],
    meta: ({ slug = "" }, data) => {
      const detail = data(projectApiPath(slug)) as ProjectDetail | null | undefined;
      if (detail === null) return null;
      const title = detail?.project.title ?? "Project";
      return {
        title: `${title} | ${site.name}`,
        description: detail?.project.description.slice(0, 200) ?? "A project by our engineers.",
        image: previewImage(detail?.project.image, detail?.project.image?.alt ?? ""),
        card: detail ? projectCard(detail.project) : undefined,
        breadcrumbs: trail({ name: "Projects", path: paths.projects }, { name: title, path: projectPath(slug) }),
      };
    },
  },
  blog: {
    ...staticPage(BlogPage, [], {
      title: `Industry Insights | ${site.name}`,
      description:
        "Technical articles on grid integration, renewable energy, power quality, protection and regulatory compliance from our engineers.",
      breadcrumbs: trail({ name: "Insights", path: paths.blog }),
    }),
    // A query searches the articles' bodies too, through the site search (decision 054).
    queries: (_params, search) => {
      const query = new URLSearchParams(search).get("q")?.trim();
      return query ? [apiPaths.blogPosts, articleMatchesApiPath(query)] : [apiPaths.blogPosts];
    },
  },
  article: {
    component: ArticlePage,
    queries: ({ slug = "" }) => [articleApiPath(slug)],
    meta: ({ slug = "" }, data) => {
      const article = data(articleApiPath(slug)) as ArticleDetail | null | undefined;
      if (article === null) return null;
      const title = article?.title ?? "Article";
      return {
        title: `${title} | ${site.name}`,
        description: article?.excerpt ?? "An article by our engineers.",
        image: previewImage(article?.image, article?.imageAlt || article?.image?.alt || ""),
        card: article ? articleCard(article) : undefined,
        breadcrumbs: trail({ name: "Insights", path: paths.blog }, { name: title, path: articlePath(slug) }),
        article: article
          ? { publishedAt: article.publishedAt, authorName: article.authorName, category: article.category }
          : undefined,
      };
    },
  },
  search: {
    component: SearchPage,
    queries: (_params, search) => {
      const query = new URLSearchParams(search).get("q");
      return query ? [searchApiPath(query)] : [];
    },
    meta: () => ({
      title: `Search | ${site.name}`,
      description: "Search our insights, projects, services, industries and team.",
      noindex: true,
      breadcrumbs: trail({ name: "Search", path: paths.search }),
    }),
    status: searchPageStatus,
  },
  contact: staticPage(ContactPage, [apiPaths.formToken, apiPaths.retention], {
    title: `Contact Us | ${site.name}`,
    description:
      "Send us your project details: we reply within 24 hours. Office in Ahmedabad, Gujarat; 24/7 emergency support for critical infrastructure.",
    breadcrumbs: trail({ name: "Contact", path: paths.contact }),
  }),
  thankYou: staticPage(ThankYouPage, [], {
    title: `Thank You | ${site.name}`,
    description: "Your enquiry has been sent. We will reply within 24 hours.",
    noindex: true,
    // SPEC section 2: redirects to / after 10 seconds, also when the no-JavaScript form lands here.
    redirectWithoutJavaScript: { afterSeconds: limits.thankYouRedirectSeconds, to: paths.home },
  }),
  privacy: staticPage(PrivacyPage, [apiPaths.retention], {
    title: `Privacy Policy | ${site.name}`,
    description: "What personal data this website stores, why, for how long, and your rights under India's DPDP Act.",
    breadcrumbs: trail({ name: "Privacy Policy", path: paths.privacy }),
  }),
  privacyHindi: staticPage(PrivacyPageHindi, [apiPaths.retention], {
    title: `गोपनीयता सूचना (Privacy Policy in Hindi) | ${site.name}`,
    description:
      "वेबसाइट कौन-सा व्यक्तिगत डेटा रखती है, क्यों, कितने समय तक, और DPDP अधिनियम के तहत आपके अधिकार (अनुवाद, समीक्षा की प्रतीक्षा में)।",
    breadcrumbs: trail({ name: "Privacy Policy", path: paths.privacy }, { name: "हिन्दी", path: paths.privacyHindi }),
    // In English: the card's font (Inter) has no Devanagari.
    card: { kind: "page", title: "Privacy Policy in Hindi", label: "Privacy Policy" },
  }),
  privacyGujarati: staticPage(PrivacyPageGujarati, [apiPaths.retention], {
    title: `ગોપનીયતા સૂચના (Privacy Policy in Gujarati) | ${site.name}`,
    description:
      "વેબસાઇટ કયો વ્યક્તિગત ડેટા રાખે છે, શા માટે, કેટલો સમય, અને DPDP અધિનિયમ હેઠળ તમારા અધિકારો (અનુવાદ, સમીક્ષાની રાહમાં).",
    breadcrumbs: trail(
      { name: "Privacy Policy", path: paths.privacy },
      { name: "ગુજરાતી", path: paths.privacyGujarati },
    ),
    // In English: the card's font (Inter) has no Gujarati script.
    card: { kind: "page", title: "Privacy Policy in Gujarati", label: "Privacy Policy" },
  }),
  terms: staticPage(TermsPage, [], {
    title: `Terms of Service | ${site.name}`,
    description: "The terms on which this website and its technical articles are offered.",
    breadcrumbs: trail({ name: "Terms of Service", path: paths.terms }),
  }),
  cookies: staticPage(CookiesPage, [], {
    title: `Cookie Policy | ${site.name}`,
    description: "This website sets no cookies for visitors. What it keeps in your browser instead, and why.",
    breadcrumbs: trail({ name: "Cookie Policy", path: paths.cookies }),
  }),
};

export const notFoundMeta: PageMeta = {
  title: `Page Not Found | ${site.name}`,
  description: "The page you asked for does not exist.",
  noindex: true,
};

/** A page the server renders: its route and parameters (SitePage draws it in the layout). */
export type PageMatch = { route: PageRoute; params: RouteParams };

/**
 * The newsletter's link pages, outside the route table (their tokens are not slugs, and they are
 * never cached nor listed): shown only when the server's newsletter routes hand over their state
 * (src/server/newsletter/public-routes.ts), at an address under /newsletter/.
 */
export function newsletterPageMatch(pathname: string, data: (key: string) => unknown): PageMatch | undefined {
  const state = data(newsletterPageKey) as NewsletterPageState | undefined;
  if (!state || !pathname.startsWith("/newsletter/")) return undefined;
  return {
    route: { component: NewsletterPage, queries: () => [], meta: () => newsletterPageMeta(state) },
    params: {},
  };
}

/** The page at a (canonical) path: its route, id and parameters; undefined for a 404. */
export function matchPage(pathname: string): { id: RouteId; route: PageRoute; params: RouteParams } | undefined {
  const match = matchRoute(pathname);
  return match ? { ...match, route: pageRoutes[match.id] } : undefined;
}
