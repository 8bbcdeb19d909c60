import { BadgeCheck } from "lucide-react";
import { certifications } from "#shared/site.ts";

/** Certifications and partnerships (SPEC section 2, About and Contact). */
export function CertificationList({ compact = false }: { compact?: boolean }) {
  return (
    <ul className={compact ? "grid grid-cols-2 gap-3" : "grid grid-cols-2 gap-4 lg:grid-cols-4"}>
      {certifications.map((name) => (
        <li
          key={name}
          className={`flex items-center gap-2 rounded-lg border border-slate-200 bg-white font-semibold text-navy-900 ${
            compact ? "p-3 text-sm" : "p-5"
          }`}
        >
          <BadgeCheck aria-hidden="true" className="size-5 shrink-0 text-green-700" />
          {name}
        </li>
      ))}
    </ul>
  );
}
