// records.js — measured records on the page: upload (file picker and drag-and-drop, several files
// at once), the examples menu, the file list (provenance, hardware, kernel, visibility, remove,
// errors with their JSON paths), measured points on the roofline with tooltips, "adopt" (set the
// controls to a point's problem), measured ceilings as the roof, and persistence in the browser
// (record-keep.js: IndexedDB; every stored entry is checked again on load, in batches while the
// page is already usable, and a bad one is dropped with a message naming it; other tabs'
// additions, removals and "Clear all" are merged). Many files at once are listed and drawn in
// batches (renderLater), never a render per file.
//
// Every check is core's C reader and validator through model.checkRecord (in records-worker.js, or
// on the main thread when a worker cannot start): this file holds no record rules, limits or model
// arithmetic. Record strings reach the DOM only through textContent and attributes, never as HTML.
// It talks to the page's controller only through callbacks:
//   onAdopt(problem, presetId) → notes   a point's problem (JSON keys) becomes the page's state
//   onUseCeiling(field, text)            a measured ceiling becomes the typed bandwidth or peak
//   onChange(list)                       the measured datasets to draw (see charts.js)
//   onCompareState(value, ownRoof)       compare mode changed by hand (the link keeps it)

import { recordId, recordIdSteps, hashSteps, runSteps } from './record-store.js';
import { Keeper } from './record-keep.js';
import { groupSeries, GROUP_AT } from './record-groups.js';
import { showStorageNote } from './storage.js';
import { CheckPool, CheckStopped } from './check-pool.js';
import { yieldTask, SLICE_MS, summaryOf, summarySteps, fig, pointDevice } from './record-pack.js';
import { ImportForm, currentAnswers } from './import-form.js';
import { SPAN } from './chart-data.js';
import { Compare, shortName } from './compare.js';

const MAX_ROWS = 200; // points listed per file (all of them are drawn)
const ADD_CHUNK = 25; // files listed per task when many are chosen at once
const LIST_SLICE_MS = 12; // renderList: time for remaking changed items per render
const RENDER_GAP_MS = 40; // renderLater: at least this long between two renders (style and layout follow each)
// Records take the CSS palette --rec1 … --rec8 (apart from the model's colours in both schemes).
const PALETTE_SIZE = 8;
const UNDO_MS = 10000; // how long "Clear all" can be undone
const cssVar = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
const $ = (id) => document.getElementById(id);
// A record's optional device details (hardware.sm_count, sm_clock_hz, memory_clock_hz in Hz,
// threads) in words, e.g. "132 SMs, SM clock 1.98 GHz, memory clock 3.2 GHz"; '' when none.
const hz = (v) => (v >= 1e9 ? `${+(v / 1e9).toPrecision(4)} GHz` : `${+(v / 1e6).toPrecision(4)} MHz`);
function deviceDetails(hw) {
  const parts = [];
  if (!hw) return '';
  if (hw.compute_capability) parts.push(`compute capability ${hw.compute_capability}`);
  if (hw.sm_count) parts.push(`${hw.sm_count} SMs`);
  if (hw.sm_clock_hz) parts.push(`SM clock ${hz(hw.sm_clock_hz)}`);
  if (hw.memory_clock_hz) parts.push(`memory clock ${hz(hw.memory_clock_hz)}`);
  if (hw.threads) parts.push(`${hw.threads} CPU thread${hw.threads === 1 ? '' : 's'}`);
  return parts.join(', ');
}

// Every text this file puts on the page (file names, kernel names, labels, messages quoting them)
// goes through core's escaper (model.escapeText, the CLI's rl_text_escape): invisible and
// direction characters named, never rendered; set by the Records constructor.
let esc = (s) => s;

function el(tag, props = {}, ...children) {
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
}

const MARK_STEP = 250; // marks made per step of markSteps (sliced by prepare())

// One mark on the roofline (charts.js reads x, y, text, kernel, name, device, eff): a measured
// point (rec.points[i]), or its prediction (the ☆). Its tooltip lines are made when read; it
// keeps the point's index, not the point (a large record's points are parsed when read:
// record-pack.js's lazyPoints).
class Mark {
  #owner; #rec; #i; #warn; #predicted;
  constructor(owner, rec, i, warn, x, y, eff, kernel, name, device, predicted) {
    this.x = x;
    this.y = y;
    this.kernel = kernel;
    this.name = name;
    this.device = device;
    this.eff = eff;
    this.#owner = owner;
    this.#rec = rec;
    this.#i = i;
    this.#warn = warn || [];
    this.#predicted = predicted;
  }

  get text() {
    const p = this.#rec.points[this.#i];
    const lines = this.#predicted ? this.#owner.predictedText(this.#rec, p) : this.#owner.pointText(this.#rec, p, this.#warn);
    return (this.file && this.#owner.grouped ? [`file: ${this.file}`, ...lines] : lines).map(esc); // record-groups.js
  }
}

export class Records {
  constructor(model, { onAdopt, onUseCeiling, onChange, onCompareState = () => {} }) {
    this.model = model;
    esc = (s) => model.escapeText(s);
    this.callbacks = { onAdopt, onUseCeiling, onChange, onCompareState };
    this.limits = model.recordLimits;
    this.maxBytes = this.limits.max_file_bytes;
    // The time one file's check may take (core's figure through the WASM module); a test may
    // shorten it with window.rooflabTest = { checkLimitMs } set before the page loads.
    const hook = typeof window !== 'undefined' && window.rooflabTest && window.rooflabTest.checkLimitMs;
    this.limitMs = hook > 0 ? hook : 1000 * this.limits.max_check_seconds;
    this.checker = new CheckPool(model, { limitMs: this.limitMs });
    this.ticker = null; // updates the pending files' elapsed time once a second
    this.files = []; // { id, storeId, added, name, source, report, visible, color, text, keep (record-keep.js) }
    this.nextId = 1;
    this.queue = Promise.resolve(); // restores and merges from other tabs, one after another
    this.keeper = new Keeper(this);
    this.dropped = []; // [{ key, text }]: stored entries that could not be restored
    this.bind();
    this.isolated = new Set(); // kernels isolated in the kernels list (none: all shown)
    this.compare = new Compare(model, {
      sources: () => this.compareSources(), onChange: () => this.renderChart(),
      onState: (value, ownRoof) => this.callbacks.onCompareState(value, ownRoof),
    });
    const L = this.limits;
    $('ncu-command').textContent = model.ncuCommand;
    $('records-limits').textContent = `Limits: ${model.format(L.max_file_bytes, 'B', { iec: true })} per file, ${L.max_points.toLocaleString('en-US')} points, nesting depth ${L.max_depth}, ${model.format(this.limitMs / 1000, 's')} of checking per file. Checked by core's C validator (the same as rooflab validate), each file on its own.`;
  }

  bind() {
    const input = $('input-upload');
    input.addEventListener('change', () => {
      const files = [...input.files];
      input.value = '';
      this.addFiles(files);
    });
    const zone = $('records-drop');
    const over = (e) => { e.preventDefault(); zone.classList.add('dragging'); };
    zone.addEventListener('dragenter', over);
    zone.addEventListener('dragover', over);
    zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
    zone.addEventListener('drop', (e) => {
      e.preventDefault();
      zone.classList.remove('dragging');
      this.addFiles([...(e.dataTransfer ? e.dataTransfer.files : [])]);
    });
    // A file dropped anywhere else on the page is taken too, rather than opened by the browser.
    window.addEventListener('dragover', (e) => { if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) e.preventDefault(); });
    window.addEventListener('drop', (e) => {
      if (!e.dataTransfer || !e.dataTransfer.files.length || zone.contains(e.target)) return;
      e.preventDefault();
      this.addFiles([...e.dataTransfer.files]);
    });
    $('action-records-clear').addEventListener('click', () => this.clear());
    if ($('records-undo')) $('records-undo').addEventListener('click', () => this.undoClear());
    if ($('labels-toggle')) $('labels-toggle').addEventListener('change', () => this.renderChart());
    $('action-load-example').addEventListener('click', () => this.loadExample($('input-example').value));
  }

