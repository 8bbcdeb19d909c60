/** Said where a passkey button is, to a browser without JavaScript: the ceremonies need it. */
export const noScript = (
  <noscript>
    <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
      Passkeys need JavaScript: turn it on for this site to use one.
    </p>
  </noscript>
);
