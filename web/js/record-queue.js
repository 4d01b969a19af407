// record-queue.js — files on their way in: each file chosen, dropped or picked from the examples
// is listed at once as pending, sent to the worker (check-pool.js; records-worker.js does the
// reading, checking, importing and hashing), and comes out as one event. It keeps no list; it
// tells its owner (records.js) what happened, through these events:
//   pending(slot)          a file is listed as pending (slot: { id, name, source, since, added,
//                          job, format, cancel() … }, replaced by the record when it settles)
//   stage(slot)            where its check is changed (or another second passed): say it
//   asking(slot)           a tool's output waits for the problem form (slot.form: import-form.js)
//   added({ name, source, report, text, slot, format, prep })   it settled: a record (prep: its id
//                          and chart marks, made beforehand), or refused (report.ok false); the
//                          owner lists it (and the promise it returns is awaited)
//   duplicate(slot, twin)  its content is a loaded file's: not added
//   cancelled(slot)        the person cancelled it: it leaves the list
//   busy(delta)            work started (+1) or ended (-1)
// The worker sends the file's text, its content hash and the record's id (record-pack.js's
// aboutResult), and the chart's columns; the only work here is making the marks (record-marks.js)
// in slices of SLICE_MS, the file's pending line saying so while it takes more than one.

import { CheckPool, CheckStopped } from './check-pool.js';
import { yieldTask, SLICE_MS } from './record-pack.js';
import { recordId } from './record-store.js';
import { ImportForm } from './import-form.js';

const ADD_CHUNK = 25; // files listed per task when many are chosen at once

export class RecordQueue {
  // files(): the owner's list (to find a file's twin, and whether a slot is still listed);
  // newId(): the owner's next list id; marks: record-marks.js's Marks; list: record-list.js's.
  constructor(model, { limitMs, files, newId, marks, list, on }) {
    this.model = model;
    this.limitMs = limitMs;
    this.maxBytes = model.recordLimits.max_file_bytes;
    this.checker = new CheckPool(model, { limitMs });
    this.files = files;
    this.newId = newId;
    this.marks = marks;
    this.list = list;
    this.on = on;
    this.ticker = null; // says the pending files' elapsed time once a second
    this.lastAdded = 0;
  }

