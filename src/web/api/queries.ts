import type { BlogPostSummary, Project, PublicTestimonials, TeamMember } from "#shared/api-types.ts";
import { apiPaths } from "#shared/paths.ts";
import { usePageData } from "../lib/page-context.ts";

// One hook per read endpoint a page shows. The key is the API path (SPEC section 7), which is also
// how the server knows what to load for a page before it renders it.

export const useTeamMembers = () => usePageData<TeamMember[]>(apiPaths.teamMembers);
export const useProjects = () => usePageData<Project[]>(apiPaths.projects);
export const useBlogPosts = () => usePageData<BlogPostSummary[]>(apiPaths.blogPosts);
export const useTestimonials = () => usePageData<PublicTestimonials>(apiPaths.testimonials);
