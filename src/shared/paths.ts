import { type FixedPaths, routePath, routes } from "./routes.ts";

// The addresses links point at, taken from the route table (routes.ts), and the API's paths.

/** Each page without parameters by its route id: paths.about is "/about". */
export const paths = Object.fromEntries(
  Object.entries(routes)
    .filter(([, route]) => !route.pattern.includes(":"))
    .map(([id, route]) => [id, route.pattern]),
) as FixedPaths;

export const articlePath = (slug: string) => routePath("article", { slug });
export const projectPath = (slug: string) => routePath("project", { slug });

export const apiPaths = {
  teamMembers: "/api/team-members",
  projects: "/api/projects",
  blogPosts: "/api/blog-posts",
  /** The public testimonials and client logos (docs/decisions/061-testimonials-and-client-logos.md). */
  testimonials: "/api/testimonials",
  contact: "/api/contact",
  newsletter: "/api/newsletter",
  formToken: "/api/form-token",
  /** The retention periods this site is configured with, which the privacy notice states. */
  retention: "/api/retention",
} as const;

/**
 * The no-JavaScript form posts, each to the address of the page the form is on: the server
 * answers an invalid post with that page again, at its own address, showing the errors.
 */
export const formPaths = { contact: "/contact", newsletter: "/blog" } as const;

export const articleApiPath = (slug: string) => `${apiPaths.blogPosts}/${slug}`;
export const projectApiPath = (slug: string) => `${apiPaths.projects}/${slug}`;

export const primaryNav = [
  { href: paths.home, label: "Home" },
  { href: paths.about, label: "About" },
  { href: paths.services, label: "Services" },
  { href: paths.industries, label: "Industries" },
  { href: paths.projects, label: "Projects" },
  { href: paths.blog, label: "Insights" },
] as const;

/** SPEC section 2: Home only on an exact match, the others by path prefix. */
export function isActivePath(href: string, currentPath: string): boolean {
  if (href === paths.home) return currentPath === paths.home;
  return currentPath === href || currentPath.startsWith(`${href}/`);
}

/**
 * The header link a path falls under (other than Home), or undefined: what decides which link the
 * header marks, and so the one thing a 404 page's HTML takes from the address it answers.
 */
export function navSection(pathname: string): string | undefined {
  return [...primaryNav.map((item) => item.href), paths.contact].find(
    (href) => href !== paths.home && isActivePath(href, pathname),
  );
}
