import { CheckCircle2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { paths } from "#shared/paths.ts";
import { limits } from "#shared/site.ts";

export function ThankYouPage() {
  const [, navigate] = useLocation();
  const [secondsLeft, setSecondsLeft] = useState<number>(limits.thankYouRedirectSeconds);

  useEffect(() => {
    const startedAt = Date.now();
    const tick = setInterval(() => {
      const elapsed = Math.floor((Date.now() - startedAt) / 1000);
      setSecondsLeft(Math.max(0, limits.thankYouRedirectSeconds - elapsed));
    }, 250);
    const redirect = setTimeout(() => navigate(paths.home), limits.thankYouRedirectSeconds * 1000);
    return () => {
      clearInterval(tick);
      clearTimeout(redirect);
    };
  }, [navigate]);

  return (
    <section className="bg-paper py-24">
      <div className="container-page max-w-2xl text-center">
        <CheckCircle2 aria-hidden="true" className="mx-auto size-16 text-green-700" />
        <h1 className="mt-6 text-4xl font-bold tracking-tight text-navy-900">Thank You!</h1>
        <p className="mt-4 text-lg leading-8 text-slate-600">
          Your enquiry has been sent. One of our engineers will review it and reply within {limits.replyWithinHours} hours.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link href={paths.home} className="btn-primary">
            Return Home
          </Link>
          <Link href={paths.contact} className="btn-outline">
            Send Another Message
          </Link>
        </div>
        <p className="mt-8 text-sm text-slate-600" aria-live="off">
          You will be redirected to the home page in <span data-testid="countdown">{secondsLeft}</span>{" "}
          {secondsLeft === 1 ? "second" : "seconds"}.
        </p>
      </div>
    </section>
  );
}