  // Files chosen at once are listed ADD_CHUNK at a time, a task each (400 files never make one long
  // task), then each is read and checked on its own. flush(): the owner draws what is listed.
  async addFiles(files, flush) {
    const out = [];
    this.on.busy(+1);
    try {
      for (let i = 0; i < files.length; i += ADD_CHUNK) {
        if (files.length > ADD_CHUNK) await yieldTask(); // the browser's own work on the file list ends first
        for (const f of files.slice(i, i + ADD_CHUNK)) out.push(this.addFile(f));
        flush();
      }
    } finally {
      this.on.busy(-1);
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
    this.on.busy(+1);
    return (async () => {
      try {
        if (report) await this.on.added({ name, source, report, text: null, slot });
        else await this.take(slot, bytes || await file.arrayBuffer());
      } catch (e) {
        await this.settleFailed(slot, e);
      } finally {
        this.on.busy(-1);
      }
    })();
  }

  pendingEntry(name, source) {
    // added: when it was chosen, apart from the others chosen in the same ms (kept records come
    // back in this order)
    this.lastAdded = Math.max(Date.now(), this.lastAdded + 0.001);
    const slot = { id: this.newId(), pending: true, name, source, since: Date.now(), added: this.lastAdded, job: null, cancelled: false, report: null };
    slot.cancel = () => {
      slot.cancelled = true;
      if (slot.job && slot.job.state !== 'done') slot.job.cancel();
      else if (slot.asking) this.settleFailed(slot, new CheckStopped('cancelled'));
    };
    this.on.pending(slot);
    this.tick();
    return slot;
  }

  // One operation of the worker for the file → { result, about } (about: record-pack.js's
  // aboutResult); Cancel stops it.
  run(slot, op, buf, args = null) {
    if (slot.cancelled) return Promise.reject(new CheckStopped('cancelled'));
    const job = this.checker.submit(op, buf, args);
    slot.job = job;
    this.on.stage(slot);
    job.onStage = () => this.on.stage(slot); // check-pool.js's stages of the job, said as they come
    return job.promise.then((result) => ({ result, about: job.about || {} }));
  }

  // What the file is (core's rl_import_detect, which also sends back the file's text and content
  // hash), then: a record is checked as it is, a tool's output imported once its form is answered
  // (the problem for an ncu CSV or a Google Benchmark JSON; the device an ERT roofline.json ran on).
  async take(slot, buf) {
    const { result: found, about: { text, rawKey } } = await this.run(slot, 'detectFormat', buf);
    const twin = this.twinOf(slot, text, rawKey);
    if (twin) return this.on.duplicate(slot, twin);
    if (!found.ok) return this.refuseUnknown(slot, buf, found.message);
    slot.format = found.format;
    if (slot.li && slot.pending) slot.li.querySelector('.record-head').after(this.list.formatLine(slot.format)); // in place
    const id = { source: slot.source, name: slot.name };
    if (found.format === 'record') {
      const { result: report, about } = await this.run(slot, 'checkRecord', buf, { id });
      const kept = report.ok ? text : null;
      const prep = await this.prepare(slot, report, kept, about.storeId);
      return this.on.added({ name: slot.name, source: slot.source, report, text: kept, slot, format: slot.format, prep });
    }
    slot.rawKey = slot.rawKey || rawKey;
    return this.ask(slot, buf);
  }

  // A loaded file with the same content: a record with this very text, or a tool's output imported
  // from the same bytes (rawKey: the worker's hash, kept for imports only); else undefined.
  // Strings are compared by length first.
  twinOf(slot, text, rawKey) {
    const files = this.files();
    return (typeof text === 'string' && files.find((f) => f !== slot && f.text && f.text.length === text.length && f.text === text))
      || (rawKey && files.find((f) => f !== slot && f.rawKey === rawKey)) || undefined;
  }

  // Neither a record nor a tool's output: core's word on the formats it looked for, then the
  // record reader's errors (with their JSON paths).
  async refuseUnknown(slot, buf, message) {
    const { result: rep } = await this.run(slot, 'checkRecord', buf);
    const issues = [{ severity: 'error', path: '', message }, ...rep.issues.filter((x) => x.severity === 'error')];
    const report = { ok: false, errors: rep.errors + 1, warnings: 0, issues_omitted: rep.issues_omitted || 0, issues, record: null };
    return this.on.added({ name: slot.name, source: slot.source, report, text: null, slot });
  }

  async addImported(slot, r, storeId) {
    const report = r.ok ? r.report
      : { ok: false, errors: 1, warnings: 0, issues: [{ severity: 'error', path: r.field, message: r.message }], record: null };
    const text = r.ok ? r.text : null;
    const prep = await this.prepare(slot, report, text, storeId);
    return this.on.added({ name: slot.name, source: slot.source, report, text, slot, format: slot.format, prep });
  }

  // The record's marks, made beforehand in slices (so the owner's add() takes one short task):
  // { storeId (the worker's), added, marks }; marks null when the record is loaded already.
  async prepare(slot, report, text, storeId) {
    if (!report.ok || text === null || !this.files().includes(slot)) return null;
    const { name, source, added } = slot;
    const id = storeId || recordId({ source, name, text }); // the worker gives it; a check elsewhere may not
    if (this.files().some((f) => f.storeId === id)) return { storeId: id, added, marks: null };
    const marks = await this.sliced(slot, 'placing the points on the chart', this.marks.steps(report));
    await yieldTask(); // add() in a task of its own
    return { storeId: id, added, marks };
  }

  // Runs a generator's steps about SLICE_MS at a time, a task each, and says `what` in the file's
  // pending line while it takes more than one; its return value.
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
        this.on.stage(slot);
      }
      await yieldTask();
      if (slot.cancelled) throw new CheckStopped('cancelled');
    }
  }

  // The problem form (import-form.js) for an ncu CSV or a gbench JSON: only what the file itself
  // names is filled in (never the page's controls, issue 20); imported once the needed fields are
  // given and again in the worker whenever an answer changes, the resulting points shown;
  // confirm adds them. The file stays pending (not busy) while the form waits for the person.
  ask(slot, buf) {
    slot.buf = buf;
    slot.asking = true;
    slot.previewSeq = 0;
    const hints = this.model.importHints(buf); // what the file names unasked (FA2 kernel traits)
    slot.form = new ImportForm(this.model, {
      // (nothing is taken from the controls: an ERT file's device and every answer start unsaid)
      format: slot.format, answers: { ...hints.answers }, hints,
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
    this.on.asking(slot);
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
    // With needed answers missing the importer still runs, on core's defaults for those (a probe),
    // so that a file it refuses whatever the answers says so at once; the probe's points are
    // neither shown nor addable (the form says what is needed until it is given).
    const missing = slot.form.missing();
    const asked = missing.length ? { ...answers, ...slot.form.probeAnswers(missing) } : answers;
    this.on.busy(+1);
    try {
      const { result: r, about } = await this.run(slot, 'importRecord', slot.buf, { format: slot.format, answers: asked, id: { source: slot.source, name: slot.name } });
      if (seq !== slot.previewSeq) return;
      slot.result = r;
      slot.resultId = about.storeId;
      slot.resultAnswers = JSON.stringify(answers);
      slot.form.showPreview(r, this.list.previewRows(r));
      if (slot.confirmWhenReady) this.confirmImport(slot);
    } catch (e) {
      if (seq !== slot.previewSeq) return;
      if (slot.cancelled) this.settleFailed(slot, e);
      else slot.form.showPreview({ ok: false, field: '', message: this.stoppedMessage(e, 'imported') });
    } finally {
      this.on.busy(-1);
    }
  }

  // Adds the previewed record; answers changed since the preview are imported first.
  confirmImport(slot) {
    slot.confirmWhenReady = false;
    if (!slot.asking || slot.form.missing().length) return; // Enter in a form still missing answers
    if (!slot.result || slot.resultAnswers !== JSON.stringify(this.answersOf(slot))) {
      slot.confirmWhenReady = true;
      if (slot.result) this.preview(slot);
      return;
    }
    const r = slot.result;
    if (!r.ok || !r.report.ok || r.text === null) return;
    slot.asking = false;
    slot.buf = null;
    this.on.busy(+1);
    this.addImported(slot, r, slot.resultId).catch((e) => this.settleFailed(slot, e)).finally(() => this.on.busy(-1));
  }

  // A check that did not finish: cancelled (the file leaves the list), over the time limit or
  // failed (listed as refused, with the reason in one line).
  settleFailed(slot, e) {
    const { name, source } = slot;
    if (!this.files().includes(slot)) return undefined; // its list was cleared meanwhile
    if (e instanceof CheckStopped && e.reason === 'cancelled') return this.on.cancelled(slot);
    const message = this.stoppedMessage(e, 'checked');
    return this.on.added({ name, source, slot, report: { ok: false, errors: 1, warnings: 0, issues: [{ severity: 'error', path: '', message }], record: null }, text: null });
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
      const pending = this.files().filter((f) => f.pending && !f.asking);
      if (!pending.length) {
        clearInterval(this.ticker);
        this.ticker = null;
      }
      for (const f of pending) this.on.stage(f);
    }, 1000);
  }
}
