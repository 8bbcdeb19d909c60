// What the editor's page hides until the script shows it carries the class "hidden" (React would
// write the attribute as hidden="", which the HTML validator refuses); the script then shows and
// hides with the `hidden` property, which the stylesheet's base rules honour.

export function setShown(element: HTMLElement, shown: boolean): void {
  element.classList.remove("hidden");
  element.hidden = !shown;
}

export const isShown = (element: HTMLElement) => !element.hidden && !element.classList.contains("hidden");
