import { Menu, X } from "lucide-react";
import { useEffect, useState } from "react";

/** The menu the button shows and hides (drawn by the server in the header). */
export const MENU_ID = "site-menu";

/**
 * The header's menu button on small screens, the header's only island: the header around it is
 * HTML the server drew, so its links and the site search cost the browser no JavaScript. The
 * button shows and hides the server's menu by its class; the open menu closes with Escape (focus
 * back on the button) and when any link on the page is chosen.
 */
export function MenuButton() {
  const [open, setOpen] = useState(false);

  useEffect(() => {
    // A class rather than the hidden attribute: without JavaScript the head's noscript style
    // shows the menu, and Tailwind's [hidden] rule is !important in a layer, which nothing overrides.
    document.getElementById(MENU_ID)?.classList.toggle("hidden", !open);
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        document.getElementById("menu-button")?.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest("a[href]")) setOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("click", onClick);
    };
  }, [open]);

  return (
    <button
      id="menu-button"
      type="button"
      className="inline-flex size-11 items-center justify-center rounded-md text-navy-900 hover:bg-slate-100 lg:hidden"
      aria-expanded={open}
      aria-controls={MENU_ID}
      onClick={() => setOpen((value) => !value)}
    >
      {open ? <X aria-hidden="true" className="size-6" /> : <Menu aria-hidden="true" className="size-6" />}
      <span className="sr-only">{open ? "Close menu" : "Open menu"}</span>
    </button>
  );
}
