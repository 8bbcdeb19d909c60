// The back office's scripts build their few elements with this one helper: a tag, its class and
// text, and its children. Text goes in as text (textContent), never as markup.

export function element<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  props: { className?: string; text?: string } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[Tag] {
  const node = document.createElement(tag);
  if (props.className) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  node.append(...children);
  return node;
}
