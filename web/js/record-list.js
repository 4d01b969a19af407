// record-list.js — the list of records on the page: each file as it is (pending with what its
// check is doing and a Cancel button, the problem form of an import, refused with its errors and
// their JSON paths, or loaded: provenance, hardware, kernel, points, warnings, ceilings with "use
// as β / π", the points table with "adopt"), and the stored entries that could not be restored.
// It renders what it is given and says what the person did through callbacks; it keeps no files.
//
//   const list = new RecordList(model, { esc, limitMs, work, hwNames(f), onRemove(f), onVisible(f),
//     onAdopt(rec, p), onUseCeiling(field, value, ceilingName, fileName, device), onDismissDropped() })
//   list.render(files, dropped)      the list (items remade only where what they show changed)
//   list.sayPending(slot)            a pending file's line, now (its stage changed, or a second passed)
//   list.formatLine(format), list.previewRows(result)   pieces the queue shows in a pending item
// Record strings reach the DOM only through textContent and attributes (dom.js's el with core's
// escaper), never as HTML.

import { showStorageNote } from './storage.js';
import { pointDevice } from './record-pack.js';
import { deviceDetails } from './record-marks.js';
import { $, makeEl } from './dom.js';

const MAX_ROWS = 200; // points listed per file (all of them are drawn)
const LIST_SLICE_MS = 12; // render: time for remaking changed items per render
const plural = (n, word) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

export class RecordList {
  constructor(model, { esc, limitMs, work = { itemsMade: 0 }, hwNames, onRemove, onVisible, onAdopt, onUseCeiling, onDismissDropped }) {
    this.model = model;
    this.work = work; // work.itemsMade: list items made (the owner's counts, read by the tests)
    this.el = makeEl(esc);
    this.limitMs = limitMs;
    this.on = { hwNames, onRemove, onVisible, onAdopt, onUseCeiling, onDismissDropped };
    this.stale = false; // items left as they were (over the time budget): the owner renders again
  }

  // Returns true when items are left to remake (the owner renders again later).
  render(files, dropped) {
    this.stale = false;
    this.renderDropped(dropped);
    showStorageNote();
    const ul = $('records-list');
    // A problem form keeps its element across renders; the field being typed in keeps the focus.
    const active = document.activeElement && ul.contains(document.activeElement) ? document.activeElement : null;
    const t0 = performance.now();
    const items = files.map((f, fi) => this.itemOf(f, fi, t0));
    const kids = ul.children;
    let same = 0;
    while (same < kids.length && same < items.length && kids[same] === items[same]) same++;
    if (same === kids.length) ul.append(...items.slice(same)); // only new files, at the end
    else if (kids.length === items.length) { // files settled in place: only their items change
      for (let i = same; i < items.length; i++) if (kids[i] !== items[i]) kids[i].replaceWith(items[i]);
    } else {
      ul.replaceChildren(...items);
    }
    $('records-empty').hidden = files.length > 0;
    if (active && active.isConnected && document.activeElement !== active) active.focus({ preventScroll: true });
    return this.stale;
  }

  // A file's list item, made again only when what it shows changed (its place, pending state,
  // visibility, kept state): a list of a thousand files is not rebuilt for each new one.
  // A list of many changed items is made again LIST_SLICE_MS at a time: an item over the budget
  // keeps its old element until the next render, a new file's is always made.
  itemOf(f, fi, t0) {
    const keep = f.keep === 'kept' || f.keep === 'pending' ? '' : f.keep;
    const key = `${fi}|${f.pending ? `p${f.asking ? 'a' : ''}` : ''}|${f.visible}|${keep}|${f.colorIndex}`;
    if (f.li && f.liKey === key) return f.li;
    if (f.li && performance.now() - t0 > LIST_SLICE_MS) {
      this.stale = true;
      return f.li;
    }
    f.li = this.fileItem(f, fi);
    f.liKey = key;
    this.work.itemsMade++;
    return f.li;
  }

