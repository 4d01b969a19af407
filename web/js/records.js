// records.js — measured records on the page: the list of files and what happens to it. Files come
// in through the queue (record-queue.js: upload, drag-and-drop, the examples menu; each checked or
// imported in a worker, which also sends the text, its hash, the record's id and the chart's
// columns), are listed by the list (record-list.js), drawn as marks (record-marks.js), kept in the
// browser (record-keep.js: IndexedDB; restored, checked again and merged across tabs) and compared
// (compare.js). This file owns the list of files and wires those together through their events;
// many files at once are listed and drawn in batches (renderLater), never a render per file.
//
// Every check is core's C reader and validator: this file holds no record rules, limits or model
// arithmetic. It talks to the page's controller only through what it is given:
//   onAdopt(problem, presetId) → notes   a point's problem (JSON keys) becomes the page's state
//   onUseCeiling(field, text)            a measured ceiling becomes the typed bandwidth or peak
//   onChange(list)                       the measured datasets to draw (see charts.js)
//   onCompareState(value, ownRoof)       compare mode changed by hand (the link keeps it)
//   page() → { hw, hwName, dtype, bandwidth, peak } | null   the page's preset, dtype and roof
//                                        (core's resolution, as the controller last drew it)
//   onPreset(id)                         the page's preset becomes id (hw-banner.js's switch)

import { Keeper } from './record-keep.js';
import { yieldTask } from './record-pack.js';
import { recordId } from './record-store.js';
import { Compare, shortName } from './compare.js';
import { RecordQueue } from './record-queue.js';
import { RecordList } from './record-list.js';
import { Marks, warningsByPoint } from './record-marks.js';
import { HwBanner } from './hw-banner.js';
import { $ } from './dom.js';
import { isWorkspace } from './share.js';

