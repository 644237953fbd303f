// Small DOM helpers: elements are built with text nodes only (never HTML strings), so nothing the
// API answers can become markup or script.

export const $ = (id) => document.getElementById(id);

/** `h('td', {className: 'num'}, 'text', child)`: an element with properties, attributes (`data-*`, `aria-*`) and children. */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('data-') || key.startsWith('aria-') || key === 'role' || key === 'scope')
      element.setAttribute(key, String(value));
    else if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
    else element[key] = value;
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the children of `element`. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** A table: a header row of `columns` and one row per item from `row(item)` (an array of cells). */
export function table(element, columns, items, row, empty) {
  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      columns.map((column) => h('th', { scope: 'col' }, column)),
    ),
  );
  const body = h(
    'tbody',
    {},
    items.length === 0
      ? h('tr', {}, h('td', { colSpan: columns.length, className: 'empty' }, empty))
      : items.map((item) => {
          const cells = row(item);
          const tr = h(
            'tr',
            {},
            cells.map((cell) => (cell instanceof HTMLTableCellElement ? cell : h('td', {}, cell))),
          );
          return tr;
        }),
  );
  return fill(element, head, body);
}
