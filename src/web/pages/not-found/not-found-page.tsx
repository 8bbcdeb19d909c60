import { AlertCircle } from "lucide-react";
import { notFoundReasonKey } from "#shared/page-rendering.ts";
import { paths } from "#shared/paths.ts";
import { usePageValue } from "../../lib/page-context.ts";

export function NotFoundPage() {
  // A 404 with a reason of its own (an expired preview link) says it instead of the usual text.
  const reason = usePageValue<string>(notFoundReasonKey);
  return (
    <section className="bg-paper py-24">
      <div className="container-page max-w-2xl">
        <div className="card p-8">
          <div className="flex items-center gap-3">
            <AlertCircle aria-hidden="true" className="size-8 text-red-700" />
            <h1 className="text-3xl font-bold text-navy-900">Page Not Found</h1>
          </div>
          {reason ? (
            <p className="mt-4 text-slate-600">{reason}</p>
          ) : (
            <>
              <p className="mt-4 text-slate-600">
                There is no page at this address. It may have moved, or the link may have a typing mistake in it.
              </p>
              <p className="mt-2 text-sm text-slate-600">
                Did you forget to add the page to the router? Routes live in{" "}
                <code className="text-slate-800">src/shared/routes.ts</code>.
              </p>
            </>
          )}
          <div className="mt-6 flex flex-wrap gap-3">
            <a href={paths.home} className="btn-primary">
              Return Home
            </a>
            <a href={paths.contact} className="btn-outline">
              Contact Us
            </a>
          </div>
        </div>
      </div>
    </section>
  );
}
