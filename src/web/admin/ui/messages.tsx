/** A notice or an error at the top of a page, announced to screen readers. */
export function Messages({ notice, error }: { notice?: string; error?: string }) {
  return (
    <>
      {notice ? (
        <p
          role="status"
          className="mb-4 rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-900"
        >
          {notice}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
          {error}
        </p>
      ) : null}
    </>
  );
}
