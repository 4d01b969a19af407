// record-db.js — the kept records, in the browser's own database (IndexedDB: hundreds of MB per
// origin, transactions), through storage.js (every request guarded, every failure classified):
//   database "rooflab", version 1, object store "records", keyPath "id":
//     { id, v: 2, name, source, visible, added, text }   (id: record-store.js's recordId; text: the file)
// Other tabs learn of a put, a delete or "Clear all" through the BroadcastChannel "rooflab.records"
// ({ op: 'put' | 'delete', id } | { op: 'clear' }) and read the database again.
//
// What older versions kept in localStorage (record-store.js's layout: one key per record, and the
// single list before that) is read once, checked like any stored record, written here, and its
// keys removed only after that write's transaction has committed (moveFromLocal).
//
// This file knows the layout only; whether a text is a valid record is core's question (records.js).
import { openDatabase, transact, request, StorageError, failureText, estimate, guardedLocal } from './storage.js';
import { RecordStore, checkStored, PREFIX, LEGACY_KEY } from './record-store.js';

export const DB_NAME = 'rooflab';
export const DB_VERSION = 1;
export const STORE = 'records';
export const CHANNEL = 'rooflab.records';

export class RecordDb {
  constructor() {
    this.dbPromise = null;
    this.legacy = new RecordStore(guardedLocal); // the old localStorage layout, read to be moved
    this.channel = null;
    try {
      if (typeof BroadcastChannel !== 'undefined') this.channel = new BroadcastChannel(CHANNEL);
    } catch (_) { /* other tabs then learn of changes on their next load */ }
  }

  // The open database (opened on first use; again after another context closed it).
  db() {
    if (!this.dbPromise) {
      this.dbPromise = openDatabase(DB_NAME, DB_VERSION, (db) => {
        if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
      }).then((db) => {
        db.onversionchange = () => { db.close(); this.dbPromise = null; }; // a deletion or upgrade elsewhere
        db.onclose = () => { this.dbPromise = null; };
        return db;
      });
      this.dbPromise.catch(() => { this.dbPromise = null; }); // asked again next time
    }
    return this.dbPromise;
  }

  // Whether the database can be opened: null when it can, else the StorageError.
  async probe() {
    try {
      await this.db();
      return null;
    } catch (e) {
      return e;
    }
  }

  // Every kept record, checked for shape: [{ key, label, ok, entry | reason }], oldest first.
  async readAll() {
    const db = await this.db();
    const rows = await transact(db, STORE, 'readonly', (tx) => request(tx.objectStore(STORE).getAll()));
    return rows.map((o) => this.read(o)).sort((a, b) => ((a.entry && a.entry.added) || 0) - ((b.entry && b.entry.added) || 0));
  }

  // One record by id (another tab's put), or null when it is not there.
  async get(id) {
    const db = await this.db();
    const o = await transact(db, STORE, 'readonly', (tx) => request(tx.objectStore(STORE).get(id)));
    return o === undefined ? null : this.read(o);
  }

  read(o) {
    const id = o && typeof o.id === 'string' ? o.id : String(o && o.id);
    const key = `IndexedDB ${DB_NAME}/${STORE}/${id}`;
    const p = checkStored(id, o, { verifyId: false }); // the key's match: the worker's hash (record-keep.js)
    const name = p.ok ? p.entry.name : p.name;
    return { key, id, label: name !== undefined ? `“${name}” (kept as ${key})` : `kept entry ${key}`, verifyId: true, ...p };
  }

  // Writes entries ({ storeId, name, source, visible, added, text }) in one transaction; resolves
  // once it has committed. Rejects with a StorageError (kind: full | refused | unavailable).
  async putMany(entries, { tell = true } = {}) {
    if (!entries.length) return;
    const db = await this.db();
    await transact(db, STORE, 'readwrite', (tx) => {
      const st = tx.objectStore(STORE);
      for (const e of entries) st.put({ id: e.storeId, v: 2, name: e.name, source: e.source, visible: e.visible, added: e.added, text: e.text });
    });
    if (tell) for (const e of entries) this.tell({ op: 'put', id: e.storeId });
  }

  put(entry) { return this.putMany([entry]); }

  async remove(id) {
    const db = await this.db();
    await transact(db, STORE, 'readwrite', (tx) => { tx.objectStore(STORE).delete(id); });
    this.tell({ op: 'delete', id });
  }

  async clear() {
    const db = await this.db();
    await transact(db, STORE, 'readwrite', (tx) => { tx.objectStore(STORE).clear(); });
    this.tell({ op: 'clear' });
  }

  tell(msg) {
    try { if (this.channel) this.channel.postMessage(msg); } catch (_) { /* the channel is closed */ }
  }

  onOther(fn) {
    if (this.channel) this.channel.onmessage = (e) => fn(e.data || {});
  }

  // What older versions kept in localStorage: [{ key, label, ok, entry | reason, legacy: true }].
  readLocal() {
    return this.legacy.readAll().map((s) => ({ ...s, legacy: true }));
  }

  // The checked records from localStorage written here; their keys (and the old list's) removed
  // once the write has committed. Entries that could not be checked stay where they are.
  async moveFromLocal(entries, { unchecked = false } = {}) {
    await this.putMany(entries.map((s) => ({ storeId: s.entry.id, ...s.entry })), { tell: false });
    for (const s of entries) if (s.key !== LEGACY_KEY) this.legacy.removeKey(s.key);
    if (!unchecked) this.legacy.removeKey(LEGACY_KEY);
  }

  dropLocal(key) { this.legacy.removeKey(key); }
}

export const isLocalRecordKey = (key) => typeof key === 'string' && (key.startsWith(PREFIX) || key === LEGACY_KEY);

// A failed write in words: "this browser's storage for the page is full (QuotaExceededError, 4.80
// MiB of its 5.00 MiB used)" | "this browser refused the write (…)" | "… is unavailable (…)".
export async function whyNotKept(e, verb = 'write') {
  const c = e instanceof StorageError ? { kind: e.kind, name: e.errName, message: e.detail, why: e.message }
    : { kind: 'refused', name: (e && e.name) || 'Error', message: String((e && e.message) || e), why: String((e && e.message) || e) };
  return failureText(c, c.kind === 'full' ? await estimate() : null, verb);
}
