import type { ResponsiveImage } from "./media.ts";

// The JSON shapes of SPEC section 7, as the browser receives them (dates as ISO strings). Beside
// the spec's imageUrl, each picture comes as the public pages draw it: `image`, every width of a
// media library picture (src/server/content/responsive-images.ts), or null when the library does
// not know imageUrl (the page then shows imageUrl as it is).

export type TeamMember = {
  id: string;
  name: string;
  title: string;
  expertise: string;
  imageUrl: string;
  image: ResponsiveImage | null;
  linkedinUrl: string | null;
  email: string | null;
  order: number;
};

export type Project = {
  id: string;
  title: string;
  description: string;
  category: string;
  imageUrl: string;
  image: ResponsiveImage | null;
  year: string;
  capacity: string | null;
  timeline: string | null;
  slug: string;
};

export type BlogPostSummary = {
  id: string;
  title: string;
  excerpt: string;
  category: string;
  imageUrl: string;
  image: ResponsiveImage | null;
  publishedAt: string;
  slug: string;
};

export type ContactSubmission = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  service: string | null;
  message: string;
  createdAt: string;
};

/**
 * GET /api/form-token, and what a rendered contact form carries: the signed token and, for the
 * form posted without JavaScript, an idempotency key (the script makes its own).
 */
export type FormFields = { token: string; idempotencyKey: string };

/** Body of every 4xx/5xx JSON answer. `fields` names each invalid field and why. */
export type ApiErrorBody = {
  error: string;
  message: string;
  fields?: Record<string, string>;
};

export type ArticleHeading = { id: string; text: string; level: 2 | 3 };

/** GET /api/blog-posts/:slug: one article, its body rendered and sanitised on the server. */
export type ArticleDetail = BlogPostSummary & {
  /** The cover's alt text; "" when the cover is decorative. */
  imageAlt: string;
  contentHtml: string;
  headings: ArticleHeading[];
  readingMinutes: number;
  authorName: string | null;
  /** The author's photo (a media-library reference) when they are on the public team page; else null. */
  authorImageUrl: string | null;
  /** Same category first, then the newest others. */
  related: BlogPostSummary[];
};

/** GET /api/projects/:slug: one project with related projects and articles. */
export type ProjectDetail = {
  project: Project;
  relatedProjects: Project[];
  relatedArticles: BlogPostSummary[];
};

/**
 * A testimonial as a visitor may see it (GET /api/testimonials): published, not in the trash, its
 * permission covering this website. A named one carries the person; an anonymised one only its
 * description: its person, organisation and logo never leave the server
 * (docs/decisions/061-testimonials-and-client-logos.md).
 */
export type PublicTestimonial = {
  id: string;
  quote: string;
  /** Who said it; null when anonymised. */
  person: {
    name: string;
    role: string | null;
    organisation: string;
    /** The organisation's logo as the pages draw it; null when there is none or the library does not know it. */
    logo: ResponsiveImage | null;
  } | null;
  /** What an anonymised one shows instead ("Head of Projects, a renewable developer in Kutch"); null when named. */
  description: string | null;
  /** The public project it is about, by slug; null when none (or that project is not public). */
  projectSlug: string | null;
  /** The service groups (/services) and industries (/industries) it speaks of, by slug. */
  services: string[];
  industries: string[];
};

/** A client's logo as a visitor may see it, with the same gates as a testimonial. */
export type PublicClientLogo = {
  id: string;
  organisation: string;
  logoUrl: string;
  logo: ResponsiveImage | null;
};

/** GET /api/testimonials: the public testimonials and client logos, each in their order. */
export type PublicTestimonials = { testimonials: PublicTestimonial[]; clientLogos: PublicClientLogo[] };
