// view.js — owns the page's DOM (except the records list, records.js, and the two canvases,
// charts.js). bind…(handler) methods hand user input to the controller; render…(viewModel)
// methods show what the controller prepared. The controls are found in the HTML: every form
// element with a name is a URL key, every .slider[data-key] pairs a range with a number field.
import { escapeHtml as esc } from './html.js';
import { getSetting, setSetting, removeSetting } from './storage.js';

const $ = (id) => document.getElementById(id);
// A slider move rewrites only what changed: text and attributes are compared before they are
// written (an equal write still invalidates style and layout, and re-announces a live region).
const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };
const setAttr = (el, name, value) => { if (el.getAttribute(name) !== value) el.setAttribute(name, value); };
const setData = (el, key, value) => { if (el.dataset[key] !== value) el.dataset[key] = value; };
const THEME_KEY = 'rooflab.theme'; // localStorage: 'light' or 'dark'; anything else is ignored
const THEMES = ['light', 'dark'];

// The theme chosen with the button, if one was stored and is valid ('' = follow the OS).
// Storage refused (private mode, a policy): the OS scheme is followed (storage.js says so).
function storedTheme() {
  const t = getSetting(THEME_KEY);
  if (THEMES.includes(t)) return t;
  if (t !== null) removeSetting(THEME_KEY);
  return '';
}

export class View {
  constructor() {
    this.form = $('controls');
    this.keys = [...this.form.querySelectorAll('[name]')].map((el) => el.name);
    this.sliders = [...this.form.querySelectorAll('.slider[data-key]')].map((el) => el.dataset.key);
    this.ceilingBox = $('ceiling-toggles');
    this.roofBox = $('roof-toggles');
    this.applyTheme(storedTheme()); // before the charts read the colours
  }

  // theme: 'light' | 'dark' | '' (the OS's). The button says what it does: "Light theme" while
  // dark is on, "Dark theme" otherwise (data-dark keeps which is on).
  applyTheme(theme) {
    if (theme) document.documentElement.dataset.theme = theme;
    else delete document.documentElement.dataset.theme;
    const dark = theme ? theme === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
    const b = $('action-theme');
    if (!b) return;
    const next = dark ? 'light' : 'dark';
    b.dataset.dark = String(dark);
    b.textContent = `${next[0].toUpperCase()}${next.slice(1)} theme`;
    b.setAttribute('aria-label', `Switch to the ${next} theme`);
    b.title = `Switch to the ${next} theme`;
  }
  // handler() after the theme button switched light ↔ dark (the choice is remembered).
  bindTheme(handler) {
    $('action-theme')?.addEventListener('click', () => {
      const dark = $('action-theme').dataset.dark === 'true';
      const theme = dark ? 'light' : 'dark';
      setSetting(THEME_KEY, theme); // not remembered when refused (storage.js says why)
      this.applyTheme(theme);
      handler();
    });
  }
  // What the keyboard stepped to on the roofline, for screen readers (a polite live region).
  announceChart(text) { $('roofline-announce').textContent = text; }

  input(key) { return $(`input-${key}`); }

  // ---------------------------------------------------------------------------------------------
  // Filling the controls: presets, dtypes, ceiling toggles, scenarios, slider ranges (core's).
  populate({ presets, dtypes, peakKinds, scenarios, version, ranges, kernels, shapes = [] }) {
    this.populateModels(shapes);
    for (const k of kernels) this.input('kernel').append(new Option(k.name, k.name));
    for (const p of presets) this.input('hw').append(new Option(p.id === 'custom' ? 'custom (type β and π)' : `${p.name}`, p.id));
    this.input('kv-dtype').append(new Option('same as dtype', ''));
    for (const d of dtypes.filter((x) => x.bytes > 0)) {
      for (const key of ['dtype', 'kv-dtype']) this.input(key).append(new Option(`${d.name} (${d.bytes} B)`, d.name));
    }
    for (const k of peakKinds) {
      const label = document.createElement('label');
      label.className = 'check';
      const cb = document.createElement('input');
      cb.type = 'checkbox';
      cb.id = `input-ceilings-${k.id}`;
      cb.dataset.testid = `input-ceilings-${k.id}`;
      cb.value = k.id;
      label.append(cb, ` show ${k.name} ceiling`);
      this.ceilingBox.append(label);
    }
    $('version').textContent = `core ${version}`;
    $('version').dataset.value = version;
    for (const s of scenarios) {
      const b = document.createElement('button');
      b.type = 'button';
      b.id = `scenario-${s.id}`;
      b.dataset.testid = `scenario-${s.id}`;
      b.dataset.scenario = s.id;
      b.textContent = s.title;
      b.setAttribute('aria-pressed', 'false');
      $('scenario-buttons').append(b);
    }
    for (const key of this.sliders) {
      const range = this.input(`${key}-range`);
      const [lo, hi] = ranges[key];
      range.min = String(range.dataset.log ? Math.log2(lo) : lo);
      range.max = String(range.dataset.log ? Math.log2(hi) : hi);
    }
  }

