import { CheckCircle2 } from "lucide-react";
import { paths } from "#shared/paths.ts";
import { limits } from "#shared/site.ts";
import { Island } from "../../islands/island.tsx";

export function ThankYouPage() {
  return (
    <section className="bg-paper py-24">
      <div className="container-page max-w-2xl text-center">
        <CheckCircle2 aria-hidden="true" className="mx-auto size-16 text-green-700" />
        <h1 className="mt-6 text-4xl font-bold tracking-tight text-navy-900">Thank You!</h1>
        <p className="mt-4 text-lg leading-8 text-slate-600">
          Your enquiry has been sent. One of our engineers will review it and reply within {limits.replyWithinHours}{" "}
          hours.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <a href={paths.home} className="btn-primary">
            Return Home
          </a>
          <a href={paths.contact} className="btn-outline">
            Send Another Message
          </a>
        </div>
        <Island name="redirectCountdown" props={{}} />
      </div>
    </section>
  );
}
