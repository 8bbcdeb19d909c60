import type { PublicClientLogo, PublicTestimonial } from "#shared/api-types.ts";
import { CLIENT_LOGO_SIZES, TESTIMONIAL_LOGO_SIZES } from "#shared/image-sizes.ts";
import { Star } from "lucide-react";
import { ResponsiveImage } from "./responsive-image.tsx";

// What clients say, and their logos, as the public pages draw them from the server's projection
// (src/server/content/testimonials.ts): a named testimonial shows the person, their role and
// organisation (and its logo); an anonymised one its description alone, the only words of who said
// it that reach the page. The home page draws five stars over each, as the specification's home
// page has them; no Review or AggregateRating structured data anywhere
// (docs/decisions/061-testimonials-and-client-logos.md). Server-rendered: no island, no script.

/** One testimonial: its quote and who said it, on the dark band (the home page) or on paper (the other pages). */
export function TestimonialFigure({
  testimonial,
  tone,
  stars = false,
}: {
  testimonial: PublicTestimonial;
  tone: "dark" | "light";
  /** The home page's five stars over the quote. */
  stars?: boolean;
}) {
  const dark = tone === "dark";
  const { person } = testimonial;
  return (
    <figure
      className={`flex h-full flex-col rounded-xl p-6 ${dark ? "bg-white/10" : "border border-slate-200 bg-white"}`}
    >
      {stars ? (
        <p className="mb-4 flex gap-1 text-amber-accent" role="img" aria-label="Rated 5 out of 5 stars">
          {Array.from({ length: 5 }, (_, index) => (
            <Star key={index} aria-hidden="true" className="size-5 fill-current" />
          ))}
        </p>
      ) : null}
      <blockquote className={`flex-1 leading-7 ${dark ? "text-slate-100" : "text-slate-700"}`}>
        {`“${testimonial.quote}”`}
      </blockquote>
      <figcaption className="mt-5 flex items-center gap-4 text-sm">
        {person?.logo ? (
          <ResponsiveImage
            image={person.logo}
            sizes={TESTIMONIAL_LOGO_SIZES}
            alt={person.organisation}
            fallbackSrc=""
            fallbackWidth={96}
            fallbackHeight={40}
            className={`h-10 w-24 shrink-0 rounded object-contain ${dark ? "bg-white p-1" : ""}`}
          />
        ) : null}
        <span>
          {person ? (
            <>
              <span className={`block font-semibold ${dark ? "text-white" : "text-navy-900"}`}>{person.name}</span>
              <span className={dark ? "text-slate-300" : "text-slate-600"}>
                {person.role ? `${person.role}, ${person.organisation}` : person.organisation}
              </span>
            </>
          ) : (
            <span className={`block font-semibold ${dark ? "text-white" : "text-navy-900"}`}>
              {testimonial.description}
            </span>
          )}
        </span>
      </figcaption>
    </figure>
  );
}

/** Testimonials in a section of another page (a project, a service group, an industry); nothing when none. */
export function TestimonialList({
  testimonials,
  headingId,
  heading = "What our clients say",
}: {
  testimonials: PublicTestimonial[];
  headingId: string;
  heading?: string;
}) {
  if (testimonials.length === 0) return null;
  return (
    <div className="mt-10">
      <h3 id={headingId} className="text-lg font-bold text-navy-900">
        {heading}
      </h3>
      <ul className="mt-4 grid gap-5 md:grid-cols-2">
        {testimonials.map((testimonial) => (
          <li key={testimonial.id}>
            <TestimonialFigure testimonial={testimonial} tone="light" />
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The clients' logos in their order, in grey until hovered, each in a box of fixed size so that
 * nothing moves as they load; nothing at all (no heading) when there is none.
 */
export function ClientLogoRow({ logos }: { logos: PublicClientLogo[] }) {
  if (logos.length === 0) return null;
  return (
    <section aria-labelledby="clients-heading" className="border-y border-slate-200 bg-white py-12">
      <div className="container-page">
        <h2 id="clients-heading" className="text-center text-sm font-semibold tracking-wider text-slate-600 uppercase">
          Trusted by
        </h2>
        <ul className="mt-8 flex flex-wrap items-center justify-center gap-x-10 gap-y-6">
          {logos.map((logo) => (
            <li key={logo.id}>
              <ResponsiveImage
                image={logo.logo}
                sizes={CLIENT_LOGO_SIZES}
                alt={logo.organisation}
                fallbackSrc={logo.logoUrl}
                fallbackWidth={128}
                fallbackHeight={48}
                className="client-logo h-12 w-32 object-contain"
              />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
