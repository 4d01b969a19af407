// main.js — wires the model (model.js), the state (state.js), the charts (charts.js), the worked
// calculation (explain.js), the scenarios and the file I/O together. It owns the DOM controls.

import createRooflab from '../wasm/rooflab.mjs';
import { loadModel } from './model.js';
import { SEQ_MIN, SEQ_MAX, defaultState, fromFragment, toFragment, resolve } from './state.js';
import { RooflineChart, SweepChart, buildViews, chartPng } from './charts.js';
import { workedHtml, makeFormatters } from './explain.js';
import { SCENARIOS } from './scenarios.js';
import { download, csvBlob, copyText } from './io.js';
import { initRecords } from './records.js';

const SWEEP_POINTS = 256;
const MODELS = ['compulsory', 'tiled', 'naive'];
const $ = (id) => document.getElementById(id);

// Controls: URL key → element. Sliders pair a range with a number field.
const SLIDERS = ['seq', 'kv-len', 'batch', 'heads', 'kv-heads', 'head-dim'];
const FIELDS = ['phase', 'seq', 'kv-len', 'batch', 'heads', 'kv-heads', 'head-dim', 'dtype', 'kv-dtype',
  'causal', 'pass', 'block-m', 'block-n', 'hw', 'bandwidth', 'peak'];

class App {
  constructor(model) {
    this.model = model;
    this.fmt = makeFormatters(model);
    this.state = defaultState();
    this.good = null; // last good { state, resolved, result }
    this.roofline = new RooflineChart($('roofline'), model);
    this.sweepChart = new SweepChart($('sweep'), model);
    this.measuredHooks = [];
    this.populate();
    this.bind();
  }

  // ---------------------------------------------------------------------------------------------
  populate() {
    const m = this.model;
    const hw = $('input-hw');
    for (const p of m.presets) hw.append(new Option(p.id === 'custom' ? 'custom (type β and π)' : `${p.name}`, p.id));
    const dt = $('input-dtype');
    const kdt = $('input-kv-dtype');
    kdt.append(new Option('same as dtype', ''));
    for (const d of m.dtypes) {
      if (d.bytes > 0) {
        dt.append(new Option(`${d.name} (${d.bytes} B)`, d.name));
        kdt.append(new Option(`${d.name} (${d.bytes} B)`, d.name));
      }
    }
    const box = $('ceiling-toggles');
    for (const k of m.peakKinds) {
      const label = document.createElement('label');
      label.className = 'check';
      const cb = document.createElement('input');
      cb.type = 'checkbox';
      cb.id = `input-ceilings-${k.id}`;
      cb.dataset.testid = `input-ceilings-${k.id}`;
      cb.value = k.id;
      label.append(cb, ` show ${k.name} ceiling`);
      box.append(label);
    }
    $('version').textContent = `core ${m.version}`;
    $('version').dataset.value = m.version;
    const sc = $('scenario-buttons');
    for (const s of SCENARIOS) {
      const b = document.createElement('button');
      b.type = 'button';
      b.id = `scenario-${s.id}`;
      b.dataset.testid = `scenario-${s.id}`;
      b.textContent = s.title;
      b.setAttribute('aria-pressed', 'false');
      b.addEventListener('click', () => this.loadScenario(s));
      sc.append(b);
    }
  }