  // ---------------------------------------------------------------------------------------------
  async loadExamples() {
    const sel = $('input-example');
    try {
      const res = await fetch('examples/index.json');
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const list = await res.json();
      for (const ex of list) sel.append(new Option(ex.title, ex.file));
    } catch (e) {
      sel.append(new Option('(no examples found)', ''));
      sel.disabled = true;
    }
  }

  async loadExample(file) {
    if (!file) return;
    const res = await fetch(`examples/${encodeURIComponent(file)}`);
    const bytes = await res.arrayBuffer();
    await this.enqueue(file, 'example', bytes);
  }

  // Files chosen at once are listed ADD_CHUNK at a time, a task each (400 files never make one long
  // task), then each is read and checked on its own.
  async addFiles(files) {
    const out = [];
    this.setBusy(+1);
    try {
      for (let i = 0; i < files.length; i += ADD_CHUNK) {
        if (files.length > ADD_CHUNK) await yieldTask(); // the browser's own work on the file list ends first
        for (const f of files.slice(i, i + ADD_CHUNK)) out.push(this.addFile(f));
        this.flushRender();
      }
    } finally {
      this.setBusy(-1);
    }
    return Promise.all(out);
  }

  // Limits are checked before a byte is read: a file over the limit is refused at once.
  addFile(file) {
    if (file.size > this.maxBytes) {
      return this.enqueue(file.name, 'upload', null, {
        ok: false, errors: 1, warnings: 0, issues_omitted: 0, record: null,
        issues: [{ severity: 'error', path: '', message: `file is ${file.size.toLocaleString('en-US')} bytes; the limit is ${this.maxBytes.toLocaleString('en-US')} bytes (${this.model.format(this.maxBytes, 'B', { iec: true })}) per record` }],
      });
    }
    return this.enqueue(file.name, 'upload', null, null, file);
  }

  // Each file is listed at once, in the order given, as pending (with a Cancel button), and
  // checked on its own (check-pool.js): a slow file never holds up the others. When its check is
  // done the file takes its place in the list; a file over the time limit is listed as refused
  // with one line saying so; a cancelled one leaves the list. Nothing else changes either way.
  enqueue(name, source, bytes, report = null, file = null) {
    const slot = this.pendingEntry(name, source);
    this.setBusy(+1);
    return (async () => {
      try {
        if (report) this.add({ name, source, report, text: null, slot });
        else await this.take(slot, bytes || await file.arrayBuffer());
      } catch (e) {
        this.settleFailed(slot, e);
      } finally {
        this.setBusy(-1);
      }
    })();
  }

  // One operation of the worker (check-pool.js) for the file; Cancel stops it.
  run(slot, op, buf, args = null) {
    if (slot.cancelled) return Promise.reject(new CheckStopped('cancelled'));
    slot.job = this.checker.submit(op, buf, args);
    this.sayPending(slot);
    slot.job.onStage = () => this.sayPending(slot); // check-pool.js's stages of the job, said as they come
    return slot.job.promise;
  }

  // What the file is (core's rl_import_detect), then: a record is checked as it is, an ERT
  // roofline.json imported at once (ceilings, no problem needed), an ncu CSV or a Google
  // Benchmark JSON imported once the problem form is answered.
  async take(slot, buf) {
    const raw = new TextDecoder().decode(buf);
    await yieldTask(); // a large file: decoded in one task, sent to the worker in the next
    const twin = await this.twinOf(slot, raw);
    if (twin) return this.duplicate(slot, twin);
    const found = await this.run(slot, 'detectFormat', buf);
    if (!found.ok) return this.refuseUnknown(slot, buf, found.message);
    slot.format = found.format;
    if (slot.li && slot.pending) slot.li.querySelector('.record-head').after(this.formatLine(slot.format)); // in place
    if (found.format !== 'record') slot.rawKey = slot.rawKey || await this.sliced(slot, 'comparing it with the loaded files', hashSteps(raw));
    if (found.format === 'record') {
      const report = await this.run(slot, 'checkRecord', buf);
      const text = report.ok ? raw : null;
      const prep = await this.prepare(slot, report, text);
      const entry = this.add({ name: slot.name, source: slot.source, report, text, slot, format: slot.format, prep });
      await this.chartLater(prep);
      return entry;
    }
    if (found.format !== 'ert') return this.ask(slot, buf);
    const r = await this.run(slot, 'importRecord', buf, { format: slot.format, answers: { source: slot.name } });
    return this.addImported(slot, r);
  }

  // Neither a record nor a tool's output: core's word on the formats it looked for, then the
  // record reader's errors (with their JSON paths).
  async refuseUnknown(slot, buf, message) {
    const rep = await this.run(slot, 'checkRecord', buf);
    const issues = [{ severity: 'error', path: '', message }, ...rep.issues.filter((x) => x.severity === 'error')];
    const report = { ok: false, errors: rep.errors + 1, warnings: 0, issues_omitted: rep.issues_omitted || 0, issues, record: null };
    return this.add({ name: slot.name, source: slot.source, report, text: null, slot });
  }

  async addImported(slot, r) {
    const report = r.ok ? r.report
      : { ok: false, errors: 1, warnings: 0, issues: [{ severity: 'error', path: r.field, message: r.message }], record: null };
    const text = r.ok ? r.text : null;
    const prep = await this.prepare(slot, report, text);
    const entry = this.add({ name: slot.name, source: slot.source, report, text, slot, format: slot.format, prep });
    await this.chartLater(prep);
    return entry;
  }

  // A prepared record is listed in one task, then drawn and said in the next (add() leaves the
  // chart and the status line to this; the caller's busy count ends in the same task, as it
  // would right after add()).
  async chartLater(prep) {
    if (!prep || !prep.said) return; // add() did not add it (a duplicate, a cleared list)
    await yieldTask();
    if (this.busy > 1) this.renderLater({ list: false }); // other files still coming: drawn with them
    else if (this.chartStale) this.flushRender();
    const { entry, text } = prep.said;
    const lost = entry.keep && entry.keep !== 'kept' && entry.keep !== 'pending' ? ` Shown, but not kept after a reload: ${entry.keep}.` : '';
    if (this.files.includes(entry)) this.say(`${text}${lost}`);
  }

  // What add() would do on the main thread in one go for a large record, done beforehand in
  // slices that yield (sliced()), with the file's pending line saying which: its id (a hash of
  // the whole text) and its chart marks (IndexedDB keeps the text as it is: nothing to serialise).
  // Nothing here changes the list; add() takes the results ({ storeId, added, marks }).
  async prepare(slot, report, text) {
    if (!report.ok || text === null || !this.files.includes(slot)) return null;
    const { name, source, added } = slot;
    const storeId = await this.sliced(slot, 'comparing it with the loaded files', recordIdSteps({ source, name, text }));
    if (this.files.some((f) => f.storeId === storeId)) return { storeId, added, marks: null };
    const marks = await this.sliced(slot, 'placing the points on the chart', this.markSteps(report));
    await yieldTask(); // add() in a task of its own
    return { storeId, added, marks };
  }

