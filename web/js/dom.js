// dom.js — the page's DOM helpers, written once: `$` (an element by id) and el() (an element
// with its properties and children). Modules that show uploaded text (records, the import form)
// make their own el with core's escaper (makeEl(model.escapeText)): every text they set then goes
// through it (invisible and direction characters named, never rendered); texts reach the DOM only
// as textContent and attributes, never as HTML.
//
//   $('records-list')                       document.getElementById
//   el('li', { testid, className, text, title, 'aria-*', onclick … }, ...children)

export const $ = (id, doc = document) => doc.getElementById(id);

// props: testid → data-testid; className; text → textContent; on<event> → a listener; title and
// aria-* → escaped attributes; anything else → an attribute as given. Children: elements, or
// strings (escaped); null and undefined are left out.
export function makeEl(esc = (s) => s) {
  return function el(tag, props = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === 'testid') e.dataset.testid = v;
      else if (k === 'className') e.className = v;
      else if (k === 'text') e.textContent = esc(v);
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else if (k === 'title' || k.startsWith('aria-')) e.setAttribute(k, esc(v));
      else e.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(typeof c === 'string' ? esc(c) : c);
    return e;
  };
}

export const el = makeEl();
