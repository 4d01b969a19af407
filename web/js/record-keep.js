// record-keep.js — records.js's records kept across reloads (record-db.js: IndexedDB), restored
// on load, and merged with other tabs' changes. Works on the Records object it is given (its
// files, its check pool, its rendering); records.js calls keep(), forget(), clearAll(), restore().
//
// Restoring does not hold up the page: the page is ready at once and the status line says how many
// stored records are coming back meanwhile. Every stored record is checked again by core's
// validator, all of them submitted to the check pool at once (its workers check them in
// parallel, and hash each text: an IndexedDB entry whose key is not that hash is dropped), and they are listed and drawn in batches: one render per batch, a batch being what
// arrived in BATCH_MS (at most BATCH_MAX records), so N records cost time linear in N, not a
// render each: the list appends the batch's items (record-list.js's itemOf reuses the others) and
// the chart follows at records.js's renderLater pace (never more than a third of the time).
//
// A write that fails (the storage full, refusing, or missing) loses nothing on screen: the record
// stays listed with the reason it is not kept (record-db.js's whyNotKept), and is written again
// after a removal frees room (retry()).
import { RecordDb, whyNotKept } from './record-db.js';
import { CheckStopped } from './check-pool.js';
import { reportProblem, clearProblem } from './storage.js';
import { yieldTask } from './record-pack.js';
import { ID_MISMATCH } from './record-store.js';
import { $ } from './dom.js';

const BATCH_MS = 16; // a batch: what arrived in this time, …
const BATCH_MAX = 25; // … and never more records than this (their list items are made in one task)
const plural = (n, word) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

export class Keeper {
  constructor(records) {
    this.r = records;
    this.db = new RecordDb();
    this.db.onOther((m) => this.fromOtherTab(m));
  }

  // Writes entries (files of records.js with storeId and text) in one transaction; each one's
  // f.keep: 'pending' → 'kept' | the reason it is not kept. The status stays busy until the write
  // has committed (a reload after "idle" finds the record).
  keep(files) {
    const list = files.filter((f) => f.storeId && f.text !== null && f.text !== undefined);
    if (!list.length) return Promise.resolve();
    for (const f of list) f.keep = 'pending';
    this.r.setBusy(+1, { say: false });
    return this.db.putMany(list).then(() => {
      for (const f of list) if (f.keep === 'pending') f.keep = 'kept';
      clearProblem('records');
    }, async (e) => {
      const why = await whyNotKept(e);
      for (const f of list) if (f.keep === 'pending') f.keep = why;
      if (e.kind === 'unavailable') reportProblem('records', why);
      if (list.length === 1) this.r.say(`${list[0].name}: shown, but not kept after a reload: ${why}.`);
      else this.r.say(`${plural(list.length, 'record')} shown, but not kept after a reload: ${why}.`);
    }).finally(() => {
      this.r.renderLater({ chart: false });
      this.r.setBusy(-1, { say: false });
    });
  }

  // Records shown but not kept (a full or refusing storage) are written again, e.g. after a removal.
  retry() {
    return this.keep(this.r.files.filter((f) => f.report && f.report.ok && f.text !== null && f.keep && f.keep !== 'kept' && f.keep !== 'pending'));
  }

  forget(f) {
    if (!f || !f.storeId || f.keep !== 'kept') return Promise.resolve();
    return this.db.remove(f.storeId).catch(async (e) => {
      this.r.say(`${f.name}: removed here, but it could not be removed from this browser's storage (${await whyNotKept(e)}); it comes back on the next load.`);
    });
  }

