import { slugFromTitle } from "#shared/content/documents.ts";

// The slug follows the title (slugFromTitle) until someone writes it by hand, and never for an
// article that has been public: its address is known, and changing it leaves a redirect.

/** Whether the slug still follows the title: it is empty, or what the title makes. */
export function slugFollows(title: string, slug: string, everPublic: boolean): boolean {
  return !everPublic && (slug === "" || slug === slugFromTitle(title));
}

/** The slug after the title changed: the title's, while it follows; else as it was. */
export function slugAfterTitle(title: string, slug: string, following: boolean): string {
  return following ? slugFromTitle(title) : slug;
}
