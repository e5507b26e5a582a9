/** Attributes and handlers of an element made with `h`. */
export type Props = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/** A child: an element, text, or nothing. */
export type Child = Node | string | number | false | null | undefined;

/**
 * Creates an element: `h('button', { class: 'primary', onclick: go }, 'Approve')`. Text is set as
 * text, never as HTML, so values from documents cannot inject markup.
 */
export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
};

/** Replaces the children of `parent`. */
export const mount = (parent: Element, ...children: Child[]): void => {
  parent.replaceChildren(
    ...children
      .filter((c): c is Node | string => c !== null && c !== undefined && c !== false)
      .map((c) => (c instanceof Node ? c : String(c))),
  );
};

/** True while the user types in a form control (single-key shortcuts must not fire then). */
export const isTyping = (event: KeyboardEvent): boolean => {
  const target = event.target as HTMLElement | null;
  return Boolean(target?.closest('input, textarea, select, [contenteditable="true"]'));
};
