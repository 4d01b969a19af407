// view-results.js — the result panels a slider move rewrites: the summary cards, the traffic
// table, the ledger of the predicted time and the best tile. A number is { testid, value, text }:
// shown as text, its exact value in data-value. A move with the same shape patches the numbers in
// place (only what changed is written) instead of parsing new HTML.
import { escapeHtml as esc } from './html.js';
import { $ } from './dom.js';

// A slider move rewrites only what changed: text and attributes are compared before they are
// written (an equal write still invalidates style and layout, and re-announces a live region).
export const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };
const setAttr = (el, name, value) => { if (el.getAttribute(name) !== value) el.setAttribute(name, value); };
const setData = (el, key, value) => { if (el.dataset[key] !== value) el.dataset[key] = value; };

// A number's span: its text, its exact value in data-value, its stable test id.
export function num(n) {
  return `<span class="num" data-testid="${esc(n.testid)}" data-value="${esc(n.value)}">${esc(n.text)}</span>`;
}

export class ResultsView {
  num(n) { return num(n); }

  // The number spans written by the last full render of a box, in order: a slider move with the
  // same shape (the same testids) patches them in place instead of parsing new HTML. Returns the
  // spans, or null when the shape changed or the box was rewritten since.
  patchable(box, key) {
    const last = this.patched?.get(box.id);
    return last && last.key === key && last.nums[0]?.isConnected ? last.nums : null;
  }
  remember(box, key) {
    (this.patched ||= new Map()).set(box.id, { key, nums: [...box.querySelectorAll('.num')] });
  }

  // cards: [{ label, number }]
  renderSummary(cards) {
    const box = $('summary');
    const key = cards.map((c) => c.number.testid).join(',');
    const nums = this.patchable(box, key);
    if (nums) {
      cards.forEach((c, i) => {
        this.setNum(nums[i], c.number);
        setText(nums[i].parentElement.previousElementSibling, c.label); // the dt: peak kind, SRAM fit
      });
      return;
    }
    box.innerHTML = cards.map((c) => `<div><dt>${esc(c.label)}</dt><dd>${this.num(c.number)}</dd></div>`).join('');
    this.remember(box, key);
  }

  // table: { models: [names], rows: [{ label, cells: [number | null (not modelled: { testid })] }] }
  renderModelTable(table) {
    const box = $('model-table');
    const cells = table.rows.flatMap((r) => r.cells);
    const key = `${table.models.join(',')}|${table.rows.map((r) => r.label).join(',')}|` +
      cells.map((c) => `${c.testid}${c.boundClass ? '*' : ''}`).join(',');
    const nums = this.patchable(box, key);
    if (nums) {
      cells.forEach((c, i) => {
        this.setNum(nums[i], c);
        if (c.boundClass) setAttr(nums[i].parentElement, 'class', `bound-${c.boundClass}`);
      });
      return;
    }
    const head = `<thead><tr><th scope="col">per pass</th>${table.models.map((x) => `<th scope="col">${esc(x)}</th>`).join('')}</tr></thead>`;
    const cell = (c) => (c.boundClass ? `<td><span class="bound-${esc(c.boundClass)}">${this.num(c)}</span></td>` : `<td>${this.num(c)}</td>`);
    const rows = table.rows.map((r) => `<tr><th scope="row">${esc(r.label)}</th>${r.cells.map(cell).join('')}</tr>`);
    box.innerHTML = `${head}<tbody>${rows.join('')}</tbody>`;
    this.remember(box, key);
  }

  // A number's span patched in place (only what changed is written); false when there is none.
  setNum(el, n) {
    if (!el) return false;
    setData(el, 'value', String(n.value));
    setText(el, n.text);
    return true;
  }

  // The ledger's elements a patch writes, found once after each full render.
  ledgerParts(box) {
    if (this.ledgerEls?.hint.isConnected) return this.ledgerEls;
    const rows = [...box.querySelectorAll('tbody tr')];
    this.ledgerEls = {
      head: [...box.querySelectorAll('.ledger-head .num')], bound: box.querySelector('.ledger-head > span[class^=bound-]'),
      hint: box.querySelector('.hint'), bar: box.querySelector('.ledger-bar'), segs: [...box.querySelectorAll('.seg')],
      nums: rows.map((r) => r.querySelector('.num')), shares: rows.map((r) => r.children[2]),
    };
    return this.ledgerEls;
  }

