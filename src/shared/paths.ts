// Every URL of the site, once. Links, server routes and tests use these.

export const paths = {
  home: "/",
  about: "/about",
  services: "/services",
  industries: "/industries",
  projects: "/projects",
  blog: "/blog",
  contact: "/contact",
  thankYou: "/thank-you",
  privacy: "/privacy",
  terms: "/terms",
  cookies: "/cookies",
} as const;

export const articlePath = (slug: string) => `${paths.blog}/${slug}`;
export const projectPath = (slug: string) => `${paths.projects}/${slug}`;

export const apiPaths = {
  teamMembers: "/api/team-members",
  projects: "/api/projects",
  blogPosts: "/api/blog-posts",
  contact: "/api/contact",
  newsletter: "/api/newsletter",
  formToken: "/api/form-token",
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
