// The photo chosen on a team member's page, shown as it is chosen: loaded by admin-client.ts only
// on that page. Without it the page shows the photo chosen when it was opened.

export function startPhotoPreview(preview: HTMLImageElement): void {
  const select = preview.closest("div")?.querySelector("select");
  if (!select) return;
  let thumbnails: Record<string, string> = {};
  try {
    thumbnails = JSON.parse(preview.dataset.teamPhotoPreview ?? "{}") as Record<string, string>;
  } catch {
    return;
  }
  select.addEventListener("change", () => {
    const url = select.value;
    preview.classList.toggle("hidden", url === "");
    if (url) preview.src = thumbnails[url] ?? url;
    else preview.removeAttribute("src");
  });
}
