// view.js — owns the page's DOM (except the records list, records.js, the two canvases,
// charts.js, and the result panels a slider move patches, view-results.js). bind…(handler) methods hand user input to the controller; render…(viewModel)
// methods show what the controller prepared. The controls are found in the HTML: every form
// element with a name is a URL key, every .slider[data-key] pairs a range with a number field.
import { escapeHtml as esc } from './html.js';
import { $ } from './dom.js';
import { getSetting, setSetting, removeSetting } from './storage.js';

import { ResultsView, num, setText } from './view-results.js';

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
    this.results = new ResultsView(); // the summary, the traffic table, the ledger, the best tile
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

  // The layer kind of the chosen model: null (no window layers: hidden) or { window, local, allLocal }.
  renderLayerKind(kind) {
    const row = $('layer-kind-row');
    const key = kind ? `${kind.window}|${kind.local}|${kind.allLocal}` : '';
    if (key === this.layerKindKey) return;
    this.layerKindKey = key;
    row.hidden = !kind;
    if (!kind) return;
    const sel = $('input-layer-kind');
    sel.options[0].textContent = kind.allLocal ? 'global (every key; this model has no such layer)' : 'global (every key)';
    sel.options[1].textContent = `local (sliding window ${kind.window})`;
    sel.value = kind.local ? 'local' : 'global';
  }

  // The "attention variant" group: closed for a beginner, opened when a link, a model or a tour
  // sets a variant (never closed by the page once a person opened it, except by a state without one).
  openVariants() { $('variants').open = true; }
  renderVariantsOpen(open) { if (open) $('variants').open = true; }

  // ---------------------------------------------------------------------------------------------
  // Input
  // handler(key, value, { slider }) after a control changed: its URL key and what it now says (the
  // view has already synced the slider and its number field; the ceiling and roof toggles hand
  // their checked ids as a comma list). Unit fields are handed when committed (Enter or leaving the
  // field), not on every keystroke, so "4" on the way to "4.8 TB/s" is never evaluated.
  bindControlInput(handler) {
    for (const key of this.sliders) {
      const range = this.input(`${key}-range`);
      const num = this.input(key);
      range.addEventListener('input', () => {
        num.value = range.dataset.log ? String(Math.round(2 ** Number(range.value))) : range.value;
        handler(key, num.value, { slider: true });
      });
      num.addEventListener('input', () => { this.syncSlider(key, num.value); handler(key, num.value, {}); });
    }
    for (const key of this.keys.filter((k) => !this.sliders.includes(k))) {
      const el = this.input(key);
      const hand = () => handler(key, this.value(key), {});
      if (el.tagName === 'SELECT' || el.type === 'checkbox') {
        el.addEventListener('change', hand);
      } else if (el.type === 'number') {
        el.addEventListener('input', hand);
      } else {
        el.addEventListener('change', hand);
        el.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); hand(); } });
      }
    }
    const checked = (box) => [...box.querySelectorAll('input:checked')].map((cb) => cb.value).join(',');
    this.ceilingBox.addEventListener('change', () => handler('ceilings', checked(this.ceilingBox), {}));
    this.roofBox.addEventListener('change', () => handler('roofs', checked(this.roofBox), {}));
    this.form.addEventListener('submit', (e) => e.preventDefault());
  }
  // handler('global' | 'local') when the layer kind of a model with window layers is chosen.
  bindLayerKind(handler) { $('input-layer-kind').addEventListener('change', (e) => handler(e.target.value)); }
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

  value(key) {
    const el = this.input(key);
    return el.type === 'checkbox' ? el.checked : el.value;
  }
  // Only what differs is written (a slider move passes here for the fields it changes).
  setValue(key, value) {
    const el = this.input(key);
    if (el.type === 'checkbox') el.checked = !!value;
    else if (el.value !== String(value)) el.value = String(value);
    if (this.sliders.includes(key)) this.syncSlider(key, value);
  }
  // The controls of the keys `state` names show its values (the rest are left as they are).
  writeControls(state) {
    for (const key of this.keys) if (key in state) this.setValue(key, state[key]);
    for (const [box, key] of [[this.ceilingBox, 'ceilings'], [this.roofBox, 'roofs']]) {
      if (!(key in state)) continue;
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
  num(n) { return num(n); }

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
