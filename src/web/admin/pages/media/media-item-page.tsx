import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { CONTENT_LIMITS } from "#shared/content/documents.ts";
import { MEDIA_VARIANT_FORMATS, mediaVariantPath, variantWidths } from "#shared/media.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { Field } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { AltState } from "./alt-state.tsx";
import { UsedInList } from "./used-in-list.tsx";
import { bytesText, FORMAT_LABELS, srcsetOf, usedInText } from "./media-words.ts";

/** One picture of the library: how it looks, its alt text or "Decorative", its details, where it is used, Delete. */
export function MediaItemPage({ viewer, item, canDelete, notice, error, form }: AdminPagePropsOf<"media-item">) {
  const widths = variantWidths(item.width);
  const middle = widths.find((width) => width >= 640) ?? widths[widths.length - 1]!;
  const decorativeValue = form ? ["on", "true"].includes(form.values.decorative ?? "") : item.decorative;
  const decorativeError = form?.errors.decorative;
  return (
    <AdminLayout viewer={viewer} current="media">
      <p className="mb-2 text-sm">
        <a href={adminHref("media")} className="admin-link">
          Media
        </a>
      </p>
      <PageHeader title={item.fileName} />
      <div className="mt-1">
        <AltState item={item} />
      </div>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <figure className="admin-card self-start">
          <img
            src={mediaVariantPath(item.key, middle, "jpeg")}
            srcSet={srcsetOf(item, "webp")}
            sizes="(min-width: 1024px) 36rem, 100vw"
            width={item.width}
            height={item.height}
            alt={item.alt}
            className="h-auto w-full rounded bg-slate-100"
          />
          <figcaption className="mt-2 text-xs text-slate-600">
            Served at {widths.join(", ")} pixels wide, in{" "}
            {MEDIA_VARIANT_FORMATS.map((format) => FORMAT_LABELS[format]).join(", ")}.
          </figcaption>
        </figure>

        <div className="space-y-6">
          <form method="post" action={adminHref("mediaSave", { id: item.id })} className="admin-card space-y-4">
            <h2 className="text-lg font-semibold text-navy-900">For those who cannot see it</h2>
            <Field
              id="media-alt"
              name="alt"
              label="Alt text"
              type="text"
              maxLength={CONTENT_LIMITS.imageAlt}
              defaultValue={item.alt}
              form={form}
              hint="What the picture shows, in a sentence: “Engineers testing a 220 kV breaker at the Kutch solar park”. Leave it empty only for a decorative picture."
            />
            <div>
              <div className="flex items-center gap-2">
                <input
                  id="media-decorative"
                  name="decorative"
                  type="checkbox"
                  value="on"
                  defaultChecked={decorativeValue}
                  aria-describedby={
                    decorativeError ? "media-decorative-error media-decorative-hint" : "media-decorative-hint"
                  }
                  aria-invalid={decorativeError ? true : undefined}
                  className="h-5 w-5"
                />
                <label htmlFor="media-decorative" className="text-sm font-medium text-slate-800">
                  Decorative
                </label>
              </div>
              <p id="media-decorative-hint" className="mt-1 text-xs text-slate-600">
                It adds nothing a reader needs: it is shown with empty alt text, and its alt text is cleared.
              </p>
              {decorativeError ? (
                <p id="media-decorative-error" className="mt-1 text-sm font-medium text-red-700">
                  {decorativeError}
                </p>
              ) : null}
            </div>
            <button type="submit" className="admin-button">
              Save
            </button>
          </form>

          <section className="admin-card" aria-labelledby="media-used-heading">
            <h2 id="media-used-heading" className="text-lg font-semibold text-navy-900">
              {usedInText(item.usedIn.length)}
            </h2>
            {item.usedIn.length ? (
              <UsedInList uses={item.usedIn} className="mt-2 space-y-1 text-sm" />
            ) : (
              <p className="mt-2 text-sm text-slate-700">No article, project or team member names this picture.</p>
            )}
          </section>

          <section className="admin-card" aria-labelledby="media-details-heading">
            <h2 id="media-details-heading" className="text-lg font-semibold text-navy-900">
              Details
            </h2>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-600">Size</dt>
              <dd>
                {item.width} × {item.height} pixels, {FORMAT_LABELS[item.format]}
              </dd>
              <dt className="text-slate-600">Uploaded</dt>
              <dd>
                {bytesText(item.uploadedBytes)}, by {item.createdBy}, {formatIndiaDateTime(item.createdAt)}
              </dd>
              <dt className="text-slate-600">Kept</dt>
              <dd>{bytesText(item.storedBytes)}, every size together</dd>
              <dt className="text-slate-600">Address</dt>
              <dd className="break-all">
                <a href={item.reference} className="admin-link">
                  {item.reference}
                </a>
              </dd>
              {item.sourcePath ? (
                <>
                  <dt className="text-slate-600">Old address</dt>
                  <dd className="break-all">{item.sourcePath}</dd>
                </>
              ) : null}
              <dt className="text-slate-600">Key</dt>
              <dd className="font-mono">{item.key}</dd>
            </dl>
          </section>

          <section className="admin-card" aria-labelledby="media-delete-heading">
            <h2 id="media-delete-heading" className="text-lg font-semibold text-navy-900">
              Delete
            </h2>
            {canDelete ? (
              <form
                method="post"
                action={adminHref("mediaDelete", { id: item.id })}
                data-confirm={`Delete “${item.fileName}” and every size of it? This cannot be undone.`}
                className="mt-2"
              >
                <p className="mb-3 text-sm text-slate-700">
                  A picture that an article, a project or a team member names (in the trash too) cannot be deleted.
                </p>
                <button type="submit" className="admin-button-danger">
                  Delete
                </button>
              </form>
            ) : (
              <p className="mt-2 text-sm text-slate-700">Admins, and staff allowed to publish, can delete pictures.</p>
            )}
          </section>
        </div>
      </div>
    </AdminLayout>
  );
}
