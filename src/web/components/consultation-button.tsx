import { MessageSquareText } from "lucide-react";
import { paths } from "#shared/paths.ts";
import { Tooltip } from "../ui/tooltip.tsx";

/** SPEC section 2: the floating round button, bottom right, on every page. */
export function ConsultationButton() {
  return (
    <aside aria-label="Quick contact" className="fixed right-5 bottom-5 z-30 sm:right-8 sm:bottom-8">
      <Tooltip content="Request Consultation">
        {(describedBy) => (
          <a
            href={paths.contact}
            className="flex size-14 items-center justify-center rounded-full bg-amber-accent text-navy-950 shadow-lg ring-4 ring-white transition-transform hover:scale-105"
            {...describedBy}
          >
            <MessageSquareText aria-hidden="true" className="size-6" />
            <span className="sr-only">Request Consultation</span>
          </a>
        )}
      </Tooltip>
    </aside>
  );
}
