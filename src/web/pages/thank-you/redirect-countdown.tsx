import { useEffect, useState } from "react";
import { paths } from "#shared/paths.ts";
import { limits } from "#shared/site.ts";

/** SPEC section 2: the thank-you page counts down and goes home after 10 seconds; an island. */
export function RedirectCountdown() {
  const [secondsLeft, setSecondsLeft] = useState<number>(limits.thankYouRedirectSeconds);

  useEffect(() => {
    const startedAt = Date.now();
    const tick = setInterval(() => {
      const elapsed = Math.floor((Date.now() - startedAt) / 1000);
      setSecondsLeft(Math.max(0, limits.thankYouRedirectSeconds - elapsed));
    }, 250);
    const redirect = setTimeout(() => window.location.assign(paths.home), limits.thankYouRedirectSeconds * 1000);
    return () => {
      clearInterval(tick);
      clearTimeout(redirect);
    };
  }, []);

  return (
    <p className="mt-8 text-sm text-slate-600" aria-live="off">
      You will be redirected to the home page in <span data-testid="countdown">{secondsLeft}</span>{" "}
      {secondsLeft === 1 ? "second" : "seconds"}.
    </p>
  );
}
