// record-store.js — a record's id and stored shape, and the layout earlier versions kept records
// in, in the browser's localStorage (now read once and moved to IndexedDB: record-db.js):
//   rooflab.record.<id>       { v: 2, name, source, visible, added, text }   (text: the record file)
//   rooflab.records.cleared   a token written by "Clear all", so other tabs empty their lists too
//   rooflab.records.v1        the old single list (an array)
// <id> is a 64-bit hash of source, name and text: the same file added in two tabs is one record
// (IndexedDB's key too). checkStored checks a stored object's shape, wherever it was kept.
// This file knows the storage layout only; whether a record's text is a valid record is core's
// question (records.js asks the C validator through model.js). Pure apart from the Storage object
// it is given (the page gives storage.js's guardedLocal; node tests pass a Map-backed one).

export const PREFIX = 'rooflab.record.';
export const CLEARED_KEY = 'rooflab.records.cleared';
export const LEGACY_KEY = 'rooflab.records.v1';
const VERSION = 2;
const SOURCES = ['upload', 'example'];
export const ID_MISMATCH = 'its key does not match its content';

// cyrb53's mixing, both 32-bit lanes kept: 16 hex digits. The text may come in parts (hashed as
// their concatenation); hashSteps yields every HASH_STEP characters (the same digest either way).
// The page hashes a record in the worker that checks it (record-pack.js's aboutResult), never on
// the main thread.
const HASH_STEP = 1 << 20;

