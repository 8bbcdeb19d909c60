import type { AdminPagePropsOf, MediaItemView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { MEDIA_LIMITS } from "#shared/media.ts";
import { AdminLayout } from "../../layout.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { Pager } from "../../ui/pager.tsx";
import { AltState } from "./alt-state.tsx";
import { UsedInList } from "./used-in-list.tsx";
import { bytesText, thumbnailSize, usedInText } from "./media-words.ts";

/** What the upload accepts: the formats by their types (the server looks at the bytes all the same). */
export const UPLOAD_ACCEPT = "image/jpeg,image/png,image/webp,image/avif,.jpg,.jpeg,.png,.webp,.avif";
export const UPLOAD_RULES = `JPEG, PNG, WebP or AVIF, at most ${MEDIA_LIMITS.bytes / 1024 / 1024} MB and ${MEDIA_LIMITS.pixels / 1_000_000} megapixels. Each is turned upright and its location and camera details are removed.`;

function Card({ item }: { item: MediaItemView }) {
  const size = thumbnailSize(item);
  return (
    <li className="admin-card flex flex-col gap-2 p-3 sm:p-3">
      <a
        href={adminHref("mediaItem", { id: item.id })}
        className="block overflow-hidden rounded bg-slate-100"
        aria-hidden="true"
        tabIndex={-1}
      >
        <img
          src={item.thumbnail}
          alt=""
          width={size.width}
          height={size.height}
          loading="lazy"
          decoding="async"
          className="aspect-[4/3] h-auto w-full object-contain"
        />
      </a>
      <a href={adminHref("mediaItem", { id: item.id })} className="admin-link text-sm break-all">
        {item.fileName}
      </a>
      <p className="text-xs text-slate-600">
        {item.width} × {item.height} px · {bytesText(item.uploadedBytes)}
      </p>
      <AltState item={item} />
      <div className="text-sm">
        <p className={item.usedIn.length ? "font-medium text-slate-800" : "text-slate-600"}>
          {usedInText(item.usedIn.length)}
        </p>
        {item.usedIn.length ? <UsedInList uses={item.usedIn} className="mt-1 space-y-0.5 text-xs" /> : null}
      </div>
    </li>
  );
}

/** The media library: the upload (a plain form; the script adds dropping and several files) and the grid. */
export function MediaPage({
  viewer,
  show,
  items,
  total,
  needsAlt,
  pageNumber,
  more,
  notice,
  error,
}: AdminPagePropsOf<"media">) {
  const onlyNeedsAlt = show === "needs-alt";
  return (
    <AdminLayout viewer={viewer} current="media">
      <PageHeader
        title="Media"
        description="The pictures of articles, projects and the team. The site shows each at the width a screen needs, in AVIF, WebP or JPEG."
      />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>

      <section className="admin-card" aria-labelledby="media-upload-heading" data-media-uploader>
        <h2 id="media-upload-heading" className="text-lg font-semibold text-navy-900">
          Upload pictures
        </h2>
        <form
          method="post"
          action={adminHref("mediaUpload")}
          encType="multipart/form-data"
          className="mt-3 flex flex-wrap items-end gap-3"
          data-media-upload-form
        >
          <div className="min-w-64 flex-1">
            <label htmlFor="media-file" className="admin-label">
              Picture
            </label>
            <input
              id="media-file"
              name="file"
              type="file"
              accept={UPLOAD_ACCEPT}
              required
              aria-describedby="media-file-hint"
              className="admin-input"
            />
          </div>
          <button type="submit" className="admin-button">
            Upload
          </button>
        </form>
        <p id="media-file-hint" className="mt-2 text-xs text-slate-600">
          {UPLOAD_RULES} After uploading, write each picture&apos;s alt text (or mark it decorative): only then can it
          be chosen for content.
        </p>
        <div
          data-media-drop
          className="mt-3 hidden rounded-md border-2 border-dashed border-slate-300 p-6 text-center text-sm text-slate-700"
        >
          Or drop pictures here, several at once.
        </div>
        <ol data-media-progress aria-live="polite" className="mt-3 space-y-2 text-sm" />
      </section>

      <div className="mt-6 flex flex-wrap items-baseline justify-between gap-3">
        <h2 className="text-lg font-semibold text-navy-900">
          {total} {total === 1 ? "picture" : "pictures"}, newest first
        </h2>
        <nav aria-label="Show" className="flex gap-3 text-sm">
          <a href={adminHref("media")} className="admin-link" aria-current={onlyNeedsAlt ? undefined : "page"}>
            All
          </a>
          <a
            href={adminHref("media", {}, { show: "needs-alt" })}
            className="admin-link"
            aria-current={onlyNeedsAlt ? "page" : undefined}
          >
            Needs alt text ({needsAlt})
          </a>
        </nav>
      </div>
      {items.length ? (
        <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {items.map((item) => (
            <Card key={item.id} item={item} />
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-slate-700">
          {total ? "No picture needs alt text." : "No pictures yet: upload the first."}
        </p>
      )}
      <Pager
        route="media"
        query={{ show: onlyNeedsAlt ? "needs-alt" : undefined }}
        pageNumber={pageNumber}
        more={more}
        label="Pages"
        previous="Newer"
        next="Older"
      />
    </AdminLayout>
  );
}
