import { Mail } from "lucide-react";
import type { TeamMember } from "#shared/api-types.ts";
import { TEAM_CARD_ABOUT_SIZES, TEAM_CARD_SIZES } from "#shared/image-sizes.ts";
import { ResponsiveImage } from "./responsive-image.tsx";

/** The anchor of a member on the About page, for bylines: /about#team-dr-rajesh-mehta. */
export function teamAnchor(name: string): string {
  return `team-${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}`;
}

export function TeamCard({
  member,
  headingLevel = 3,
  fourToARow = false,
}: {
  member: TeamMember;
  headingLevel?: 2 | 3;
  /** The card is in a grid of four to a row from lg (About), not three (the home page). */
  fourToARow?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article id={teamAnchor(member.name)} className="card flex h-full flex-col overflow-hidden">
      {/* The library's words for the photo; a portrait without any is still named as one. */}
      <ResponsiveImage
        image={member.image}
        sizes={fourToARow ? TEAM_CARD_ABOUT_SIZES : TEAM_CARD_SIZES}
        alt={member.image?.alt || `Portrait of ${member.name}`}
        fallbackSrc={member.imageUrl}
        fallbackWidth={400}
        fallbackHeight={400}
        className="aspect-square w-full bg-slate-100 object-cover"
      />
      <div className="flex flex-1 flex-col p-5">
        <Heading className="text-lg font-bold text-navy-900">{member.name}</Heading>
        <p className="text-sm font-medium text-brand-700">{member.title}</p>
        <p className="mt-2 flex-1 text-sm leading-6 text-slate-600">{member.expertise}</p>
        {member.email || member.linkedinUrl ? (
          <ul className="mt-4 flex flex-wrap gap-3 text-sm">
            {member.email ? (
              <li>
                <a
                  href={`mailto:${member.email}`}
                  className="inline-flex items-center gap-1.5 text-brand-700 hover:underline"
                >
                  <Mail aria-hidden="true" className="size-4" />
                  <span className="sr-only">Email {member.name}:</span> {member.email}
                </a>
              </li>
            ) : null}
            {member.linkedinUrl ? (
              <li>
                <a
                  href={member.linkedinUrl}
                  rel="noopener noreferrer"
                  target="_blank"
                  className="text-brand-700 hover:underline"
                >
                  LinkedIn<span className="sr-only"> profile of {member.name} (opens in a new tab)</span>
                </a>
              </li>
            ) : null}
          </ul>
        ) : null}
      </div>
    </article>
  );
}