  bind() {
    const onChange = (key) => () => this.fromControls(key);
    for (const key of SLIDERS) {
      const range = $(`input-${key}-range`);
      const num = $(`input-${key}`);
      range.addEventListener('input', () => {
        num.value = range.dataset.log ? String(Math.round(2 ** Number(range.value))) : range.value;
        this.fromControls(key, { slider: true });
      });
      num.addEventListener('input', () => {
        this.syncSlider(key, num.value);
        this.fromControls(key);
      });
    }
    for (const key of ['phase', 'dtype', 'kv-dtype', 'pass', 'hw', 'causal']) {
      $(`input-${key}`).addEventListener('change', onChange(key));
    }
    for (const key of ['block-m', 'block-n']) $(`input-${key}`).addEventListener('input', onChange(key));
    // Unit fields are read when committed (Enter or leaving the field), not on every keystroke,
    // so "4" on the way to "4.8 TB/s" is never evaluated.
    for (const key of ['bandwidth', 'peak']) {
      const el = $(`input-${key}`);
      el.addEventListener('change', onChange(key));
      el.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); this.fromControls(key); } });
    }
    $('ceiling-toggles').addEventListener('change', onChange('ceilings'));
    $('controls').addEventListener('submit', (e) => e.preventDefault());
    $('action-copy-link').addEventListener('click', () => this.copyLink());
    $('action-export-csv').addEventListener('click', () => this.exportCsv());
    $('action-export-png-roofline').addEventListener('click', () => this.exportPng(this.roofline.chart, 'rooflab-roofline.png'));
    $('action-export-png-sweep').addEventListener('click', () => this.exportPng(this.sweepChart.chart, 'rooflab-sweep.png'));
    $('action-zoom-in').addEventListener('click', () => this.roofline.zoom(1.25));
    $('action-zoom-out').addEventListener('click', () => this.roofline.zoom(0.8));
    $('action-zoom-reset').addEventListener('click', () => this.roofline.resetZoom());
    $('action-reset').addEventListener('click', () => this.load(defaultState(), { scenario: null }));
    window.addEventListener('hashchange', () => {
      if (location.hash.replace(/^#/, '') !== toFragment(this.state)) this.load(fromFragment(location.hash));
    });
    new IntersectionObserver((entries) => {
      this.workedVisible = entries[entries.length - 1].isIntersecting;
      if (this.workedVisible && this.workedDirty) this.renderWorked();
    }, { rootMargin: '200px' }).observe($('worked'));
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    mq.addEventListener('change', () => { this.roofline.recolor(); this.sweepChart.recolor(); });
  }

  syncSlider(key, value) {
    const range = $(`input-${key}-range`);
    const v = Number(value);
    if (!Number.isFinite(v) || v < 1) return;
    range.value = range.dataset.log ? String(Math.log2(v)) : String(v);
  }

  // ---------------------------------------------------------------------------------------------
  // State ↔ controls
  writeControls(state) {
    for (const key of FIELDS) {
      const el = $(`input-${key}`);
      if (el.type === 'checkbox') el.checked = !!state[key];
      else el.value = String(state[key]);
      if (SLIDERS.includes(key)) this.syncSlider(key, state[key]);
    }
    const on = new Set(String(state.ceilings || '').split(',').filter(Boolean));
    for (const cb of $('ceiling-toggles').querySelectorAll('input')) cb.checked = on.has(cb.value);
    this.prevHeads = state.heads;
    this.updateEnabled(state);
  }

  readControls() {
    const s = { ...this.state };
    for (const key of FIELDS) {
      const el = $(`input-${key}`);
      s[key] = el.type === 'checkbox' ? el.checked : el.value;
    }
    s.ceilings = [...$('ceiling-toggles').querySelectorAll('input:checked')].map((cb) => cb.value).join(',');
    return s;
  }

  updateEnabled(state) {
    const decode = state.phase === 'decode';
    for (const [key, off] of [['seq', decode], ['kv-len', !decode]]) {
      $(`input-${key}`).disabled = off;
      $(`input-${key}-range`).disabled = off;
      $(`input-${key}`).closest('.slider').classList.toggle('disabled', off);
    }
  }

  fromControls(changed, { slider = false } = {}) {
    if (changed === 'hw') {
      // A new machine: its own figures, not the previous override.
      $('input-bandwidth').value = '';
      $('input-peak').value = '';
    }
    if (changed === 'heads') {
      const kv = $('input-kv-heads');
      if (String(kv.value) === String(this.prevHeads)) {
        kv.value = $('input-heads').value;
        this.syncSlider('kv-heads', kv.value);
      }
      this.prevHeads = $('input-heads').value;
    }
    const s = this.readControls();
    this.updateEnabled(s);
    this.apply(s, { throttleUrl: slider });
  }

  // ---------------------------------------------------------------------------------------------
  clearErrors() {
    for (const el of document.querySelectorAll('.field-error')) { el.hidden = true; el.textContent = ''; }
    for (const el of document.querySelectorAll('[aria-invalid=true]')) el.removeAttribute('aria-invalid');
  }

  showError(field, message) {
    const key = FIELDS.includes(field) ? field : (field === 'kv_heads' ? 'kv-heads' : field);
    const box = $(`error-${key}`) || $('error-hw');
    box.textContent = message;
    box.hidden = false;
    const input = $(`input-${key}`);
    if (input) input.setAttribute('aria-invalid', 'true');
    const st = $('status');
    st.textContent = this.good ? 'Input not applied — the chart shows the last good state.' : message;
    st.classList.add('error');
    st.dataset.value = 'error';
  }

  // Evaluate a candidate state; on success it becomes the state and everything is redrawn.
  apply(candidate, { updateUrl = true, throttleUrl = false } = {}) {
    const res = resolve(this.model, candidate);
    let ev = res.ok ? this.model.evaluate(res.params) : res;
    let sw = null;
    if (ev.ok) {
      // The sweep does not depend on the swept parameter's own value: moving N reuses it.
      const swept = candidate.phase === 'decode' ? 'kv-len' : 'seq';
      const key = JSON.stringify({ ...res.params, [swept]: 0 });
      if (this.sweepCache && this.sweepCache.key === key) {
        sw = this.sweepCache.sweep;
      } else {
        sw = this.model.sweep(res.params, swept, SEQ_MIN, SEQ_MAX, SWEEP_POINTS, true);
        if (sw.ok) this.sweepCache = { key, sweep: sw };
      }
      if (!sw.ok) ev = sw;
    }
    if (!ev.ok) {
      this.clearErrors();
      this.showError(ev.field, ev.message);
      return false;
    }
    this.clearErrors();
    const st = $('status');
    st.textContent = 'Ready';
    st.classList.remove('error');
    st.dataset.value = 'ok';
    this.state = candidate;
    this.good = { state: candidate, resolved: res, result: ev.r, rows: sw.rows };
    this.render();
    if (updateUrl) this.scheduleUrl(toFragment(candidate), throttleUrl);
    return true;
  }

  // The fragment follows every change; while a slider is dragged it is written at most every
  // 100 ms (browsers throttle history updates). flush() writes a pending one at once.
  scheduleUrl(frag, throttle) {
    this.pendingFrag = frag;
    const now = performance.now();
    if (!throttle || now - (this.lastUrlWrite || -1e9) >= 100) {
      this.writeUrl();
    } else if (!this.urlTimer) {
      this.urlTimer = setTimeout(() => this.writeUrl(), 100);
    }
  }

  writeUrl() {
    clearTimeout(this.urlTimer);
    this.urlTimer = null;
    const frag = this.pendingFrag;
    if (frag === undefined) return;
    this.pendingFrag = undefined;
    this.lastUrlWrite = performance.now();
    if (location.hash.replace(/^#/, '') !== frag) history.replaceState(null, '', frag ? `#${frag}` : location.pathname + location.search);
  }

  // Brings everything deferred up to date (the URL, an off-screen worked calculation).
  flush() {
    this.writeUrl();
    if (this.workedDirty) this.renderWorked();
  }

  renderWorked() {
    const { resolved, result } = this.good;
    $('worked').innerHTML = workedHtml(this.model, result, resolved.roof, resolved.preset);
    this.workedDirty = false;
  }

  load(state, { scenario } = {}) {
    this.writeControls(state);
    if (scenario !== undefined) this.markScenario(scenario);
    // The state as given (a number field cannot hold "abc"; the message should quote it).
    if (!this.apply({ ...defaultState(), ...state }) && !this.good) {
      // Nothing good yet (a bad link): draw the defaults, keep the error and the bad field shown.
      const keep = [...document.querySelectorAll('.field-error:not([hidden])')].map((e) => [e.id, e.textContent]);
      const bad = this.readControls();
      this.apply(defaultState(), { updateUrl: false });
      this.state = bad;
      for (const [id, text] of keep) { $(id).textContent = text; $(id).hidden = false; }
      const st = $('status');
      st.textContent = `The link's state is invalid (${keep.map((k) => k[1]).join('; ')}); showing the defaults.`;
      st.classList.add('error');
      st.dataset.value = 'error';
    }
  }

  loadScenario(s) {
    const state = { ...defaultState(), ...s.state };
    if (!('kv-heads' in s.state)) state['kv-heads'] = state.heads;
    this.load(state, { scenario: s });
  }

  markScenario(s) {
    for (const b of $('scenario-buttons').querySelectorAll('button')) b.setAttribute('aria-pressed', String(!!s && b.id === `scenario-${s.id}`));
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

  // ---------------------------------------------------------------------------------------------
  // Rendering
  render() {
    const { resolved, result: r, rows, state } = this.good;
    const m = this.model;
    const f = this.fmt;
    const roof = resolved.roof;
    const preset = resolved.preset;
    // Charts first: their layout reads come before the DOM below is changed.
    const ceilings = String(state.ceilings || '').split(',').filter(Boolean)
      .map((id) => m.peakKinds.find((k) => k.id === id))
      .filter((k) => k && preset.peaks[k.id] > 0)
      .map((k) => ({ id: k.id, name: k.name, peak: preset.peaks[k.id] }));
    const decode = state.phase === 'decode';
    const sweptKey = decode ? 'kv-len' : 'seq';
    const currentX = decode ? r['problem.kv_len'] : r['problem.seq'];
    const views = buildViews(m, r, rows, roof, ceilings, sweptKey, currentX);
    this.roofline.update(views.roofline);
    this.sweepChart.update(views.sweep);
    this.renderLegend(views.roofline);
    // The worked calculation is long: while it is off screen it is written when it scrolls in.
    if (this.workedVisible === false) this.workedDirty = true;
    else this.renderWorked();
    const presetKey = `${preset.id}|${r['problem.dtype']}|${roof.peakName}`;
    if (presetKey !== this.presetKey) {
      this.presetKey = presetKey;
      this.renderPreset(preset, r, roof);
    }
    this.renderNumbers(r, roof);
  }

  renderPreset(preset, r, roof) {
    const m = this.model;
    const f = this.fmt;
    for (const cb of $('ceiling-toggles').querySelectorAll('input')) {
      const avail = preset.peaks[cb.value] > 0;
      cb.disabled = !avail;
      cb.parentElement.title = avail ? m.format(preset.peaks[cb.value], 'FLOP/s') : `${preset.id} has no such figure`;
    }
    // Placeholders show the preset's figures the empty unit fields stand for.
    $('input-bandwidth').placeholder = preset.bandwidth > 0 ? m.format(preset.bandwidth, 'B/s') : 'e.g. 3.35 TB/s';
    const pk = m.peakForDtype(preset.index, r['problem.dtype']);
    $('input-peak').placeholder = pk > 0 ? `${m.format(pk, 'FLOP/s')} (${roof.peakName})` : 'e.g. 989 TFLOP/s';
    const esc = (t) => String(t).replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]);
    $('preset-info').innerHTML = preset.id === 'custom'
      ? 'Custom: type the bandwidth and the peak.'
      : `${esc(preset.arch)}; ${f.span('preset-bandwidth', preset.bandwidth, m.format(preset.bandwidth, 'B/s'))}; ` +
        `${f.span('preset-sms', preset.sms, f.int(preset.sms))} SMs; shared memory per block ${f.span('preset-smem-default', preset.smemPerBlockDefault, m.format(preset.smemPerBlockDefault, 'B', { iec: true }))} default, ` +
        `${f.span('preset-smem-optin', preset.smemPerBlockOptin, m.format(preset.smemPerBlockOptin, 'B', { iec: true }))} opt-in; L2 ${f.span('preset-l2', preset.l2, m.format(preset.l2, 'B', { iec: true }))}. ` +
        `Source: ${esc(preset.source)} (${esc(preset.sourceDate)}).${preset.notes ? ` Note: ${esc(preset.notes)}` : ''}`;
  }

  renderNumbers(r, roof) {
    const m = this.model;
    const f = this.fmt;
    // Summary cards
    const card = (testid, label, value, text) => `<div><dt>${label}</dt><dd>${f.span(testid, value, text)}</dd></div>`;
    const tiledOk = r['tiled.available'] === 1;
    $('summary').innerHTML = [
      card('flops', 'FLOPs F', r.flops, m.format(r.flops, 'FLOP')),
      card('pairs', 'scored pairs P', r.pairs, f.int(r.pairs)),
      card('softmax-flops', 'softmax FLOPs (not in F)', r.softmax_flops, m.format(r.softmax_flops, 'FLOP')),
      card('bandwidth', 'bandwidth β', r.bandwidth_bytes_per_s, m.format(r.bandwidth_bytes_per_s, 'B/s')),
      card('peak', `peak π (${roof.peakName})`, r.peak_flops_per_s, m.format(r.peak_flops_per_s, 'FLOP/s')),
      card('ridge', 'ridge I* = π/β', r.ridge_flop_per_byte, m.format(r.ridge_flop_per_byte, 'FLOP/B')),
      tiledOk ? card('kv-reload-tiled', 'tiled K/V reads (× L)', r['tiled.kv_reload_factor'], m.format(r['tiled.kv_reload_factor'], '', { sig: 6 })) : '',
      card('sram-total', `SRAM per tile (${r['sram.fits_default'] ? 'fits' : (r['sram.fits_optin'] ? 'opt-in' : 'does not fit')})`, r['sram.total_bytes'], m.format(r['sram.total_bytes'], 'B', { iec: true })),
    ].join('');

    // Model table
    const head = `<thead><tr><th scope="col">per pass</th>${MODELS.map((x) => `<th scope="col">${x}</th>`).join('')}</tr></thead>`;
    const row = (label, key, cell) => `<tr><th scope="row">${label}</th>${MODELS.map((x) => {
      if (!r[`${x}.available`]) return `<td>${f.span(`${key}-${x}`, '', 'not modelled')}</td>`;
      return `<td>${cell(x)}</td>`;
    }).join('')}</tr>`;
    $('model-table').innerHTML = head + '<tbody>' + [
      row('bytes', 'bytes', (x) => f.span(`bytes-${x}`, r[`${x}.bytes`], f.bytes(r[`${x}.bytes`]))),
      row('intensity', 'intensity', (x) => f.span(`intensity-${x}`, r[`${x}.intensity_flop_per_byte`], m.format(r[`${x}.intensity_flop_per_byte`], 'FLOP/B'))),
      row('attainable', 'attainable', (x) => f.span(`attainable-${x}`, r[`${x}.attainable_flops_per_s`], m.format(r[`${x}.attainable_flops_per_s`], 'FLOP/s'))),
      row('bound time', 'time', (x) => f.span(`time-${x}`, r[`${x}.time_s`], m.format(r[`${x}.time_s`], 's'))),
      row('bound', 'bound', (x) => {
        const b = m.bounds[r[`${x}.bound`]];
        return `<span class="bound-${b}">${f.span(`bound-${x}`, b, b)}</span>`;
      }),
    ].join('') + '</tbody>';


  }

  renderLegend(v) {
    const key = `${v.staticKey}|${v.sweptKey}|${this.roofline.measured.length}`;
    if (key === this.legendKey) return; // the legend only changes with the roof, ceilings, records
    this.legendKey = key;
    const m = this.model;
    const items = [
      ['roof', `Roof: the bandwidth slope β·I (${m.format(v.roof.bandwidth, 'B/s')}) up to the ridge, then the compute roof π (${m.format(v.roof.peak, 'FLOP/s')}, ${v.roof.peakName}).`],
      ['ridge', `Ridge I* = π/β = ${m.format(v.ridge, 'FLOP/B')}: left of it a kernel waits on memory, right of it on arithmetic.`],
      ['compulsory', 'Compulsory (●): every tensor moved once — the lower bound of any kernel’s traffic, the highest intensity it can reach.'],
      ['tiled', 'Tiled (▲): FlashAttention-1/2 forward, K and V re-streamed once per query block — an upper bound of a real kernel (no L2 or GQA reuse).'],
      ['naive', 'Naive (◆): S and P written to and read back from device memory.'],
      ['band', 'Shaded band: between tiled and compulsory — what caches, larger tiles and head grouping could still win.'],
      ['trail', `Faint trails: where each model’s point travels as ${v.sweptKey === 'kv-len' ? 'the KV length L' : 'N'} sweeps ${SEQ_MIN.toLocaleString('en-US')} … ${SEQ_MAX.toLocaleString('en-US')}; the regime changes where a trail crosses the ridge.`],
    ];
    for (const c of v.ceilingLines) items.push(['ceiling', `Dashed: the ${c.name} ceiling (${m.format(c.peak, 'FLOP/s')}), for kernels that do not use the main compute unit.`]);
    // Record labels come from uploaded files: escaped, never markup.
    const esc = (t) => String(t).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
    for (const x of this.roofline.measured) items.push(['roof', esc(`${x.label}${x.hollow ? ' (hollow: historical, unaudited — not evidence)' : ''}`)]);
    $('roofline-legend').innerHTML = items.map(([k, t]) => `<dt><span class="swatch ${k}"></span></dt><dd>${t}</dd>`).join('');
  }

  // ---------------------------------------------------------------------------------------------
  async copyLink() {
    const url = location.href;
    const ok = await copyText(url);
    const s = $('link-status');
    s.textContent = ok ? 'Link copied.' : `Copy this link: ${url}`;
    s.dataset.value = url;
  }

  exportCsv() {
    const rows = [...this.roofline.csvRows(), ...this.sweepChart.csvRows()];
    download(csvBlob(['chart', 'series', 'x', 'y', 'x_unit', 'y_unit', 'swept_value'], rows), 'rooflab-points.csv');
  }

  async exportPng(chart, name) {
    const blob = await chartPng(chart);
    download(blob, name);
  }

  // For other modules (records): draw measured point datasets on the roofline.
  setMeasured(list) {
    this.roofline.setMeasured(list);
    if (this.good) this.renderLegend(this.roofline.view);
  }
}

async function start() {
  const status = $('status');
  try {
    const model = await loadModel(createRooflab);
    const app = new App(model);
    window.rooflab = app; // for tests, benchmarks and other modules
    app.load(fromFragment(location.hash));
    await initRecords(app, model);
    document.documentElement.dataset.ready = '1';
  } catch (e) {
    status.textContent = `The model failed to load: ${e.message}`;
    status.classList.add('error');
    throw e;
  }
}

start();