  // Runs a generator's steps (hashSteps, markSteps …) about SLICE_MS at a time, a task each, and
  // says `what` in the file's pending line while it takes more than one; its return value.
  async sliced(slot, what, gen) {
    let said = false;
    for (;;) {
      const t0 = performance.now();
      while (performance.now() - t0 < SLICE_MS) {
        const r = gen.next();
        if (r.done) return r.value;
      }
      if (slot.cancelled) throw new CheckStopped('cancelled');
      if (!said && slot.job) {
        said = true;
        slot.job.stage = { name: 'preparing', what };
        this.sayPending(slot);
      }
      await yieldTask();
      if (slot.cancelled) throw new CheckStopped('cancelled');
    }
  }

  // The problem form (import-form.js) for an ncu CSV or a gbench JSON: prefilled from the
  // controls, imported again in the worker whenever an answer changes, the resulting points shown;
  // confirm adds them. The file stays pending (not busy) while the form waits for the person.
  ask(slot, buf) {
    slot.buf = buf;
    slot.asking = true;
    slot.previewSeq = 0;
    const hints = this.model.importHints(buf); // what the file names unasked (FA2 kernel traits)
    slot.form = new ImportForm(this.model, {
      format: slot.format, answers: { ...currentAnswers(this.model), ...hints.answers }, hints,
      onChange: () => { // the shown points no longer match the answers: imported again shortly
        if (JSON.stringify(this.answersOf(slot)) === slot.previewAnswers) return; // a blur, no change
        slot.previewAnswers = null;
        slot.result = null;
        slot.form.showPreview(null);
        clearTimeout(slot.debounce);
        slot.debounce = setTimeout(() => this.preview(slot), 150);
      },
      onConfirm: () => this.confirmImport(slot),
    });
    this.render();
    this.preview(slot);
  }

  answersOf(slot) { return { ...slot.form.answers(), source: slot.name }; }

  async preview(slot) {
    if (!slot.asking) return;
    if (slot.job && slot.job.state !== 'done') slot.job.cancel();
    const seq = ++slot.previewSeq;
    const answers = this.answersOf(slot);
    slot.previewAnswers = JSON.stringify(answers);
    slot.result = null;
    slot.form.showPreview(null);
    this.setBusy(+1);
    try {
      const r = await this.run(slot, 'importRecord', slot.buf, { format: slot.format, answers });
      if (seq !== slot.previewSeq) return;
      slot.result = r;
      slot.resultAnswers = JSON.stringify(answers);
      slot.form.showPreview(r, this.previewRows(r));
      if (slot.confirmWhenReady) this.confirmImport(slot);
    } catch (e) {
      if (seq !== slot.previewSeq) return;
      if (slot.cancelled) this.settleFailed(slot, e);
      else slot.form.showPreview({ ok: false, field: '', message: this.stoppedMessage(e, 'imported') });
    } finally {
      this.setBusy(-1);
    }
  }

  // Adds the previewed record; answers changed since the preview are imported first.
  confirmImport(slot) {
    slot.confirmWhenReady = false;
    if (!slot.asking) return;
    if (!slot.result || slot.resultAnswers !== JSON.stringify(this.answersOf(slot))) {
      slot.confirmWhenReady = true;
      if (slot.result) this.preview(slot);
      return;
    }
    const r = slot.result;
    if (!r.ok || !r.report.ok || r.text === null) return;
    slot.asking = false;
    slot.buf = null;
    this.setBusy(+1);
    this.addImported(slot, r).catch((e) => this.settleFailed(slot, e)).finally(() => this.setBusy(-1));
  }

  // The points an import gives, as the list will show them, or its errors (with their positions).
  previewRows(r) {
    if (!r.ok) return [];
    if (!r.report.ok) {
      const ul = el('ul', { className: 'record-errors', testid: 'import-errors' });
      for (const it of r.report.issues.filter((x) => x.severity === 'error')) {
        const li = el('li', { text: it.message });
        li.dataset.path = it.path;
        ul.append(li);
      }
      return [el('p', { className: 'field-error', text: 'Not imported with these answers:' }), ul];
    }
    const rec = r.report.record;
    const warnings = r.report.issues.filter((x) => x.severity === 'warning').map((w) => el('li', { text: w.message }));
    return [
      el('p', { className: 'hint', text: `${rec.points.length.toLocaleString('en-US')} point${rec.points.length === 1 ? '' : 's'} with these answers (not added yet):` }),
      this.pointsTable(rec, null),
      warnings.length ? el('ul', { className: 'record-warnings' }, ...warnings) : null,
    ];
  }

  pendingEntry(name, source) {
    // added: when it was chosen, apart from the others chosen in the same ms (kept records come
    // back in this order)
    this.lastAdded = Math.max(Date.now(), (this.lastAdded || 0) + 0.001);
    const slot = { id: this.nextId++, pending: true, name, source, since: Date.now(), added: this.lastAdded, job: null, cancelled: false, report: null };
    slot.cancel = () => {
      slot.cancelled = true;
      if (slot.job && slot.job.state !== 'done') slot.job.cancel();
      else if (slot.asking) this.settleFailed(slot, new CheckStopped('cancelled'));
    };
    this.files.push(slot);
    this.renderLater({ chart: false }); // a pending file is not drawn: the chart stays as it is
    this.tick();
    return slot;
  }

  // A check that did not finish: cancelled (the file leaves the list), over the time limit or
  // failed (listed as refused, with the reason in one line).
  settleFailed(slot, e) {
    const { name, source } = slot;
    if (!this.files.includes(slot)) return; // its list was cleared meanwhile
    if (e instanceof CheckStopped && e.reason === 'cancelled') {
      this.files = this.files.filter((f) => f !== slot);
      this.renderLater({ chart: false });
      this.say(`${name}: check cancelled; not loaded, nothing else changed.`);
      return;
    }
    const message = this.stoppedMessage(e, 'checked');
    this.add({ name, source, slot, report: { ok: false, errors: 1, warnings: 0, issues: [{ severity: 'error', path: '', message }], record: null }, text: null });
  }

  stoppedMessage(e, what) {
    return e instanceof CheckStopped
      ? `not ${what} within ${this.model.format(this.limitMs / 1000, 's')} (the time limit per file); not loaded`
      : `could not be read: ${e.message}`;
  }

  // Keeps the pending files' elapsed time current while any is pending.
  tick() {
    if (this.ticker) return;
    this.ticker = setInterval(() => {
      const pending = this.files.filter((f) => f.pending && !f.asking);
      if (!pending.length) {
        clearInterval(this.ticker);
        this.ticker = null;
      }
      for (const f of pending) this.sayPending(f);
    }, 1000);
  }

  // A pending file's line (its element, kept by pendingItem) says where its check is.
  sayPending(f) {
    if (f.stateEl) f.stateEl.textContent = this.pendingText(f);
  }

  pendingText(f) {
    const s = Math.floor((Date.now() - f.since) / 1000);
    const what = !f.job ? 'reading' : f.job.state === 'waiting' ? 'waiting for a free checker' : f.format && f.format !== 'record' ? 'importing' : 'checking';
    const st = f.job && f.job.stage;
    if (st && st.name === 'sending') return `${what}: done in the worker; ${st.points ? `${st.points.toLocaleString('en-US')} points` : 'the result'} coming to the page… ${s} s`;
    if (st && st.name === 'preparing') return `${what}: done; ${st.what}… ${s} s`;
    const size = st && st.bytes ? ` ${this.model.format(st.bytes, 'B')} in core's C code (a worker)` : '';
    return `${what}${size}… ${s} s (time limit ${this.model.format(this.limitMs / 1000, 's')})`;
  }

  // say: false for work the status line need not announce (a write to storage).
  // The status line, its text escaped (it quotes file names).
  say(text) { $('records-status').textContent = esc(text); }

