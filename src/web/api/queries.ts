import { useQuery } from "@tanstack/react-query";
import type { BlogPostSummary, Project, TeamMember } from "#shared/api-types.ts";
import { apiPaths } from "#shared/paths.ts";

// One hook per read endpoint. The query key is the API path (SPEC section 7), which is also how
// the server knows what to prefetch for a page.

export const useTeamMembers = () => useQuery<TeamMember[]>({ queryKey: [apiPaths.teamMembers] });
export const useProjects = () => useQuery<Project[]>({ queryKey: [apiPaths.projects] });
export const useBlogPosts = () => useQuery<BlogPostSummary[]>({ queryKey: [apiPaths.blogPosts] });
