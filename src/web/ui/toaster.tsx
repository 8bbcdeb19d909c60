import { X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { TOAST_DURATION_MS, type ToastItem, useToasts } from "./use-toast.ts";

export const SWIPE_THRESHOLD_PX = 50;

/**
 * The notification region (SPEC section 9): F8 focuses it; a toast closes after 5 s (paused
 * while hovered or focused), with its close button, or when swiped right by 50 px or more.
 * At most 420 px wide on wider screens.
 */
export function Toaster() {
  const { toasts, dismiss } = useToasts();
  const regionRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "F8") {
        event.preventDefault();
        regionRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <section aria-label="Notifications (F8)">
      <ol
        ref={regionRef}
        tabIndex={-1}
        data-testid="toast-viewport"
        className="fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse p-4 outline-none sm:top-auto sm:right-0 sm:bottom-0 sm:flex-col md:max-w-[420px]"
      >
        {toasts
          .filter((item) => item.open)
          .map((item) => (
            <Toast key={item.id} item={item} onDismiss={() => dismiss(item.id)} />
          ))}
      </ol>
    </section>
  );
}

function Toast({ item, onDismiss }: { item: ToastItem; onDismiss: () => void }) {
  const [paused, setPaused] = useState(false);
  const [offset, setOffset] = useState(0);
  const start = useRef<number | null>(null);

  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(onDismiss, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [paused, onDismiss, item.title, item.description]);

  const destructive = item.variant === "destructive";
  return (
    <li
      role={destructive ? "alert" : "status"}
      aria-live={destructive ? "assertive" : "polite"}
      aria-atomic="true"
      data-variant={item.variant}
      className={`pointer-events-auto relative mb-2 flex w-full touch-pan-y items-start gap-3 rounded-lg border p-5 pr-10 shadow-lg ${
        destructive ? "border-red-700 bg-red-700 text-white" : "border-slate-200 bg-white text-slate-900"
      }`}
      style={offset ? { transform: `translateX(${offset}px)` } : undefined}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onPointerDown={(event) => {
        start.current = event.clientX;
      }}
      onPointerMove={(event) => {
        if (start.current !== null) setOffset(Math.max(0, event.clientX - start.current));
      }}
      onPointerUp={() => {
        if (offset >= SWIPE_THRESHOLD_PX) onDismiss();
        start.current = null;
        setOffset(0);
      }}
      onPointerCancel={() => {
        start.current = null;
        setOffset(0);
      }}
    >
      <div className="grid gap-1">
        {item.title ? <p className="text-sm font-semibold">{item.title}</p> : null}
        {item.description ? <p className="text-sm opacity-90">{item.description}</p> : null}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        className={`absolute top-2 right-2 rounded-md p-1.5 ${destructive ? "text-white hover:bg-white/15" : "text-slate-600 hover:bg-slate-100"}`}
      >
        <X aria-hidden="true" className="size-4" />
        <span className="sr-only">Close notification</span>
      </button>
    </li>
  );
}