  // "idle" only once what was left for a batch is on the page (settleIdle, after flushRender).
  setBusy(delta, { say = true } = {}) {
    this.busy = (this.busy || 0) + delta;
    const s = $('records-status');
    if (this.busy > 0) {
      s.dataset.value = 'busy';
      if (say && delta > 0) s.textContent = 'Checking…';
    } else if (this.listStale || this.chartStale || this.renderTimer) {
      this.renderLater({ list: false, chart: false });
    } else {
      this.settleIdle();
    }
  }

  settleIdle() {
    if (this.busy > 0 || this.renderTimer || this.listStale || this.chartStale) return;
    const s = $('records-status');
    s.dataset.value = 'idle';
    if (s.textContent === 'Checking…') s.textContent = '';
  }

  // slot: the file's pending entry (from enqueue), replaced in place; else the entry is appended.
  // prep: prepare()'s results for this very file (its id, its marks, the stored value), or null.
  // draw: false leaves the list and chart to the caller (record-keep.js restores in batches);
  // storeId: the id when already known (a restored record's key, checked against its content).
  add({ name, source, report, text, visible = true, added = Date.now(), persist = true, slot = null, format = null, prep = null, draw = true, storeId: known = null }) {
    const ok = report.ok && text !== null;
    if (prep) added = prep.added;
    const storeId = ok ? (prep ? prep.storeId : known || recordId({ source, name, text })) : null;
    const same = storeId && this.files.find((f) => f.storeId === storeId);
    if (slot && !this.files.includes(slot)) return null; // its list was cleared meanwhile
    if (same) { // the same file again (or from another tab): one record
      if (slot) this.files = this.files.filter((f) => f !== slot);
      if (slot) this.renderLater({ chart: false });
      if (draw) this.say(`${name}: already loaded.`);
      return same;
    }
    // The same record under another name (a file loaded twice, renamed or from the menu): said, not added.
    const twin = ok && slot && this.files.find((f) => f.text && f.text.length === text.length && f.text === text);
    if (twin) return this.duplicate(slot, twin);
    const id = slot ? slot.id : this.nextId++;
    const colorIndex = (id - 1) % PALETTE_SIZE;
    const entry = {
      id, storeId, added, name, source, report, visible, colorIndex, color: cssVar(`--rec${colorIndex + 1}`), text: ok ? text : null,
      keep: null, format, rawKey: slot ? slot.rawKey || null : null, marks: prep && prep.marks ? prep.marks : null,
    };
    if (slot) {
      this.files[this.files.indexOf(slot)] = entry;
      entry.li = slot.li; // shown until renderList remakes it (within its time budget)
    } else {
      this.files.push(entry);
    }
    if (persist && ok) this.keeper.keep([entry]);
    if (!draw) { // drawn with its batch (the caller's flushRender)
      this.listStale = true;
      this.chartStale = true;
      return entry;
    }
    if (prep) { // the chart in a task of its own (chartLater)
      this.renderLater({ chart: false });
      this.chartStale = true;
    } else {
      this.renderLater({ chart: ok }); // a refused file is not drawn
    }
    const said = report.ok
      ? `${name}: ${report.record.points.length.toLocaleString('en-US')} point${report.record.points.length === 1 ? '' : 's'} loaded${report.warnings ? `, ${report.warnings} warning${report.warnings === 1 ? '' : 's'}` : ''}.`
      : `${name}: refused (${report.errors} error${report.errors === 1 ? '' : 's'}); nothing else changed.`;
    if (prep) prep.said = { entry, text: said }; // said with the chart (chartLater)
    else this.say(said);
    return entry;
  }

  // A loaded file with the same content as `raw`: a record with this very text, or a tool's
  // output imported from the same bytes (rawKey, a hash kept for imports only); else undefined.
  // Strings are compared by length first, so no hash is taken of a record file.
  async twinOf(slot, raw) {
    const same = (f) => f !== slot && f.text && f.text.length === raw.length && f.text === raw;
    let twin = this.files.find(same);
    if (!twin && this.files.some((f) => f.rawKey)) {
      slot.rawKey = await this.sliced(slot, 'comparing it with the loaded files', hashSteps(raw));
      twin = this.files.find((f) => f !== slot && f.rawKey === slot.rawKey);
    }
    return twin;
  }

  // A file whose content is already loaded: it leaves the list and the status names the twin.
  duplicate(slot, twin) {
    this.files = this.files.filter((f) => f !== slot);
    this.renderLater({ chart: false });
    const s = $('records-status');
    s.textContent = esc(`${slot.name}: the same content as ${twin.name}, already loaded; not added again.`);
    s.dataset.duplicate = twin.name;
    return twin;
  }

  remove(id) {
    const f = this.files.find((x) => x.id === id);
    this.files = this.files.filter((x) => x.id !== id);
    this.keeper.forget(f).then(() => this.keeper.retry()); // room freed: records not kept are tried again
    this.render();
  }

  // "Clear all" can be undone for UNDO_MS: the loaded records come back (and into storage, so the
  // other tabs, which cleared theirs through the storage event, take them back the same way).
  clear() {
    for (const f of this.files) if (f.pending) f.cancel();
    const gone = this.files.filter((f) => !f.pending);
    this.files = [];
    this.keeper.clearAll();
    this.render();
    this.say('All records cleared (also from this browser’s storage, in every tab).');
    this.offerUndo(gone);
  }

  offerUndo(gone) {
    const btn = $('records-undo');
    clearTimeout(this.undoTimer);
    if (!btn || !gone.length) return;
    this.undoable = gone;
    btn.hidden = false;
    btn.textContent = `Undo clear (${gone.length} record${gone.length === 1 ? '' : 's'})`;
    this.undoTimer = setTimeout(() => { btn.hidden = true; this.undoable = null; }, UNDO_MS);
  }

  undoClear() {
    const gone = this.undoable || [];
    clearTimeout(this.undoTimer);
    this.undoable = null;
    $('records-undo').hidden = true;
    for (const f of gone) {
      if (f.storeId && this.files.some((x) => x.storeId === f.storeId)) continue; // back meanwhile
      this.files.push(f);
    }
    this.keeper.keep(gone.filter((f) => this.files.includes(f)));
    this.files.sort((a, b) => a.id - b.id);
    this.render();
    this.say(`Clear undone: ${gone.length} record${gone.length === 1 ? '' : 's'} back.`);
  }

  // Runs fn after every restore or merge already queued, with the busy status shown meanwhile.
  serial(fn) {
    this.setBusy(+1);
    const run = this.queue.then(fn).finally(() => this.setBusy(-1));
    this.queue = run.catch(() => {});
    return run;
  }

  // The kept records back on the page (record-keep.js), in batches, while the page is usable.
  restore() { return this.keeper.restore(); }

  // ---------------------------------------------------------------------------------------------
  // Drawing
  render() {
    this.renderList();
    this.renderChart();
  }

  // The list and/or the chart drawn later, once for whatever changed meanwhile: in a task of its
  // own, and no sooner than RENDER_GAP_MS or twice the last render's time after it, so files
  // arriving one by one cost a bounded share of the time (linear in their number), not a render each.
  renderLater({ list = true, chart = true } = {}) {
    this.listStale = this.listStale || list;
    this.chartStale = this.chartStale || chart;
    if (this.renderTimer) return;
    const gap = Math.max(RENDER_GAP_MS, 2 * (this.renderMs || 0));
    const wait = Math.max(0, gap - (performance.now() - (this.renderEnd || -Infinity)));
    this.renderTimer = setTimeout(() => this.flushRender(), wait);
  }

