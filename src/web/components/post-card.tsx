import { ArrowRight, CalendarDays } from "lucide-react";
import type { BlogPostSummary } from "#shared/api-types.ts";
import { POST_CARD_SIZES } from "#shared/image-sizes.ts";
import { formatLongDate } from "../lib/format-date.ts";
import { CategoryBadge } from "./category-badge.tsx";
import { ResponsiveImage } from "./responsive-image.tsx";

export function articlePath(slug: string): string {
  return `/blog/${slug}`;
}

export function PostCard({
  post,
  headingLevel = 3,
  priority = false,
}: {
  post: Omit<BlogPostSummary, "id">;
  headingLevel?: 2 | 3;
  /** The card's picture is the largest above the fold of its page. */
  priority?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const titleId = `post-${post.slug}`;
  return (
    <article className="card flex h-full flex-col overflow-hidden" aria-labelledby={titleId}>
      {/* The card's title names what the picture shows: here it is decorative. */}
      <ResponsiveImage
        image={post.image}
        sizes={POST_CARD_SIZES}
        alt=""
        fallbackSrc={post.imageUrl}
        fallbackWidth={1200}
        fallbackHeight={675}
        priority={priority}
        className="aspect-video w-full bg-slate-100 object-cover"
      />
      <div className="flex flex-1 flex-col p-5">
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
          <CategoryBadge category={post.category} />
          <span className="inline-flex items-center gap-1.5">
            <CalendarDays aria-hidden="true" className="size-4" />
            <time dateTime={post.publishedAt}>{formatLongDate(post.publishedAt)}</time>
          </span>
        </div>
        <Heading id={titleId} className="mt-3 text-lg leading-snug font-bold text-navy-900">
          {post.title}
        </Heading>
        <div className="mt-2 flex-1">
          <p className="line-clamp-3 text-sm leading-6 text-slate-600">{post.excerpt}</p>
        </div>
        <a
          href={articlePath(post.slug)}
          className="mt-4 inline-flex items-center gap-1.5 self-start text-sm font-semibold text-brand-700 hover:underline"
        >
          {/* The title, for screen readers and crawlers, so that nine links do not all say only 'Read More'. */}
          Read More<span className="sr-only">: {post.title}</span> <ArrowRight aria-hidden="true" className="size-4" />
        </a>
      </div>
    </article>
  );
}