  // The ledger's numbers, shares and facts updated in place; false when its shape changed.
  patchLedger(box, vm) {
    const el = this.ledgerParts(box);
    if (vm.head.some((n, i) => el.head[i]?.dataset.testid !== n.testid) || el.nums.length !== vm.terms.length) return false;
    vm.head.forEach((n, i) => this.setNum(el.head[i], n));
    if (el.bound) setAttr(el.bound, 'class', `bound-${vm.head[2].value}`);
    setText(el.hint, vm.facts);
    const segs = el.segs;
    const shown = vm.terms.filter((t) => t.share > 0);
    if (segs.length !== shown.length || segs.some((g, i) => !g.classList.contains(`term-${shown[i].name}`))) return false;
    shown.forEach((t, i) => {
      const g = segs[i];
      if (g.dataset.share !== String(t.share)) {
        g.style.flexGrow = String(t.share);
        g.dataset.share = String(t.share);
      }
      setAttr(g, 'title', `${t.name}: ${t.number.text} (${t.shareText})`);
      setText(g, t.share >= 0.08 ? t.name : '');
    });
    vm.terms.forEach((t, i) => {
      this.setNum(el.nums[i], t.number);
      setText(el.shares[i], t.shareText);
    });
    setAttr(el.bar, 'aria-label', vm.terms.map((t) => `${t.name} ${t.shareText}`).join(', '));
    return true;
  }

  // vm: { unavailable: null | reason, head: [number], facts: text, terms: [{ name, number, share,
  // shareText, note }] } — the predicted time as a stacked bar of its six terms and a table.
  renderLedger(vm) {
    const box = $('ledger');
    // Moving a slider keeps the profile: the numbers are patched in place (no new DOM).
    const key = vm.unavailable ? null : `${vm.kernel}|${vm.terms.map((t) => t.name).join(',')}`;
    if (key && key === this.ledgerKey && this.patchLedger(box, vm)) return;
    this.ledgerKey = key;
    this.ledgerEls = null; // written anew below
    if (vm.unavailable) {
      box.innerHTML = `<p class="warn" data-testid="predicted-unavailable" data-value="${esc(vm.kernel)}">` +
        `No prediction: ${esc(vm.unavailable)}</p>`;
      return;
    }
    const [time, flops, bound] = vm.head;
    const bar = vm.terms.filter((t) => t.share > 0).map((t) =>
      `<span class="seg term-${esc(t.name)}" data-share="${t.share}" title="${esc(t.name)}: ${esc(t.number.text)} (${esc(t.shareText)})">` +
      `${t.share >= 0.08 ? esc(t.name) : ''}</span>`).join('');
    const rows = vm.terms.map((t) => `<tr><th scope="row"><span class="swatch term-${esc(t.name)}"></span>${esc(t.name)}</th>` +
      `<td>${this.num(t.number)}</td><td>${esc(t.shareText)}</td><td class="note">${esc(t.note)}</td></tr>`).join('');
    box.innerHTML = `<p class="ledger-head"><strong>${esc(vm.kernel)}</strong>: ${this.num(time)} · ${this.num(flops)} · ` +
      `<span class="bound-${esc(bound.value)}">${this.num(bound)}</span></p>` +
      `<p class="hint">${esc(vm.facts)}</p>` +
      `<div class="ledger-bar" role="img" aria-label="${esc(vm.terms.map((t) => `${t.name} ${t.shareText}`).join(', '))}">${bar}</div>` +
      `<div class="table-wrap"><table class="ledger-table"><thead><tr><th scope="col">term</th><th scope="col">time</th>` +
      `<th scope="col">share</th><th scope="col">what it is</th></tr></thead><tbody>${rows}</tbody></table></div>`;
    // Widths through the CSSOM: the Content-Security-Policy refuses inline style attributes.
    for (const seg of box.querySelectorAll('.seg')) seg.style.flexGrow = seg.dataset.share;
  }

  // vm: null (not the generic profile) or the tile search: { best: null (nothing fits) or
  // { tile, time (number), sram, waves }, runners: [{ tile, time, sram, lose }], value }
  renderBestTile(vm) {
    const el = $('best-tile');
    const b = vm && vm.best;
    const value = vm ? vm.value : '';
    if (b) {
      const tail = `, SRAM ${b.sram}, ${b.waves} waves.` +
        (vm.runners.length ? ` Runners-up: ${vm.runners.map((c) => `${c.tile} ${c.time.text} (${c.lose}; SRAM ${c.sram})`).join('; ')}.` : '') +
        ' Type a tile into Br × Bc (and a split count) to see its ledger.';
      const p = this.bestTileEls; // a slider move: the tile, its time and the rest patched in place
      if (p && p.tail.isConnected && !el.hidden) {
        setText(p.strong, b.tile);
        this.setNum(p.num, b.time);
        if (p.tail.data !== tail) p.tail.data = tail;
        setData(el, 'value', value);
        return;
      }
      el.hidden = false;
      el.dataset.value = value;
      el.innerHTML = `Best tile (generic profile, tile search): <strong>${esc(b.tile)}</strong>, ${this.num(b.time)}${esc(tail)}`;
      this.bestTileEls = { strong: el.querySelector('strong'), num: el.querySelector('.num'), tail: el.lastChild };
      return;
    }
    this.bestTileEls = null;
    const text = vm ? 'Tile search: no tile fits this preset’s shared memory.' : '';
    if (el.hidden === !vm && el.dataset.value === value && !el.firstElementChild && el.textContent === text) return; // unchanged
    el.hidden = !vm;
    el.dataset.value = value;
    el.textContent = text;
  }
}
