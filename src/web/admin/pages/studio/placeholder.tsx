// PLACEHOLDER, replaced by the studio's pages.
export function StudioPlaceholder() {
  return <p>Not built yet.</p>;
}