  // The list now and the chart in a task of its own (with a thousand records each takes tens of
  // ms; together they would make one long task); then "idle" if nothing else is going on.
  flushRender() {
    clearTimeout(this.renderTimer);
    this.renderTimer = null;
    const t0 = performance.now();
    if (this.listStale) this.renderList();
    const listMs = performance.now() - t0;
    const done = (ms) => {
      this.renderEnd = performance.now();
      this.renderMs = ms;
      if (this.listStale) this.renderLater({ chart: false }); // changed while the chart waited
      else this.settleIdle();
    };
    if (!this.chartStale) {
      done(listMs);
      return;
    }
    this.renderTimer = setTimeout(() => {
      this.renderTimer = null;
      const t1 = performance.now();
      this.renderChart();
      done(listMs + performance.now() - t1);
    }, 0);
  }

  // A predicted star's tooltip: the profile, the predicted and measured times, the error.
  predictedText(rec, p) {
    const m = this.model, d = p.derived;
    const pct = (100 * d.prediction_error).toFixed(1);
    return [`predicted by profile ${p.profile} on ${(p.hardware || rec.hardware).preset}: ${m.format(d.predicted_time_s, 's')}, ${m.format(d.predicted_flops_per_s, 'FLOP/s')}`,
      `measured ${m.format(p.timing.median_s, 's')}: error (predicted − measured) / measured = ${pct > 0 ? '+' : ''}${pct} %`,
      ...(p.figure ? [`source: ${p.figure}`] : [])];
  }

  pointText(rec, p, warnings) {
    const m = this.model;
    const pb = p.problem;
    const d = p.derived || {};
    const lines = [];
    const kernel = p.kernel || rec.software.kernel || '(kernel not named)';
    lines.push(`kernel: ${kernel} ${rec.software.kernel_version}`);
    if (p.label) lines.push(`label: ${p.label}`);
    const hwBlock = p.hardware || rec.hardware || {};
    const hw = hwBlock.name || '';
    const details = deviceDetails(hwBlock);
    lines.push(`hardware: ${hw}${details ? ` (${details})` : ''}`);
    lines.push(`problem: B=${pb.batch} H=${pb.heads} Hkv=${pb.kv_heads} N=${pb.seq} L=${pb.kv_len} d=${pb.head_dim} ${pb.dtype}${pb.kv_dtype !== pb.dtype ? `/${pb.kv_dtype}` : ''}${pb.causal ? ' causal' : ''} ${pb.pass}, traffic ${p.traffic_model}`);
    if (d.predicted_time_s > 0) lines.push(`predicted by profile ${p.profile}: ${m.format(d.predicted_time_s, 's')} (error ${(100 * d.prediction_error).toFixed(1)} %; the ☆ at this intensity)`);
    const t = p.timing;
    const spread = t.min_s || t.max_s ? ` (min ${t.min_s ? m.format(t.min_s, 's') : '?'}, max ${t.max_s ? m.format(t.max_s, 's') : '?'}${t.runs ? `, ${t.runs} runs` : ''})` : (t.runs ? ` (${t.runs} runs)` : '');
    lines.push(`time: ${m.format(t.median_s, 's')} median${spread}`);
    // the spread of the runs: mean ± sample standard deviation, and that as a share of the mean
    if (d.time_cv >= 0) lines.push(`spread: mean ${m.format(t.mean_s, 's')} ± ${m.format(t.stddev_s, 's')} (cv ${(100 * d.time_cv).toFixed(2)} %)`);
    else if (t.stddev_s >= 0) lines.push(`spread: ± ${m.format(t.stddev_s, 's')} (sample standard deviation)`);
    lines.push(`achieved: ${m.format(d.achieved_flops_per_s, 'FLOP/s')}, ${m.format(d.achieved_bytes_per_s, 'B/s')} (F = ${m.format(p.flops, 'FLOP')})`);
    if (d.efficiency !== undefined) {
      lines.push(`efficiency: ${(100 * d.efficiency).toFixed(1)} % of its roof at I = ${m.format(d.intensity_flop_per_byte, 'FLOP/B')} (${m.format(d.attainable_flops_per_s, 'FLOP/s')} from ${m.format(d.roof_bandwidth_bytes_per_s, 'B/s')}, ${m.format(d.roof_peak_flops_per_s, 'FLOP/s')})`);
    } else {
      lines.push('efficiency: no roof known for this hardware (name a preset in hardware.preset, or give ceilings)');
    }
    const mb = d.model_bytes || {};
    const models = Object.entries(mb).map(([k, v]) => `${k} ${m.format(v, 'B')}`).join(', ');
    if (d.bytes_source === 'measured') {
      const ref = mb[p.traffic_model];
      lines.push(`bytes: counter ${m.format(p.measured_bytes, 'B')}${ref ? ` vs model ${p.traffic_model} ${m.format(ref, 'B')} (×${(p.measured_bytes / ref).toFixed(2)})` : ''}; models: ${models}`);
    } else if (d.bytes_source === 'modelled') {
      lines.push(`bytes: the record's model ${m.format(p.modelled_bytes, 'B')}; rooflab's models: ${models}`);
    } else {
      lines.push(`bytes: rooflab's ${p.traffic_model} model ${m.format(d.bytes, 'B')} (no counter bytes)`);
    }
    if (p.rel_l2_error !== undefined || p.max_abs_error !== undefined) {
      const errs = [];
      if (p.rel_l2_error !== undefined) errs.push(`relative L2 ${p.rel_l2_error.toExponential(2)}`);
      if (p.max_abs_error !== undefined) errs.push(`max abs ${p.max_abs_error.toExponential(2)}`);
      lines.push(`error vs fp64 reference: ${errs.join(', ')}`);
    }
    for (const w of warnings.slice(0, 3)) lines.push(`⚠ ${w}`);
    if (rec.provenance.kind === 'historical-unaudited') lines.push('historical, unaudited: drawn hollow, not evidence');
    return lines;
  }

  // A file's marks for the chart, made once per record (prepare() makes a large one in slices):
  // { points, predicted, kernels: Map kernel → points, devices: [{ key, preset, name, dtype }],
  // hwNames: the points' own hardware names }.
  marksOf(f) {
    if (!f.marks) f.marks = runSteps(this.markSteps(f.report));
    if (!f.marks.named) { // the file each mark is from, for a grouped dataset's tooltip
      for (const mk of f.marks.points) mk.file = f.name;
      for (const mk of f.marks.predicted) mk.file = f.name;
      f.marks.named = true;
    }
    return f.marks;
  }

  // The marks of a record's points, in their order, MARK_STEP points per step, from the points'
  // summary (record-pack.js: made in the worker, else here first): each point at its intensity and
  // achieved throughput, and its own prediction (core's derived figures: the point's kernel
  // profile on its hardware's preset) as a hollow star at the same intensity, the vertical gap
  // being the error. Tooltip lines are made when a mark is hovered (Mark's getter).
  * markSteps(report) {
    const rec = report.record;
    const sum = summaryOf(rec) || (yield* summarySteps(rec));
    const warn = this.warningsByPoint(report);
    const out = { points: [], predicted: [], kernels: new Map(), devices: [], hwNames: new Set(sum.hwNames) };
    const counts = new Array(sum.kernels.length).fill(0);
    for (let i = 0; i < sum.x.length; i++) {
      counts[sum.kernel[i]]++;
      const kernel = sum.kernels[sum.kernel[i]];
      const name = sum.names[sum.name[i]];
      const device = sum.devices[sum.device[i]];
      out.points.push(new Mark(this, rec, i, warn.get(i), fig(sum.x[i]), fig(sum.y[i]), fig(sum.eff[i]), kernel, name, device, false));
      if (sum.pred[i]) out.predicted.push(new Mark(this, rec, i, null, fig(sum.x[i]), fig(sum.predY[i]), undefined, kernel, name, device, true));
      if (i % MARK_STEP === MARK_STEP - 1) yield;
    }
    // kernels in order of first use (the table's order), each with its count
    sum.kernels.forEach((k, j) => out.kernels.set(k, counts[j]));
    sum.devices.forEach((d, j) => out.devices.push({ ...d, dtype: sum.dtypes[j] }));
    return out;
  }