  clearAll() {
    return this.db.clear().catch(async (e) => {
      $('records-status').textContent = `Cleared here, but this browser's storage could not be emptied (${await whyNotKept(e)}); the records come back on the next load.`;
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Restoring

  // Every stored record (IndexedDB, then what an older version left in localStorage), checked,
  // listed and drawn in batches; bad ones dropped with a message naming them; the old layout moved
  // to IndexedDB.
  restore() {
    return this.r.serial(async () => {
      const t0 = performance.now();
      let fromDb = [];
      let dbError = null;
      try {
        fromDb = await this.db.readAll();
      } catch (e) {
        dbError = e;
        reportProblem('records', await whyNotKept(e, 'read'));
      }
      const fromLocal = this.db.readLocal();
      const all = [...fromLocal, ...fromDb].sort((a, b) => ((a.entry && a.entry.added) || 0) - ((b.entry && b.entry.added) || 0));
      if (!all.length) return;
      const status = $('records-status');
      const say = (done) => {
        status.textContent = `Restoring ${plural(all.length, 'record')} kept in this browser… ${done.toLocaleString('en-US')} checked so far; the page can be used meanwhile.`;
        status.dataset.restoring = `${done}/${all.length}`;
      };
      say(0);
      // every check submitted at once: the pool's workers take them in parallel
      const checks = all.map((s) => (s.ok ? this.check(s) : null));
      const moved = [];
      let last = performance.now();
      let batch = 0;
      for (let i = 0; i < all.length; i++) {
        const s = all[i];
        const f = s.ok ? this.restoreChecked(s, await checks[i]) : this.drop(s, s.reason);
        if (f && s.legacy) moved.push(s);
        if (++batch >= BATCH_MAX || performance.now() - last >= BATCH_MS) {
          batch = 0;
          this.r.renderList();
          this.r.renderLater({ list: false });
          say(i + 1);
          await yieldTask();
          last = performance.now();
        }
      }
      delete status.dataset.restoring;
      this.r.flushRender();
      const t1 = performance.now();
      this.timing = { start: t0, end: t1, count: all.length }; // read by the tests and make bench-page
      status.textContent = `${plural(this.r.files.filter((f) => f.restored).length, 'record')} restored from this browser's storage in ${this.r.model.format((t1 - t0) / 1000, 's')}.`;
      if (fromLocal.length && !dbError) await this.moveLocal(fromLocal, moved);
    });
  }

  // What an older version kept in localStorage, written to IndexedDB; its keys removed once that
  // write has committed (kept where they are when it fails: nothing is lost).
  async moveLocal(fromLocal, moved) {
    const unchecked = fromLocal.some((s) => s.unchecked);
    try {
      await this.db.moveFromLocal(moved, { unchecked });
    } catch (e) {
      const why = await whyNotKept(e);
      $('records-status').textContent = `Records kept by an older version could not be moved to this browser's database (${why}); they stay where they were and are read from there again next time.`;
    }
  }

  // The worker checks the stored text and hashes it (record-pack.js's aboutResult): its storeId is
  // the key's to match (an entry from IndexedDB: verifyId).
  check(s) {
    const bytes = new TextEncoder().encode(s.entry.text).buffer;
    const { name, source } = s.entry;
    const job = this.r.checker.submit('checkRecord', bytes, { id: { source, name } });
    return job.promise.then((report) => ({ report, storeId: job.about && job.about.storeId }), (error) => ({ error }));
  }

  restoreChecked(s, { report, error, storeId }) {
    if (!error && s.verifyId && storeId !== s.entry.id) return this.drop(s, ID_MISMATCH);
    if (error) {
      s.unchecked = true;
      const why = error instanceof CheckStopped ? `not checked within ${this.r.model.format(this.r.limitMs / 1000, 's')} (the time limit per file)` : `could not be checked (${error.message})`;
      this.r.dropped.push({ key: s.key, text: `${s.label}: ${why}; left in storage, not shown.` });
      return null;
    }
    if (!report.ok) {
      const first = report.issues.find((x) => x.severity === 'error');
      const more = report.errors > 1 ? ` (and ${report.errors - 1} more error${report.errors === 2 ? '' : 's'})` : '';
      return this.drop(s, `not a valid record: ${first ? first.message : 'refused'}${more}`);
    }
    const { id, name, source, visible, added, text } = s.entry;
    const f = this.r.add({ name, source, report, text, visible, added, persist: false, draw: false, storeId: id });
    if (f) {
      f.keep = 'kept';
      f.restored = true;
    }
    return f;
  }

  drop(s, reason) {
    if (s.legacy) {
      if (s.key !== 'rooflab.records.v1') this.db.dropLocal(s.key);
    } else {
      this.db.remove(s.id).catch(() => { /* dropped from the list either way */ });
    }
    this.r.dropped.push({ key: s.key, text: `${s.label}: dropped — ${reason}.` });
    return null;
  }

  // ---------------------------------------------------------------------------------------------
  // Another tab put, deleted or cleared records (record-db.js's channel): merged here, so nothing
  // either tab added is lost.
  fromOtherTab(m) {
    this.r.serial(async () => {
      if (m.op === 'clear') {
        this.r.files = this.r.files.filter((f) => f.pending);
        for (const s of await this.db.readAll()) if (s.ok) this.restoreChecked(s, await this.check(s)); // added there since
        $('records-status').textContent = 'All records were cleared in another tab.';
      } else if (m.op === 'delete') {
        this.r.files = this.r.files.filter((f) => f.pending || f.storeId !== m.id);
      } else if (m.op === 'put') {
        const s = await this.db.get(m.id);
        const mine = this.r.files.find((f) => f.storeId === m.id);
        if (s && s.ok && mine) {
          mine.visible = s.entry.visible;
          mine.keep = 'kept';
        } else if (s && s.ok) {
          this.restoreChecked(s, await this.check(s));
        }
      }
      this.r.render();
    }).catch(async (err) => {
      this.r.dropped.push({ key: m.id || '', text: `Records changed in another tab could not be merged: ${err instanceof Error && err.kind ? await whyNotKept(err) : err.message}` });
      this.r.renderDropped();
    });
  }
}