  // Stored entries that could not be restored: named, with the reason, above the list.
  renderDropped(dropped) {
    const el = this.el;
    let box = $('records-dropped');
    if (!dropped.length) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = el('div', { id: 'records-dropped', className: 'records-dropped', testid: 'records-dropped', role: 'alert' });
      $('records-list').before(box);
    }
    const ul = el('ul', { className: 'record-errors' });
    for (const d of dropped) {
      const li = el('li', { text: d.text, testid: 'records-dropped-item' });
      li.dataset.key = d.key;
      ul.append(li);
    }
    box.replaceChildren(
      el('p', { className: 'field-error', text: `${dropped.length} record${dropped.length === 1 ? '' : 's'} kept in this browser could not be restored:` }),
      ul,
      el('button', { type: 'button', testid: 'action-records-dropped-dismiss', text: 'Dismiss', onclick: () => this.on.onDismissDropped() }));
  }

  // A pending file's line (its element, kept by pendingItem) says where its check is.
  sayPending(f) {
    if (f.stateEl) f.stateEl.textContent = this.pendingText(f);
  }

  pendingText(f) {
    const m = this.model;
    const s = Math.floor((Date.now() - f.since) / 1000);
    const what = !f.job ? 'reading' : f.job.state === 'waiting' ? 'waiting for a free checker' : f.format && f.format !== 'record' ? 'importing' : 'checking';
    const st = f.job && f.job.stage;
    if (st && st.name === 'sending') return `${what}: done in the worker; ${st.points ? `${st.points.toLocaleString('en-US')} points` : 'the result'} coming to the page… ${s} s`;
    if (st && st.name === 'preparing') return `${what}: done; ${st.what}… ${s} s`;
    const size = st && st.bytes ? ` ${m.format(st.bytes, 'B')} in core's C code (a worker)` : '';
    return `${what}${size}… ${s} s (time limit ${m.format(this.limitMs / 1000, 's')})`;
  }

  // The format core recognised in a file (rl_import_detect), e.g. "ncu-csv".
  formatLine(format) {
    const el = this.el;
    const p = el('p', { className: 'hint' }, 'format found: ', el('code', { testid: 'import-format', text: format }),
      format === 'record' ? ' (a rooflab record)' : ` (read by core's importer, as rooflab import ${format})`);
    p.querySelector('code').dataset.value = format;
    return p;
  }

  // A file still being read or checked (or waiting for the problem form): its name, what it is
  // waiting for, and Cancel.
  pendingItem(f, fi) {
    const el = this.el;
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
    const el = this.el;
    const li = el('li', { className: `record ${f.report.ok ? 'ok' : 'refused'}`, testid: `record-${fi}` });
    li.dataset.value = f.report.ok ? 'ok' : 'refused';
    const swatch = el('span', { className: 'swatch-dot' });
    swatch.style.background = `var(--rec${f.colorIndex + 1})`;
    const head = el('div', { className: 'record-head' }, swatch, el('strong', { text: f.name, testid: `record-name-${fi}` }));
    const tools = el('span', { className: 'buttons' });
    if (f.report.ok) {
      const vis = el('input', { type: 'checkbox', testid: `record-visible-${fi}`, 'aria-label': `show ${f.name} on the roofline` });
      vis.checked = f.visible;
      vis.addEventListener('change', () => { f.visible = vis.checked; this.on.onVisible(f); });
      tools.append(el('label', { className: 'check' }, vis, ' shown'));
    }
    tools.append(el('button', { type: 'button', testid: `record-remove-${fi}`, text: 'Remove', onclick: () => this.on.onRemove(f) }));
    head.append(tools);
    li.append(head);
    if (f.format) li.append(this.formatLine(f.format));
    if (!f.report.ok) {
      li.append(el('p', { className: 'field-error', text: 'Refused: not loaded. Errors (with their JSON paths):' }), this.errorList(f.report, `record-errors-${fi}`, true));
      return li;
    }
    const rec = f.report.record;
    li.append(this.meta(f, fi));
    if (rec.provenance.kind === 'historical-unaudited') li.append(el('p', { className: 'badge-historical', testid: `record-historical-${fi}`, text: 'Historical, unaudited: drawn hollow; it never counts as evidence.' }));
    if (rec.provenance.notes) li.append(el('p', { className: 'hint', text: rec.provenance.notes }));
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
    const ceilings = this.ceilingList(f, fi);
    if (ceilings) li.append(el('p', { className: 'hint', text: 'Ceilings in this record (a measured ceiling can replace the datasheet roof):' }), ceilings);
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

  // A report's errors with their JSON paths (data-path), and (omitted) how many more were left out.
  errorList(report, testid, omitted) {
    const el = this.el;
    const ul = el('ul', { className: 'record-errors', testid });
    for (const it of report.issues.filter((x) => x.severity === 'error')) {
      const item = el('li', { text: it.message });
      item.dataset.path = it.path;
      ul.append(item);
    }
    if (omitted && report.issues_omitted) ul.append(el('li', { text: `… and ${report.issues_omitted} more` }));
    return ul;
  }

  // provenance, hardware, device, kernel, points (and whether it is kept after a reload)
  meta(f, fi) {
    const el = this.el;
    const rec = f.report.record;
    const hwNames = rec.hardware && rec.hardware.name ? rec.hardware.name : [...this.on.hwNames(f)].join(', ');
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
    return dl;
  }

  // The record's stated ceilings, each with "use as bandwidth β" / "use as peak π"; null if none.
  ceilingList(f, fi) {
    const el = this.el;
    const m = this.model;
    const rec = f.report.record;
    const ceilings = (rec.hardware && rec.hardware.ceilings) || [];
    if (!ceilings.length) return null;
    const cu = el('ul', { className: 'record-ceilings' });
    ceilings.forEach((c, ci) => {
      const bw = c.bytes_per_s !== undefined;
      const value = bw ? c.bytes_per_s : c.flops_per_s;
      const btn = el('button', {
        type: 'button', testid: `use-ceiling-${fi}-${ci}`, text: bw ? 'use as bandwidth β' : 'use as peak π',
        onclick: () => this.on.onUseCeiling(bw ? 'bandwidth' : 'peak', value, c.name, f.name, pointDevice(rec, {})),
      });
      cu.append(el('li', {}, `${c.name}: ${m.format(value, bw ? 'B/s' : 'FLOP/s')} (${c.source}${c.dtype ? `, ${c.dtype}` : ''}) `, btn));
    });
    return cu;
  }

  // The points an import gives, as the list will show them, or its errors (with their positions).
  previewRows(r) {
    const el = this.el;
    if (!r.ok) return [];
    if (!r.report.ok) return [el('p', { className: 'field-error', text: 'Not imported with these answers:' }), this.errorList(r.report, 'import-errors', false)];
    const rec = r.report.record;
    const warnings = r.report.issues.filter((x) => x.severity === 'warning').map((w) => el('li', { text: w.message }));
    return [
      el('p', { className: 'hint', text: `${plural(rec.points.length, 'point')} with these answers (not added yet):` }),
      this.pointsTable(rec, null),
      warnings.length ? el('ul', { className: 'record-warnings' }, ...warnings) : null,
    ];
  }

  // The first MAX_ROWS points as a table; fi: the file's index (an "adopt" button per point), or
  // null for an import's preview (the kernel named instead).
  pointsTable(rec, fi) {
    const el = this.el;
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
        preview ? null : el('td', {}, el('button', { type: 'button', testid: `adopt-${fi}-${pi}`, text: 'adopt', title: 'set the controls to this problem', onclick: () => this.on.onAdopt(rec, p) }))));
    });
    table.append(body);
    return table;
  }
}