const RENDER_GAP_MS = 40; // renderLater: at least this long between two renders (style and layout follow each)
// Records take the CSS palette --rec1 … --rec8 (apart from the model's colours in both schemes).
const PALETTE_SIZE = 8;
const UNDO_MS = 10000; // how long "Clear all" can be undone
const cssVar = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export class Records {
  constructor(model, { onAdopt, onUseCeiling, onChange, onCompareState = () => {}, page = () => null, onPreset = () => {} }) {
    this.model = model;
    // Every text put on the page (file names, kernel names, labels, messages quoting them) goes
    // through core's escaper (the CLI's rl_text_escape): invisible and direction characters named.
    this.esc = (s) => model.escapeText(s);
    this.callbacks = { onAdopt, onUseCeiling, onChange, onCompareState, page, onPreset };
    this.limits = model.recordLimits;
    // The time one file's check may take (core's figure through the WASM module); a test may
    // shorten it with window.rooflabTest = { checkLimitMs } set before the page loads.
    const hook = typeof window !== 'undefined' && window.rooflabTest && window.rooflabTest.checkLimitMs;
    this.limitMs = hook > 0 ? hook : 1000 * this.limits.max_check_seconds;
    this.files = []; // { id, storeId, added, name, source, report, visible, color, text, keep (record-keep.js) } and pending slots
    this.nextId = 1;
    this.dropped = []; // [{ key, text }]: stored entries that could not be restored
    // Work done, counted (the tests assert counts, never times; make bench-page prints both): list
    // and chart renders, list items made (record-list.js counts them into the same object).
    this.work = { listRenders: 0, chartRenders: 0, itemsMade: 0 };
    this.serialQueue = Promise.resolve(); // restores and merges from other tabs, one after another
    this.marks = new Marks(model, {
      esc: this.esc, onChange: (list) => this.callbacks.onChange(list), rerender: () => this.renderChart(), onAdopt: (rec, p) => this.adopt(rec, p),
    });
    this.banner = new HwBanner(model, { esc: this.esc, onPreset: (id) => this.callbacks.onPreset(id), onCompare: () => this.compareDevices() });
    this.list = new RecordList(model, {
      esc: this.esc, limitMs: this.limitMs, work: this.work,
      hwNames: (f) => this.marks.of(f).hwNames,
      onRemove: (f) => this.remove(f.id),
      onVisible: (f) => { if (f.keep === 'kept') this.keeper.keep([f]); this.renderChart(); },
      onAdopt: (rec, p) => this.adopt(rec, p),
      onUseCeiling: (field, value, name, fileName, device) => this.useCeiling(field, value, name, fileName, device),
      onDismissDropped: () => { this.dropped = []; this.renderDropped(); },
    });
    this.queue = new RecordQueue(model, {
      limitMs: this.limitMs, files: () => this.files, newId: () => this.nextId++, marks: this.marks, list: this.list,
      on: {
        pending: (slot) => { this.files.push(slot); this.renderLater({ chart: false }); }, // not drawn: the chart stays as it is
        stage: (slot) => this.list.sayPending(slot),
        asking: () => this.render(),
        added: async (a) => { this.add(a); await this.chartLater(a.prep); },
        duplicate: (slot, twin) => this.duplicate(slot, twin),
        cancelled: (slot) => {
          this.files = this.files.filter((f) => f !== slot);
          this.renderLater({ chart: false });
          this.say(`${slot.name}: check cancelled; not loaded, nothing else changed.`);
        },
        busy: (delta) => this.setBusy(delta),
      },
    });
    this.checker = this.queue.checker; // record-keep.js checks restored records with the same workers
    this.keeper = new Keeper(this);
    this.compare = new Compare(model, {
      sources: () => this.marks.compareSources(this.files), onChange: () => this.renderChart(),
      onState: (value, ownRoof) => this.callbacks.onCompareState(value, ownRoof),
    });
    this.bind();
    const L = this.limits;
    $('ncu-command').textContent = model.ncuCommand;
    $('records-limits').textContent = `Limits: ${model.format(L.max_file_bytes, 'B', { iec: true })} per file, ${L.max_points.toLocaleString('en-US')} points, nesting depth ${L.max_depth}, ${model.format(this.limitMs / 1000, 's')} of checking per file. Checked by core's C validator (the same as rooflab validate), each file on its own.`;
  }

  // The chart's marks and a point's tooltip lines, for tests that compare them with core's report.
  get chartList() { return this.marks.chartList; }
  pointText(rec, p, warnings) { return this.marks.pointText(rec, p, warnings); }
  warningsByPoint(report) { return warningsByPoint(report); }

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

  // A workspace file (share.js: its first key says so) opens as one; every other file is queued.
  async addFiles(files) {
    const rest = [];
    for (const f of files) {
      if (this.openWorkspace && /\.json$/i.test(f.name) && isWorkspace(await f.slice(0, 64).arrayBuffer())) await this.openWorkspace(await f.arrayBuffer(), f.name);
      else rest.push(f);
    }
    return this.queue.addFiles(rest, () => this.flushRender());
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
    await this.queue.enqueue(file, 'example', bytes);
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

  // The status line, its text escaped (it quotes file names).
  say(text) { $('records-status').textContent = this.esc(text); }

  // "idle" only once what was left for a batch is on the page (settleIdle, after flushRender).
  // say: false for work the status line need not announce (a write to storage).
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

  // slot: the file's pending entry (from the queue), replaced in place; else the entry is appended.
  // prep: the queue's results for this very file (its id, its marks), or null.
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
      entry.li = slot.li; // shown until the list remakes it (within its time budget)
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
    const n = report.ok ? report.record.points.length : 0;
    const said = report.ok
      ? `${name}: ${n.toLocaleString('en-US')} point${n === 1 ? '' : 's'} loaded${report.warnings ? `, ${plural(report.warnings, 'warning')}` : ''}.`
      : `${name}: refused (${plural(report.errors, 'error')}); nothing else changed.`;
    if (prep) prep.said = { entry, text: said }; // said with the chart (chartLater)
    else this.say(said);
    return entry;
  }

  // A file whose content is already loaded: it leaves the list and the status names the twin.
  duplicate(slot, twin) {
    this.files = this.files.filter((f) => f !== slot);
    this.renderLater({ chart: false });
    const s = $('records-status');
    s.textContent = this.esc(`${slot.name}: the same content as ${twin.name}, already loaded; not added again.`);
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
    btn.textContent = `Undo clear (${plural(gone.length, 'record')})`;
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
    this.say(`Clear undone: ${plural(gone.length, 'record')} back.`);
  }

  // Runs fn after every restore or merge already queued, with the busy status shown meanwhile.
  serial(fn) {
    this.setBusy(+1);
    const run = this.serialQueue.then(fn).finally(() => this.setBusy(-1));
    this.serialQueue = run.catch(() => {});
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

  renderList() {
    this.work.listRenders++;
    this.listStale = false;
    if (this.list.render(this.files, this.dropped)) {
      this.listStale = true;
      this.renderLater({ chart: false }); // the rest of the changed items
    }
  }

  renderDropped() { this.list.renderDropped(this.dropped); }

  renderChart() {
    this.work.chartRenders++;
    this.chartStale = false;
    const page = this.callbacks.page();
    const compare = this.compare.config(page ? page.dtype : '', page); // the page's device with its typed roof
    if ($('compare-notes')) $('compare-notes').textContent = this.esc(compare.notes.join('; '));
    this.marks.render(this.files, { labels: !!($('labels-toggle') && $('labels-toggle').checked), compare });
    this.renderBanner(page, compare.on);
  }

  // The hardware banner (hw-banner.js): after the records are drawn, and when the page's preset
  // changes (main.js, on the bus's 'rendered').
  renderBanner(page = this.callbacks.page(), compareOn = !!(this.compare.toggle && this.compare.toggle.checked)) {
    this.bannerHw = page ? page.hw : '';
    this.banner.render(this.files, (f) => this.marks.of(f), page, compareOn);
  }
  pageChanged() {
    const page = this.callbacks.page();
    if ((page ? page.hw : '') !== this.bannerHw) this.renderBanner(page);
  }

  // The banner's "compare": compare mode on with the shown records' devices and the page's preset.
  compareDevices() {
    const c = this.compare;
    if (!c.toggle) return;
    c.toggle.checked = true;
    c.autofill();
    const page = this.callbacks.page();
    const want = page ? `preset:${page.hw}` : '';
    const free = c.selects.find((s) => !s.value);
    if (want && free && !c.selects.some((s) => s.value === want) && [...free.options].some((o) => o.value === want)) free.value = want;
    c.changed(true);
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

  // ---------------------------------------------------------------------------------------------
  // Acting on the controls (through the controller, so the URL follows)
  adopt(rec, p) {
    const hw = p.hardware || rec.hardware || {};
    const notes = this.callbacks.onAdopt(p.problem, hw.preset || null);
    this.say(`Adopted ${p.label || `the point's problem`}${notes.length ? ` (${notes.join('; ')})` : ''}.`);
  }

  // A ceiling of another device (or of none named) is used only once the user confirms it.
  async useCeiling(field, value, name, fileName, device) {
    const unit = field === 'bandwidth' ? 'B/s' : 'FLOP/s';
    const mix = this.mixWarning(field, value, device);
    if (mix) {
      const what = `Use the “${name}” ceiling of ${fileName}, ${this.model.format(value, unit)}, as the page's ${field === 'bandwidth' ? 'bandwidth β' : 'peak π'}? ${mix[0].toUpperCase()}${mix.slice(1)}`;
      if (!await this.banner.confirm($('records-status'), what)) {
        this.say(`The roof was left as it was (the “${name}” ceiling of ${fileName} was not used).`);
        return;
      }
    }
    this.callbacks.onUseCeiling(field, this.model.format(value, unit, { sig: 12 }));
    this.say(`Roof: ${field === 'bandwidth' ? 'β' : 'π'} = ${this.model.format(value, unit)}, the measured “${name}” ceiling of ${fileName}, replaces the datasheet figure.${mix ? ` Warning: ${mix}` : ''}`);
    $('records-status').dataset.mix = mix;
  }

  // A ceiling of another device than the page's preset mixes two machines in one roof: said, e.g.
  // "this mixes the V100 SXM2's 828.8 GB/s ceiling with the H100 SXM5 80GB's 989.4 TFLOP/s peak".
  // The other figure is the page's current one (the controller's roof, page()); '' when the
  // ceiling's device is the preset's, or when the page has no roof.
  mixWarning(field, value, device) {
    const m = this.model;
    const page = this.callbacks.page();
    if (!page || !device || device.preset === page.hw) return '';
    if (!device.key) return `the ceiling's record names no device, so it may not be the ${shortName(page.hwName)}'s (two devices in one roof).`;
    const own = `the ${shortName(device.name)}’s ${m.format(value, field === 'bandwidth' ? 'B/s' : 'FLOP/s')} ${field === 'bandwidth' ? 'bandwidth' : 'compute'} ceiling`;
    const pageName = shortName(page.hwName);
    const other = field === 'bandwidth' ? `the ${pageName}’s ${m.format(page.peak, 'FLOP/s')} peak` : `the ${pageName}’s ${m.format(page.bandwidth, 'B/s')} bandwidth`;
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