  renderChart() {
    this.chartStale = false;
    const list = [];
    let count = 0;
    const kernels = new Map(); // kernel name → points drawn
    const shown = this.files.filter((f) => f.report && f.report.ok && f.visible);
    const keep = (mk) => this.isolated.has(mk.kernel);
    for (const f of shown) {
      const rec = f.report.record;
      const hist = rec.provenance.kind === 'historical-unaudited';
      const marks = this.marksOf(f);
      for (const [k, n] of marks.kernels) kernels.set(k, (kernels.get(k) || 0) + n);
      // The same arrays while nothing is isolated (the chart's bitmap of them stays valid).
      const points = this.isolated.size ? marks.points.filter(keep) : marks.points;
      const predicted = this.isolated.size ? marks.predicted.filter(keep) : marks.predicted;
      count += points.length;
      if (!points.length) continue; // a record of ceilings only (ERT): its lines are drawn below
      const series = { hollow: hist, color: f.color, colorIndex: f.colorIndex };
      list.push({
        ...series, label: esc(`${f.name}: ${rec.software.kernel || 'kernel'} ${rec.software.kernel_version}${hist ? ' [historical, unaudited — not evidence]' : ''}`),
        pointStyle: hist ? 'circle' : 'crossRot', points, file: f.name,
      });
      if (predicted.length) {
        list.push({ ...series, label: esc(`${f.name}: predicted, each point by its own kernel profile (☆)`), hollow: true, pointStyle: 'star', points: predicted, predicted: true, file: f.name });
      }
    }
    this.grouped = shown.length > GROUP_AT;
    if (this.grouped) list.splice(0, list.length, ...groupSeries(list).map((g) => ({ ...g, label: esc(g.label) })));
    for (const f of shown) list.push(...this.ceilingSeries(f));
    const out = $('measured-count');
    out.textContent = `${count.toLocaleString('en-US')} measured point${count === 1 ? '' : 's'} drawn`;
    out.dataset.value = String(count);
    this.renderKernels(kernels);
    list.labels = !!($('labels-toggle') && $('labels-toggle').checked);
    list.highlight = this.highlight || '';
    list.compare = this.compare.config(($('input-dtype') || {}).value || '');
    if ($('compare-notes')) $('compare-notes').textContent = esc(list.compare.notes.join('; '));
    this.chartList = list;
    this.callbacks.onChange(list);
  }

  // Ceilings a record states (measured or datasheet), drawn dotted in the record's colour over the
  // whole span and named on the line (L1, L2, DRAM …): a bandwidth ceiling as the slope β·I
  // (core's attainable throughput with no compute limit), a compute ceiling as a level line.
  // "use as β / π" in the list makes one the page's roof.
  ceilingSeries(f) {
    const rec = f.report.record;
    const dev = pointDevice(rec, {});
    return ((rec.hardware && rec.hardware.ceilings) || []).map((c, ci) => {
      const bw = c.bytes_per_s !== undefined;
      const xs = [SPAN.xMin, SPAN.xMax];
      const ys = xs.map((x) => (bw ? this.model.attainable(c.bytes_per_s, Number.MAX_VALUE, x) : c.flops_per_s));
      const value = this.model.format(bw ? c.bytes_per_s : c.flops_per_s, bw ? 'B/s' : 'FLOP/s');
      const what = `${c.name} ${value} (${c.source})`;
      return {
        label: esc(`ceiling from ${f.name}: ${what}`), line: true, color: f.color, colorIndex: f.colorIndex, device: dev,
        lineLabel: esc(`${shortName(dev.name)} ${c.name} ${value}`), lineShort: esc(`${c.name} ${value}`), peak: bw ? 0 : c.flops_per_s,
        dash: c.source === 'datasheet' ? [1, 3] : [[6, 3], [3, 3], [2, 3], [8, 4]][ci % 4],
        points: xs.map((x, i) => ({ x, y: ys[i], text: [esc(`${what}, stated by ${f.name}`)] })),
      };
    });
  }

  // What compare mode can offer (compare.js): the devices of the shown points (with the dtype they
  // ran in) and the shown records' measured ceilings (the lowest DRAM-level bandwidth and the
  // highest compute figure each gives, as stated).
  compareSources() {
    const used = [];
    const ceilings = [];
    for (const f of this.files) {
      if (!f.report || !f.report.ok || !f.visible) continue;
      const rec = f.report.record;
      for (const d of this.marksOf(f).devices) if (!used.some((u) => u.key === d.key)) used.push({ ...d, name: esc(d.name) }); // names shown by compare mode
      const cs = ((rec.hardware && rec.hardware.ceilings) || []).filter((c) => c.source === 'measured');
      if (!cs.length) continue;
      const bws = cs.filter((c) => c.bytes_per_s !== undefined);
      const dram = bws.filter((c) => c.level === 'dram');
      const pick = (arr, key, better) => arr.reduce((b, c) => (b === null || better(c[key], b[key]) ? c : b), null);
      const bw = pick(dram.length ? dram : bws, 'bytes_per_s', (a, b) => a < b);
      const pk = pick(cs.filter((c) => c.flops_per_s !== undefined), 'flops_per_s', (a, b) => a > b);
      const dev = pointDevice(rec, {});
      ceilings.push({ key: `ceilings:${f.storeId}`, name: esc(dev.name), preset: dev.preset, file: esc(f.name), bandwidth: bw ? bw.bytes_per_s : 0, peak: pk ? pk.flops_per_s : 0 });
    }
    return { used, ceilings };
  }

  // The kernels list: one button per kernel of the shown records (with its point count). Hover or
  // focus rings its points on the chart; a click isolates it (others hidden), again to show all.
  renderKernels(kernels) {
    const ul = $('kernels-list');
    if (!ul) return;
    for (const k of [...this.isolated]) if (!kernels.has(k)) this.isolated.delete(k);
    $('kernels-box').hidden = kernels.size === 0;
    const key = JSON.stringify([...kernels, ...this.isolated]);
    if (key === this.kernelsKey) return;
    this.kernelsKey = key;
    ul.replaceChildren(...[...kernels].map(([k, n], i) => {
      const on = this.isolated.has(k);
      const b = el('button', { type: 'button', className: `kernel${on ? ' isolated' : ''}`, testid: `kernel-${i}`, 'aria-pressed': String(on), title: k });
      b.dataset.kernel = k;
      b.append(el('span', { className: 'kernel-name', text: k }), el('span', { className: 'kernel-count', text: ` (${n.toLocaleString('en-US')})` }));
      const light = (name) => () => this.setHighlight(name);
      b.addEventListener('mouseenter', light(k));
      b.addEventListener('focus', light(k));
      b.addEventListener('mouseleave', light(''));
      b.addEventListener('blur', light(''));
      b.addEventListener('click', () => {
        if (this.isolated.has(k)) this.isolated.delete(k); else this.isolated.add(k);
        this.renderChart();
      });
      return el('li', {}, b);
    }));
  }

  // Rings one kernel's points (or none) without rebuilding the chart's datasets.
  setHighlight(kernel) {
    if (this.highlight === kernel) return;
    this.highlight = kernel;
    const list = this.chartList;
    if (!list) return;
    list.highlight = kernel;
    list.redrawOnly = true;
    this.callbacks.onChange(list);
    const ul = $('kernels-list');
    if (ul) ul.dataset.highlight = kernel;
  }