  // The model selector: described shapes, then the refused ones disabled with core's reason.
  populateModels(shapes) {
    const sel = this.input('model');
    sel.append(new Option('— type the shape —', ''));
    for (const s of shapes.filter((x) => !x.unsupported)) {
      sel.append(new Option(`${s.name.replace(/ \(.*\)$/, '')}: H ${s.heads}, Hkv ${s.kvHeads}, d ${s.headDim}`, s.id));
    }
    const refused = shapes.filter((x) => x.unsupported);
    if (!refused.length) return;
    const group = document.createElement('optgroup');
    group.label = 'not describable here';
    for (const s of refused) {
      const o = new Option(`${s.name.replace(/ \(.*\)$/, '')} — ${s.unsupported.split(':')[0]}`, s.id);
      o.disabled = true;
      o.title = s.unsupported;
      group.append(o);
    }
    sel.append(group);
  }

  // shape: null (none chosen) or one of model.shapes: where the shape comes from (core's text).
  // note: core's word on what the shape leaves out here (a sliding window not applied), or ''.
  renderModelInfo(shape, note = '') {
    const key = `${shape ? shape.id : ''}|${note}`;
    if (key === this.modelInfoKey) return;
    this.modelInfoKey = key;
    const el = $('model-info');
    el.dataset.value = shape ? shape.id : '';
    el.textContent = !shape ? '' : `${shape.name}. From ${shape.source}: ${shape.fields}.`;
    if (note) {
      const p = document.createElement('strong');
      p.className = 'model-note';
      p.dataset.testid = 'model-note';
      p.textContent = ` Note: ${note}.`;
      el.append(p);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Input
  // handler(key, { slider }) after any control changed (the view has already synced the slider
  // and its number field). Unit fields are read when committed (Enter or leaving the field), not
  // on every keystroke, so "4" on the way to "4.8 TB/s" is never evaluated.
  bindControlInput(handler) {
    for (const key of this.sliders) {
      const range = this.input(`${key}-range`);
      const num = this.input(key);
      range.addEventListener('input', () => {
        num.value = range.dataset.log ? String(Math.round(2 ** Number(range.value))) : range.value;
        handler(key, { slider: true });
      });
      num.addEventListener('input', () => { this.syncSlider(key, num.value); handler(key, {}); });
    }
    for (const key of this.keys.filter((k) => !this.sliders.includes(k))) {
      const el = this.input(key);
      if (el.tagName === 'SELECT' || el.type === 'checkbox') {
        el.addEventListener('change', () => handler(key, {}));
      } else if (el.type === 'number') {
        el.addEventListener('input', () => handler(key, {}));
      } else {
        el.addEventListener('change', () => handler(key, {}));
        el.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); handler(key, {}); } });
      }
    }
    this.ceilingBox.addEventListener('change', () => handler('ceilings', {}));
    this.roofBox.addEventListener('change', () => handler('roofs', {}));
    this.form.addEventListener('submit', (e) => e.preventDefault());
  }
  bindScenario(handler) {
    $('scenario-buttons').addEventListener('click', (e) => {
      const b = e.target.closest('button[data-scenario]');
      if (b) handler(b.dataset.scenario);
    });
  }
  bindCopyLink(handler) { $('action-copy-link').addEventListener('click', handler); }
  bindExportCsv(handler) { $('action-export-csv').addEventListener('click', handler); }
  // handler('roofline' | 'sweep')
  bindExportPng(handler) {
    for (const which of ['roofline', 'sweep']) $(`action-export-png-${which}`).addEventListener('click', () => handler(which));
  }
  // handler('in' | 'out' | 'reset')
  bindZoom(handler) {
    for (const what of ['in', 'out', 'reset']) $(`action-zoom-${what}`).addEventListener('click', () => handler(what));
  }
  bindReset(handler) { $('action-reset').addEventListener('click', handler); }
  bindHashChange(handler) { window.addEventListener('hashchange', () => handler(location.hash)); }
  // handler(visible) when the worked calculation scrolls into or out of view.
  bindWorkedVisible(handler) {
    new IntersectionObserver((entries) => handler(entries[entries.length - 1].isIntersecting), { rootMargin: '200px' })
      .observe($('worked'));
  }
  bindColorScheme(handler) {
    window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
      this.applyTheme(storedTheme());
      handler();
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Controls ↔ state
  syncSlider(key, value) {
    const range = this.input(`${key}-range`);
    const v = Number(value);
    if (!range || !Number.isFinite(v) || v < 1) return;
    range.value = range.dataset.log ? String(Math.log2(v)) : String(v);
  }

  // A field the phase fixes (decode: N = 1; prefill: L = N) shows the value the model uses; what
  // was typed is kept (data-keep) and comes back when the phase frees the field.
  value(key) {
    const el = this.input(key);
    if (el.dataset.keep !== undefined) return el.dataset.keep;
    return el.type === 'checkbox' ? el.checked : el.value;
  }
  setValue(key, value) {
    const el = this.input(key);
    if (el.dataset.keep !== undefined) { el.dataset.keep = String(value); return; }
    if (el.type === 'checkbox') el.checked = !!value;
    else el.value = String(value);
    if (this.sliders.includes(key)) this.syncSlider(key, value);
  }
  // shown: { key: the value the model uses, or null (the field is free: what was typed) }
  renderFixed(shown) {
    for (const [key, v] of Object.entries(shown)) {
      const el = this.input(key);
      if (v === null) {
        if (el.dataset.keep === undefined) continue;
        const keep = el.dataset.keep;
        delete el.dataset.keep;
        this.setValue(key, keep);
      } else {
        if (el.dataset.keep === undefined) el.dataset.keep = el.value;
        if (el.value === String(v)) continue;
        el.value = String(v);
        if (this.sliders.includes(key)) this.syncSlider(key, v);
      }
    }
  }

  // The controls over `base` (keys without a control keep base's value).
  readControls(base) {
    const s = { ...base };
    for (const key of this.keys) s[key] = this.value(key);
    s.ceilings = [...this.ceilingBox.querySelectorAll('input:checked')].map((cb) => cb.value).join(',');
    s.roofs = [...this.roofBox.querySelectorAll('input:checked')].map((cb) => cb.value).join(',');
    return s;
  }
  writeControls(state) {
    for (const key of this.keys) this.setValue(key, state[key]);
    for (const [box, key] of [[this.ceilingBox, 'ceilings'], [this.roofBox, 'roofs']]) {
      const on = new Set(String(state[key] || '').split(',').filter(Boolean));
      for (const cb of box.querySelectorAll('input')) cb.checked = on.has(cb.value);
    }
  }
  // keys: { key: disabled }
  renderDisabled(keys) {
    for (const [key, off] of Object.entries(keys)) {
      const el = this.input(key);
      if (el.disabled === off) continue; // unchanged (every slider move passes here)
      el.disabled = off;
      const range = this.input(`${key}-range`);
      if (range) range.disabled = off;
      el.closest('.slider')?.classList.toggle('disabled', off);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Errors and status
  // The controls' errors (the records' and the practice panel's own messages are theirs): nothing
  // to look up when none is shown, the common case of a slider move.
  clearErrors() {
    if (!this.errorsShown) return;
    this.errorsShown = false;
    for (const el of this.form.querySelectorAll('.field-error')) { el.hidden = true; el.textContent = ''; }
    for (const el of this.form.querySelectorAll('[aria-invalid=true]')) el.removeAttribute('aria-invalid');
  }
  // An error under its field (a field without its own box: under the hardware).
  showFieldError(key, message) {
    const box = $(`error-${key}`) || $('error-hw');
    box.textContent = message;
    box.dataset.message = message; // core's words alone, without the button below
    box.hidden = false;
    this.errorsShown = true;
    const input = this.input(key);
    if (input) input.setAttribute('aria-invalid', 'true');
    // Core's "did you mean "2039 GB/s"?": a button that types it in (issue 20). Tabbing to it
    // commits the field again (change), which writes the same error afresh: the same button node
    // is put back, so the focus that moves to it finds it.
    const fix = /did you mean "([^"]+)"\?/.exec(message);
    if (fix && input && input.tagName === 'INPUT') {
      const kept = this.fixButton;
      const b = kept && kept.key === key && kept.value === fix[1] ? kept.el : this.makeFixButton(input, fix[1]);
      this.fixButton = { key, value: fix[1], el: b };
      box.append(' ', b, ' ', Object.assign(document.createElement('span'), { className: 'note', textContent: 'Until then the chart still shows the last good value.' }));
    }
  }
  makeFixButton(input, value) {
    const b = Object.assign(document.createElement('button'), { type: 'button', className: 'link did-you-mean', textContent: `Use ${value}` });
    b.dataset.testid = 'did-you-mean';
    b.dataset.value = value;
    const apply = () => {
      if (input.value === value) return;
      input.value = value;
      for (const type of ['input', 'change']) input.dispatchEvent(new Event(type, { bubbles: true }));
      input.focus();
    };
    // A pointer press applies at once and keeps the focus in the field (no blur, so no second
    // commit of the old text); a keyboard press (Enter, Space) is a click.
    b.addEventListener('pointerdown', (e) => { if (e.button === 0) { e.preventDefault(); apply(); } });
    b.addEventListener('click', apply);
    return b;
  }
  shownErrors() {
    return [...this.form.querySelectorAll('.field-error:not([hidden])')].filter((e) => e.id).map((e) => [e.id, e.dataset.message ?? e.textContent]);
  }
  restoreErrors(list) {
    for (const [id, text] of list) this.showFieldError(id.replace(/^error-/, ''), text);
    if (list.length) this.errorsShown = true;
  }
  // kind: 'ok' | 'error'
  renderStatus(text, kind) {
    const st = $('status');
    if (st.dataset.value === kind && st.textContent === text) return; // "Ready" again: not re-announced
    st.textContent = text;
    st.classList.toggle('error', kind === 'error');
    st.dataset.value = kind;
  }
  renderLinkStatus(text, url) {
    const s = $('link-status');
    s.textContent = text;
    s.dataset.value = url;
  }

  // ---------------------------------------------------------------------------------------------
  // Results. A number is { testid, value, text }: shown as text, its exact value in data-value.
  num(n) { return `<span class="num" data-testid="${esc(n.testid)}" data-value="${esc(n.value)}">${esc(n.text)}</span>`; }

  // vm: { ceilings: [{ id, available, title }], bandwidthPlaceholder, peakPlaceholder, info }
  // info: null (custom) or { arch, bandwidth, sms, smemDefault, smemOptin, l2 (numbers), source,
  // sourceDate, notes }.
  renderPreset(vm) {
    for (const cb of this.ceilingBox.querySelectorAll('input')) {
      const c = vm.ceilings.find((x) => x.id === cb.value);
      cb.disabled = !c.available;
      cb.parentElement.title = c.title;
    }
    this.input('bandwidth').placeholder = vm.bandwidthPlaceholder;
    this.input('peak').placeholder = vm.peakPlaceholder;
    const i = vm.info;
    // Two lines: the figures the roof uses; the rest (shared memory, source, notes) under "more".
    $('preset-info').innerHTML = !i
      ? 'Custom: type the bandwidth and the peak.'
      : `${esc(i.arch)}; ${this.num(i.bandwidth)}; ${this.num(i.sms)} SMs; L2 ${this.num(i.l2)}.` +
        '<details class="preset-more" data-testid="preset-more"><summary>more: shared memory, source, notes</summary>' +
        `Shared memory per block ${this.num(i.smemDefault)} default, ${this.num(i.smemOptin)} opt-in. ` +
        `Source: ${esc(i.source)} (${esc(i.sourceDate)}).${i.notes ? ` Note: ${esc(i.notes)}` : ''}</details>`;
  }

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

  // items: [[swatch class, plain text, colour or '']]; a colour is the series' own (set through
  // the CSSOM: the page's CSP allows no style attributes).
  // The same swatches as last time (a ring or a trail came or went, a figure changed): the texts
  // are patched in place.
  renderLegend(items) {
    const dl = $('roofline-legend');
    const key = items.map(([k, , c]) => `${k}|${c || ''}`).join(',');
    if (key === this.legendShape && dl.children.length === 2 * items.length) {
      items.forEach(([, t], i) => setText(dl.children[2 * i + 1], t));
      return;
    }
    this.legendShape = key;
    // built as nodes, the texts as text (they carry record and file names): never innerHTML
    dl.replaceChildren(...items.flatMap(([k, t, c]) => {
      const sw = document.createElement('span');
      sw.className = `swatch ${k}`;
      if (c) sw.style.setProperty('--sw', c);
      const dt = document.createElement('dt');
      dt.append(sw);
      const dd = document.createElement('dd');
      dd.textContent = t;
      return [dt, dd];
    }));
  }

  renderWorked(html) { $('worked').innerHTML = html; }

  renderKernelDescription(text) {
    const el = $('kernel-description');
    if (el.textContent !== text) el.textContent = text;
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

  // s: null or { id, title, text: [paragraphs] }
  renderScenario(s) {
    for (const b of $('scenario-buttons').querySelectorAll('button')) b.setAttribute('aria-pressed', String(!!s && b.dataset.scenario === s.id));
    const box = $('scenario-text');
    box.replaceChildren();
    box.dataset.value = s ? s.id : '';
    if (!s) return;
    const h = document.createElement('h3');
    h.textContent = s.title;
    box.append(h);
    for (const t of s.text) {
      const p = document.createElement('p');
      p.textContent = t;
      box.append(p);
    }
  }

  renderFatal(message) { this.renderStatus(message, 'error'); }
}
