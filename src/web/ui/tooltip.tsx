import { type ReactElement, type ReactNode, useEffect, useId, useRef, useState } from "react";

// A small tooltip instead of Radix's (which brings a positioning engine the size of a page):
// opens after OPEN_DELAY_MS of hover or at once on keyboard focus, and a second tooltip within
// SKIP_DELAY_MS of the last one closing opens without the delay (SPEC section 9).

export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

let lastClosedAt = Number.NEGATIVE_INFINITY;

type TooltipProps = {
  content: ReactNode;
  side?: "left" | "top";
  children: (props: { "aria-describedby"?: string }) => ReactElement;
};

export function Tooltip({ content, side = "left", children }: TooltipProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const clear = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = undefined;
  };
  const show = (delay: number) => {
    clear();
    const skip = performance.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS;
    if (skip || delay === 0) setOpen(true);
    else timer.current = setTimeout(() => setOpen(true), delay);
  };
  const hide = () => {
    clear();
    setOpen((wasOpen) => {
      if (wasOpen) lastClosedAt = performance.now();
      return false;
    });
  };

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        lastClosedAt = performance.now();
        setOpen(false);
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open]);
  useEffect(() => clear, []);

  const position =
    side === "left" ? "right-full top-1/2 mr-3 -translate-y-1/2" : "bottom-full left-1/2 mb-3 -translate-x-1/2";

  return (
    <span
      className="relative inline-flex"
      onPointerEnter={(event) => event.pointerType === "mouse" && show(TOOLTIP_OPEN_DELAY_MS)}
      onPointerLeave={hide}
      onFocus={() => show(0)}
      onBlur={hide}
    >
      {children({ "aria-describedby": open ? id : undefined })}
      {open && (
        <span
          id={id}
          role="tooltip"
          className={`pointer-events-none absolute z-50 w-max max-w-60 rounded-md bg-navy-950 px-3 py-1.5 text-sm font-medium text-white shadow-lg ${position}`}
        >
          {content}
        </span>
      )}
    </span>
  );
}