  warningsByPoint(report) {
    const map = new Map();
    for (const it of report.issues) {
      const m = /^points\[(\d+)\]/.exec(it.path);
      if (!m || it.severity !== 'warning') continue;
      const i = Number(m[1]);
      if (!map.has(i)) map.set(i, []);
      map.get(i).push(it.message);
    }
    return map;
  }

  // Stored entries that could not be restored: named, with the reason, above the list.
  renderDropped() {
    let box = $('records-dropped');
    if (!this.dropped.length) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = el('div', { id: 'records-dropped', className: 'records-dropped', testid: 'records-dropped', role: 'alert' });
      $('records-list').before(box);
    }
    const ul = el('ul', { className: 'record-errors' });
    for (const d of this.dropped) {
      const li = el('li', { text: d.text, testid: 'records-dropped-item' });
      li.dataset.key = d.key;
      ul.append(li);
    }
    const n = this.dropped.length;
    box.replaceChildren(
      el('p', { className: 'field-error', text: `${n} record${n === 1 ? '' : 's'} kept in this browser could not be restored:` }),
      ul,
      el('button', { type: 'button', testid: 'action-records-dropped-dismiss', text: 'Dismiss', onclick: () => { this.dropped = []; this.renderDropped(); } }));
  }

  renderList() {
    this.listStale = false;
    this.renderDropped();
    showStorageNote();
    const ul = $('records-list');
    // A problem form keeps its element across renders; the field being typed in keeps the focus.
    const active = document.activeElement && ul.contains(document.activeElement) ? document.activeElement : null;
    const t0 = performance.now();
    const items = this.files.map((f, fi) => this.itemOf(f, fi, t0));
    const kids = ul.children;
    let same = 0;
    while (same < kids.length && same < items.length && kids[same] === items[same]) same++;
    if (same === kids.length) ul.append(...items.slice(same)); // only new files, at the end
    else if (kids.length === items.length) { // files settled in place: only their items change
      for (let i = same; i < items.length; i++) if (kids[i] !== items[i]) kids[i].replaceWith(items[i]);
    } else {
      ul.replaceChildren(...items);
    }
    $('records-empty').hidden = this.files.length > 0;
    if (active && active.isConnected && document.activeElement !== active) active.focus({ preventScroll: true });
    if (this.listStale) this.renderLater({ chart: false }); // the rest of the changed items
  }

  // A file's list item, made again only when what it shows changed (its place, pending state,
  // visibility, kept state): a list of a thousand files is not rebuilt for each new one.
  // A list of many changed items is made again LIST_SLICE_MS at a time: an item over the budget
  // keeps its old element until the next render (renderLater), a new file's is always made.
  itemOf(f, fi, t0) {
    const keep = f.keep === 'kept' || f.keep === 'pending' ? '' : f.keep;
    const key = `${fi}|${f.pending ? `p${f.asking ? 'a' : ''}` : ''}|${f.visible}|${keep}|${f.colorIndex}`;
    if (f.li && f.liKey === key) return f.li;
    if (f.li && performance.now() - t0 > LIST_SLICE_MS) {
      this.listStale = true;
      return f.li;
    }
    f.li = this.fileItem(f, fi);
    f.liKey = key;
    return f.li;
  }

  // The format core recognised in a file (rl_import_detect), e.g. "ncu-csv".
  formatLine(format) {
    const p = el('p', { className: 'hint' }, 'format found: ', el('code', { testid: 'import-format', text: format }),
      format === 'record' ? ' (a rooflab record)' : ` (read by core's importer, as rooflab import ${format})`);
    p.querySelector('code').dataset.value = format;
    return p;
  }

  // A file still being read or checked (or waiting for the problem form): its name, what it is
  // waiting for, and Cancel.
  pendingItem(f, fi) {
    const li = el('li', { className: 'record pending', testid: `record-${fi}` });
    li.dataset.value = f.asking ? 'asking' : 'pending';
    const cancel = el('button', { type: 'button', testid: `record-cancel-${fi}`, text: 'Cancel', onclick: () => f.cancel() });
    const head = el('div', { className: 'record-head' }, el('strong', { text: f.name, testid: `record-name-${fi}` }), el('span', { className: 'buttons' }, cancel));
    li.append(head);
    if (f.format) li.append(this.formatLine(f.format));
    if (f.asking) {
      li.append(f.form.el);
      return li;
    }
    const state = el('span', { testid: `record-pending-${fi}`, text: this.pendingText(f) });
    state.dataset.pendingId = String(f.id);
    f.stateEl = state;
    li.append(el('p', { className: 'hint record-progress' }, el('progress', { 'aria-label': `checking ${f.name}` }), ' ', state));
    return li;
  }

  fileItem(f, fi) {
    if (f.pending) return this.pendingItem(f, fi);
    const m = this.model;
    const li = el('li', { className: `record ${f.report.ok ? 'ok' : 'refused'}`, testid: `record-${fi}` });
    li.dataset.value = f.report.ok ? 'ok' : 'refused';
    const swatch = el('span', { className: 'swatch-dot' });
    swatch.style.background = `var(--rec${f.colorIndex + 1})`;
    const head = el('div', { className: 'record-head' }, swatch, el('strong', { text: f.name, testid: `record-name-${fi}` }));
    const tools = el('span', { className: 'buttons' });
    if (f.report.ok) {
      const vis = el('input', { type: 'checkbox', testid: `record-visible-${fi}`, 'aria-label': `show ${f.name} on the roofline` });
      vis.checked = f.visible;
      vis.addEventListener('change', () => { f.visible = vis.checked; if (f.keep === 'kept') this.keeper.keep([f]); this.renderChart(); });
      tools.append(el('label', { className: 'check' }, vis, ' shown'));
    }
    tools.append(el('button', { type: 'button', testid: `record-remove-${fi}`, text: 'Remove', onclick: () => this.remove(f.id) }));
    head.append(tools);
    li.append(head);
    if (f.format) li.append(this.formatLine(f.format));

    if (!f.report.ok) {
      const errs = el('ul', { className: 'record-errors', testid: `record-errors-${fi}` });
      for (const it of f.report.issues.filter((x) => x.severity === 'error')) {
        const item = el('li', { text: it.message });
        item.dataset.path = it.path;
        errs.append(item);
      }
      if (f.report.issues_omitted) errs.append(el('li', { text: `… and ${f.report.issues_omitted} more` }));
      li.append(el('p', { className: 'field-error', text: 'Refused: not loaded. Errors (with their JSON paths):' }), errs);
      return li;
    }
    const rec = f.report.record;
    const hist = rec.provenance.kind === 'historical-unaudited';
    const hwNames = rec.hardware && rec.hardware.name ? rec.hardware.name
      : [...this.marksOf(f).hwNames].join(', ');
    const dl = el('dl', { className: 'record-meta' });
    const row = (k, v, testid) => dl.append(el('dt', { text: k }), el('dd', { text: v, ...(testid ? { testid } : {}) }));
    const prov = rec.provenance;
    row('provenance', `${prov.kind}${prov.date ? `, ${prov.date}` : ''}${prov.tool ? `, ${prov.tool}` : ''}${prov.source ? ` — ${prov.source}` : ''}`, `record-provenance-${fi}`);
    row('hardware', hwNames || '(not named)', `record-hardware-${fi}`);
    const details = deviceDetails(rec.hardware);
    if (details) row('device', details, `record-device-${fi}`);
    row('kernel', `${rec.software.kernel || '(not named)'} ${rec.software.kernel_version}`, `record-kernel-${fi}`);
    const keep = f.keep === 'kept' || f.keep === 'pending' || !f.keep ? '' : ` — not kept after a reload: ${f.keep}`;
    row('points', `${rec.points.length.toLocaleString('en-US')}${f.source === 'example' ? ' (example)' : ''}${keep}`, `record-points-${fi}`);
    li.append(dl);
    if (hist) li.append(el('p', { className: 'badge-historical', testid: `record-historical-${fi}`, text: 'Historical, unaudited: drawn hollow; it never counts as evidence.' }));
    if (prov.notes) li.append(el('p', { className: 'hint', text: prov.notes }));

    const warnings = f.report.issues.filter((x) => x.severity === 'warning');
    if (warnings.length) {
      const det = el('details', { className: 'record-warnings', testid: `record-warnings-${fi}` });
      det.append(el('summary', { text: `${f.report.warnings} warning${f.report.warnings === 1 ? '' : 's'} (what looks wrong in the numbers)` }));
      const ul = el('ul');
      for (const w of warnings) ul.append(el('li', { text: w.message }));
      if (f.report.issues_omitted) ul.append(el('li', { text: `… and ${f.report.issues_omitted} more` }));
      det.append(ul);
      li.append(det);
    }

    const ceilings = [...((rec.hardware && rec.hardware.ceilings) || [])];
    if (ceilings.length) {
      const cu = el('ul', { className: 'record-ceilings' });
      ceilings.forEach((c, ci) => {
        const bw = c.bytes_per_s !== undefined;
        const value = bw ? c.bytes_per_s : c.flops_per_s;
        const unit = bw ? 'B/s' : 'FLOP/s';
        const btn = el('button', {
          type: 'button', testid: `use-ceiling-${fi}-${ci}`,
          text: bw ? 'use as bandwidth β' : 'use as peak π',
          onclick: () => this.useCeiling(bw ? 'bandwidth' : 'peak', value, c.name, f.name, pointDevice(rec, {})),
        });
        cu.append(el('li', {}, `${c.name}: ${m.format(value, unit)} (${c.source}${c.dtype ? `, ${c.dtype}` : ''}) `, btn));
      });
      li.append(el('p', { className: 'hint', text: 'Ceilings in this record (a measured ceiling can replace the datasheet roof):' }), cu);
    }

    if (rec.points.length) {
      const det = el('details', { className: 'record-points' });
      det.append(el('summary', { text: `points (${rec.points.length.toLocaleString('en-US')})` }));
      // The table is made when the list is first opened (every render makes the list anew).
      const table = el('div', { className: 'record-points-table' });
      det.append(table);
      det.addEventListener('toggle', () => { if (det.open && !table.firstChild) table.append(this.pointsTable(rec, fi)); });
      if (rec.points.length > MAX_ROWS) det.append(el('p', { className: 'hint', text: `First ${MAX_ROWS} of ${rec.points.length.toLocaleString('en-US')} listed; all are drawn.` }));
      li.append(det);
    }
    return li;
  }

  // The first MAX_ROWS points as a table; fi: the file's index (an "adopt" button per point), or
  // null for an import's preview (the kernel named instead).
  pointsTable(rec, fi) {
    const m = this.model;
    const preview = fi === null;
    const table = el('table', { className: 'record-table', ...(preview ? { testid: 'import-points' } : {}) });
    const heads = ['#', ...(preview ? ['kernel'] : []), 'problem', 'time', 'achieved', 'efficiency', ...(preview ? [] : [''])];
    table.append(el('thead', {}, el('tr', {}, ...heads.map((h) => el('th', { text: h })))));
    const body = el('tbody');
    rec.points.slice(0, MAX_ROWS).forEach((p, pi) => {
      const pb = p.problem;
      const d = p.derived;
      body.append(el('tr', {},
        el('td', { text: String(pi) }),
        preview ? el('td', { text: p.kernel || p.label || rec.software.kernel || '', title: p.kernel || p.label || '' }) : null,
        el('td', { text: `B${pb.batch} H${pb.heads}/${pb.kv_heads} N${pb.seq} L${pb.kv_len} d${pb.head_dim} ${pb.dtype}${pb.causal ? ' causal' : ''}${pb.pass === 'bwd' ? ' bwd' : ''}` }),
        el('td', { text: m.format(p.timing.median_s, 's'), 'data-value': String(p.timing.median_s) }),
        el('td', { text: m.format(d.achieved_flops_per_s, 'FLOP/s') }),
        el('td', { text: d.efficiency !== undefined ? `${(100 * d.efficiency).toFixed(1)} %` : '—' }),
        preview ? null : el('td', {}, el('button', { type: 'button', testid: `adopt-${fi}-${pi}`, text: 'adopt', title: 'set the controls to this problem', onclick: () => this.adopt(rec, p) }))));
    });
    table.append(body);
    return table;
  }

  // ---------------------------------------------------------------------------------------------
  // Acting on the controls (through the controller, so the URL follows)
  adopt(rec, p) {
    const hw = p.hardware || rec.hardware || {};
    const notes = this.callbacks.onAdopt(p.problem, hw.preset || null);
    this.say(`Adopted ${p.label || `the point's problem`}${notes.length ? ` (${notes.join('; ')})` : ''}.`);
  }

  useCeiling(field, value, name, fileName, device) {
    const unit = field === 'bandwidth' ? 'B/s' : 'FLOP/s';
    const mix = this.mixWarning(field, value, device);
    this.callbacks.onUseCeiling(field, this.model.format(value, unit, { sig: 12 }));
    this.say(`Roof: ${field === 'bandwidth' ? 'β' : 'π'} = ${this.model.format(value, unit)}, the measured “${name}” ceiling of ${fileName}, replaces the datasheet figure.${mix ? ` Warning: ${mix}` : ''}`);
    $('records-status').dataset.mix = mix;
  }

  // A ceiling of another device than the page's preset mixes two machines in one roof: said, e.g.
  // "this mixes the V100 SXM2's 828.8 GB/s ceiling with the H100 SXM5 80GB's 989.4 TFLOP/s peak".
  // The other figure is the page's current one (core's roof resolution of the controls); '' when
  // the ceiling's device is the preset's.
  mixWarning(field, value, device) {
    const m = this.model;
    const hw = ($('input-hw') || {}).value || m.defaultHw;
    if (!device || !device.key || device.preset === hw) return '';
    const dt = m.parseDtype(($('input-dtype') || {}).value || '');
    const roof = dt.ok ? m.resolveRoof({ hw, dtype: dt.index, bandwidth: $('input-bandwidth').value, peak: $('input-peak').value }) : dt;
    if (!roof.ok) return '';
    const page = m.presets.find((p) => p.id === hw);
    const pageName = shortName(page ? page.name : hw);
    const devName = shortName(device.name);
    const own = `the ${devName}’s ${m.format(value, field === 'bandwidth' ? 'B/s' : 'FLOP/s')} ${field === 'bandwidth' ? 'bandwidth' : 'compute'} ceiling`;
    const other = field === 'bandwidth' ? `the ${pageName}’s ${m.format(roof.peak, 'FLOP/s')} peak` : `the ${pageName}’s ${m.format(roof.bandwidth, 'B/s')} bandwidth`;
    return `this mixes ${own} with ${other} (two devices in one roof; compare mode draws each on its own).`;
  }
}

// The page is ready before the kept records come back: restore() runs on (the status line says
// how many are coming, and is "busy" until they are all listed).
export async function initRecords(model, callbacks) {
  const r = new Records(model, callbacks);
  await r.loadExamples();
  r.render();
  r.restored = r.restore().catch((e) => { // never keeps the page from working
    r.dropped.push({ key: '', text: `Stored records could not be restored: ${e.message}` });
    r.renderDropped();
  });
  return r;
}