export function* hashSteps(...parts) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (const text of parts) {
    for (let from = 0; from < text.length; from += HASH_STEP) {
      const to = Math.min(text.length, from + HASH_STEP);
      for (let i = from; i < to; i++) {
        const c = text.charCodeAt(i);
        h1 = Math.imul(h1 ^ c, 2654435761);
        h2 = Math.imul(h2 ^ c, 1597334677);
      }
      if (to < text.length) yield;
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

// A generator run to its end (its return value): the steps without pauses.
export function runSteps(gen) {
  for (;;) {
    const r = gen.next();
    if (r.done) return r.value;
  }
}

export function contentHash(text) { return runSteps(hashSteps(text)); }

export function recordId(entry) { return runSteps(recordIdSteps(entry)); }
export function recordIdSteps({ source, name, text }) { return hashSteps(`${source}\n${name}\n`, text); }
export const keyOf = (id) => `${PREFIX}${id}`;
export const isRecordKey = (key) => typeof key === 'string' && key.startsWith(PREFIX);

// One stored value → { ok: true, entry: { id, name, source, visible, added, text } }
// | { ok: false, name (when it has one), reason }. `id` is the key's; it must match the content.
export function parseStored(id, value) {
  let o;
  try {
    o = JSON.parse(value);
  } catch (e) {
    return { ok: false, reason: `not valid JSON (${e.message})` };
  }
  return checkStored(id, o);
}

// A stored object (parsed from localStorage, or as IndexedDB gives it back) → parseStored's answer.
// verifyId: false leaves the key's match with the content to the caller (record-keep.js has the
// worker hash the text while it checks it: the page never hashes a large record itself).
export function checkStored(id, o, { verifyId = true } = {}) {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return { ok: false, reason: 'expected an object' };
  const name = typeof o.name === 'string' && o.name ? o.name : undefined;
  const bad = (reason) => ({ ok: false, name, reason });
  if (o.v !== VERSION) return bad(`v: expected ${VERSION}, got ${JSON.stringify(o.v)}`);
  if (!name) return bad('name: expected a non-empty string');
  if (typeof o.text !== 'string') return bad('text: expected a string (the record file)');
  if (!SOURCES.includes(o.source)) return bad(`source: expected ${SOURCES.join(' or ')}`);
  if (typeof o.visible !== 'boolean') return bad('visible: expected true or false');
  if (typeof o.added !== 'number' || !Number.isFinite(o.added)) return bad('added: expected a number');
  const entry = { id, name, source: o.source, visible: o.visible, added: o.added, text: o.text };
  if (verifyId && id !== null && recordId(entry) !== id) return bad(ID_MISMATCH);
  return { ok: true, entry };
}

export function serialize(entry) { return runSteps(serializeSteps(entry)); }

// serialize(entry) in steps of ESCAPE_STEP characters of its text (the text is the last key, so
// the parts' concatenation is JSON.stringify's output: escapes are per character, and a cut never
// falls between the two halves of a surrogate pair).
const ESCAPE_STEP = 1 << 20;
export function* serializeSteps(entry) {
  const { name, source, visible, added, text } = entry;
  if (typeof text !== 'string' || text.length <= ESCAPE_STEP) return JSON.stringify({ v: VERSION, name, source, visible, added, text });
  const head = JSON.stringify({ v: VERSION, name, source, visible, added });
  let out = `${head.slice(0, -1)},"text":"`;
  for (let from = 0; from < text.length;) {
    let to = Math.min(text.length, from + ESCAPE_STEP);
    const last = text.charCodeAt(to - 1);
    if (to < text.length && last >= 0xd800 && last <= 0xdbff) to--;
    out += JSON.stringify(text.slice(from, to)).slice(1, -1);
    from = to;
    if (from < text.length) yield;
  }
  return `${out}"}`;
}

export class RecordStore {
  // storage: window.localStorage, or null where the browser refuses it (then nothing is kept).
  constructor(storage) { this.s = storage; }

  get(key) {
    try { return this.s ? this.s.getItem(key) : null; } catch (_) { return null; }
  }

  keys() {
    try {
      if (this.s && typeof this.s.keys === 'function') return this.s.keys(); // storage.js's guardedLocal
      return this.s ? Array.from({ length: this.s.length }, (_, i) => this.s.key(i)) : [];
    } catch (_) {
      return [];
    }
  }

  has(id) { return this.get(keyOf(id)) !== null; }

  // Every stored entry, good or bad: [{ key, label, ok, entry | reason, legacy }], oldest first.
  readAll() {
    const out = [];
    for (const key of this.keys()) {
      if (isRecordKey(key)) out.push(this.read(key, this.get(key)));
      else if (key === LEGACY_KEY) out.push(...this.readLegacy());
    }
    return out.sort((a, b) => ((a.entry && a.entry.added) || 0) - ((b.entry && b.entry.added) || 0));
  }

  // One key's value (from storage or a storage event) → { key, label, ok, entry | reason }.
  read(key, value) {
    const p = parseStored(key.slice(PREFIX.length), value);
    return { key, label: describe(key, p.ok ? p.entry.name : p.name), ...p };
  }

  // The old single list: its valid-looking items become entries (legacy: true, to be moved).
  readLegacy() {
    const value = this.get(LEGACY_KEY);
    let list;
    try { list = JSON.parse(value); } catch (e) { list = e; }
    if (!Array.isArray(list)) {
      const reason = list instanceof Error ? `not valid JSON (${list.message})` : 'expected an array';
      return [{ key: LEGACY_KEY, label: describe(LEGACY_KEY), ok: false, reason, legacy: true }];
    }
    return list.map((s, i) => {
      const o = s && typeof s === 'object' ? s : {};
      const name = typeof o.name === 'string' && o.name ? o.name : `record ${i + 1}`;
      const source = SOURCES.includes(o.source) ? o.source : 'upload';
      const p = parseStored(null, JSON.stringify({ v: VERSION, name, source, visible: o.visible !== false, added: i, text: o.text }));
      const label = describe(`${LEGACY_KEY}[${i}]`, typeof o.name === 'string' ? o.name : undefined);
      if (p.ok) p.entry.id = recordId(p.entry);
      return { key: LEGACY_KEY, label, legacy: true, ...p };
    });
  }

  // Writes one entry ({ name, source, visible, added, text }) under its id; false when the
  // browser's storage is full or refused.
  // value: serialize(entry) when already made.
  put(id, entry, value = null) {
    if (!this.s) return false;
    try {
      this.s.setItem(keyOf(id), value === null ? serialize(entry) : value);
      return true;
    } catch (_) {
      return false;
    }
  }

  removeKey(key) {
    try { if (this.s) this.s.removeItem(key); } catch (_) { /* storage refused */ }
  }

  remove(id) { this.removeKey(keyOf(id)); }

  // Every kept record (and the old list) removed; the token tells other tabs to empty theirs.
  clear() {
    for (const key of this.keys()) if (isRecordKey(key) || key === LEGACY_KEY) this.removeKey(key);
    try {
      if (this.s) this.s.setItem(CLEARED_KEY, `${Date.now()}-${Math.random().toString(36).slice(2)}`);
    } catch (_) { /* storage refused */ }
  }
}

function describe(key, name) { return name !== undefined ? `“${name}” (stored as ${key})` : `stored entry ${key}`; }
