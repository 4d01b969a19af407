// storage.js — the one door to the browser's storage: every read and write of localStorage (small
// settings: the theme, the tour's "start here" line, the practice score) and every IndexedDB
// request (the kept records, record-db.js) goes through here, and none of them can throw out of it.
// A storage that throws (a corrupted profile's NS_ERROR_FILE_CORRUPTED, a policy's SecurityError,
// a full disk's QuotaExceededError) gives null / false and a named problem; the page says what is
// not kept (showStorageNote) and carries on.
//
// Why a write failed, in three kinds (classify), each said in its own words:
//   full         the origin's quota is used up (QuotaExceededError, Firefox's NS_ERROR_DOM_QUOTA_REACHED)
//   refused      the browser refused the request (SecurityError, InvalidStateError, UnknownError, …)
//   unavailable  there is no storage to ask (no IndexedDB, or it could not be opened)

const QUOTA_NAMES = new Set(['QuotaExceededError', 'NS_ERROR_DOM_QUOTA_REACHED']);

// An error thrown by storage → { kind: 'full' | 'refused' | 'unavailable', name, message, why }.
// why: the error's own name and message in words, e.g. "SecurityError: The operation is insecure."
export function classify(e, kind = null) {
  const name = (e && (e.name || (e.constructor && e.constructor.name))) || 'Error';
  const message = (e && e.message) || String(e);
  const full = QUOTA_NAMES.has(name) || (e && (e.code === 22 || e.code === 1014));
  return { kind: kind || (full ? 'full' : 'refused'), name, message, why: message ? `${name}: ${message}` : name };
}

// What a failed write means for the thing written, in words (no numbers invented: the quota
// figures are the browser's own estimate, when it gives one).
// verb: what was refused ('write', 'read').
export function failureText(c, estimate = null, verb = 'write') {
  if (c.kind === 'full') {
    const figs = estimate && estimate.quota > 0 ? `, ${mib(estimate.usage)} of its ${mib(estimate.quota)} used` : '';
    return `this browser's storage for the page is full (${c.name}${figs})`;
  }
  if (c.kind === 'unavailable') return `this browser's database (IndexedDB) is unavailable (${c.why})`;
  return `this browser refused the ${verb} (${c.why})`;
}

const mib = (b) => `${(b / 1048576).toFixed(b < 10485760 ? 2 : 1)} MiB`;

// navigator.storage.estimate() when the browser has it: { usage, quota } in bytes, else null.
export async function estimate() {
  try {
    if (typeof navigator === 'undefined' || !navigator.storage || !navigator.storage.estimate) return null;
    const e = await navigator.storage.estimate();
    return Number.isFinite(e.usage) && Number.isFinite(e.quota) ? { usage: e.usage, quota: e.quota } : null;
  } catch (_) {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// What is not kept: one line per area ('settings', 'records'), shown above the records list.
const problems = new Map();
const listeners = new Set();

export function reportProblem(area, text) {
  if (problems.get(area) === text) return;
  problems.set(area, text);
  for (const fn of listeners) fn();
  showStorageNote();
}

export function clearProblem(area) {
  if (!problems.delete(area)) return;
  for (const fn of listeners) fn();
  showStorageNote();
}

export function storageProblems() { return new Map(problems); }
export function onStorageProblem(fn) { listeners.add(fn); }

const AREA_WORDS = {
  settings: 'Settings (the colour scheme, the tour\'s "start here" line, the practice score) are not kept after a reload',
  records: 'Records are not kept after a reload',
};

// The note (#storage-note, made on first need before the records list); hidden when all is kept.
export function showStorageNote() {
  if (typeof document === 'undefined') return;
  const list = document.getElementById('records-list');
  let note = document.getElementById('storage-note');
  if (!problems.size) {
    if (note) note.hidden = true;
    return;
  }
  if (!note) {
    if (!list) return; // shown once the page has its records section (records.js calls this again)
    note = document.createElement('div');
    note.id = 'storage-note';
    note.className = 'storage-note field-error';
    note.dataset.testid = 'storage-note';
    note.setAttribute('role', 'status');
    list.before(note);
  }
  note.hidden = false;
  note.replaceChildren(...[...problems].map(([area, text]) => {
    const p = document.createElement('p');
    p.dataset.area = area;
    p.textContent = `${AREA_WORDS[area] || area}: ${text}.`;
    return p;
  }));
}

// ---------------------------------------------------------------------------------------------
// Settings in localStorage. Each call asks for window.localStorage afresh (reading the property
// itself may throw) and catches whatever the call throws.

function local() {
  try {
    const s = window.localStorage;
    if (!s) throw new Error('window.localStorage is missing');
    return s;
  } catch (e) {
    reportProblem('settings', `this browser refused its local storage (${classify(e).why})`);
    return null;
  }
}

function settingsFailed(what, e) {
  const c = classify(e);
  reportProblem('settings', c.kind === 'full' ? failureText(c) : `this browser refused to ${what} them (${c.why})`);
  return c;
}

// The stored string, or null when there is none or it cannot be read.
export function getSetting(key) {
  const s = local();
  if (!s) return null;
  try {
    return s.getItem(key);
  } catch (e) {
    settingsFailed('read', e);
    return null;
  }
}

// → { ok: true } | { ok: false, kind, why, text }
export function setSetting(key, value) {
  const s = local();
  if (!s) return { ok: false, kind: 'unavailable', why: 'no local storage', text: 'this browser has no local storage for the page' };
  try {
    s.setItem(key, value);
    return { ok: true };
  } catch (e) {
    const c = settingsFailed('write', e);
    return { ok: false, ...c, text: failureText(c) };
  }
}

export function removeSetting(key) {
  const s = local();
  if (!s) return false;
  try {
    s.removeItem(key);
    return true;
  } catch (e) {
    settingsFailed('change', e);
    return false;
  }
}

// Every key in localStorage ([] when they cannot be listed: length or key() throwing).
export function settingKeys() {
  const s = local();
  if (!s) return [];
  try {
    const n = s.length;
    const out = [];
    for (let i = 0; i < n; i++) out.push(s.key(i));
    return out.filter((k) => typeof k === 'string');
  } catch (e) {
    settingsFailed('list', e);
    return [];
  }
}

// The localStorage object itself, for comparing with a storage event's storageArea (null when
// refused). Nothing is read through it.
export function settingsArea() {
  try { return window.localStorage; } catch (_) { return null; }
}

// ---------------------------------------------------------------------------------------------
// IndexedDB: one database, opened once (and again after another tab's upgrade or a deletion closed
// it). Every request is wrapped so that a throw becomes a rejected promise with a classified error.

export class StorageError extends Error {
  constructor(c) {
    super(c.why);
    this.kind = c.kind;
    this.errName = c.name;
    this.detail = c.message;
  }
}

const fail = (e, kind = null) => (e instanceof StorageError ? e : new StorageError(classify(e, kind)));

export function openDatabase(name, version, upgrade) {
  return new Promise((resolve, reject) => {
    let req;
    try {
      const factory = typeof indexedDB !== 'undefined' ? indexedDB : null;
      if (!factory) throw new StorageError({ kind: 'unavailable', name: 'IndexedDB', message: 'not offered by this browser', why: 'not offered by this browser' });
      req = factory.open(name, version);
    } catch (e) {
      reject(fail(e, 'unavailable'));
      return;
    }
    req.onupgradeneeded = () => {
      try { upgrade(req.result); } catch (e) { reject(fail(e, 'unavailable')); }
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = (ev) => {
      if (ev && ev.preventDefault) ev.preventDefault();
      reject(fail(req.error || new Error('the open request failed'), 'unavailable'));
    };
    req.onblocked = () => reject(new StorageError({ kind: 'unavailable', name: 'blocked', message: 'another tab holds an older version of the database open', why: 'blocked: another tab holds an older version of the database open' }));
  });
}

// One transaction over `stores` in `mode`: fn(tx) makes the requests (its return value, or the
// result of the promise-like it returns, settles the promise) and the promise resolves once the
// transaction has committed ('complete'), rejects with a StorageError when it aborts or anything
// throws.
export function transact(db, stores, mode, fn) {
  return new Promise((resolve, reject) => {
    let tx;
    let value;
    try {
      tx = db.transaction(stores, mode);
    } catch (e) {
      reject(fail(e));
      return;
    }
    tx.oncomplete = () => resolve(value);
    tx.onabort = () => reject(fail(tx.error || new Error('the transaction was aborted')));
    tx.onerror = (ev) => { if (ev && ev.preventDefault) ev.preventDefault(); };
    try {
      const r = fn(tx);
      if (r && typeof r.then === 'function') r.then((v) => { value = v; }, (e) => { try { tx.abort(); } catch (_) { /* done */ } reject(fail(e)); });
      else value = r;
    } catch (e) {
      try { tx.abort(); } catch (_) { /* already finished */ }
      reject(fail(e));
    }
  });
}

// A request's result as a promise (within a transaction from transact()).
export function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = (ev) => { if (ev && ev.preventDefault) ev.preventDefault(); reject(fail(req.error || new Error('the request failed'))); };
  });
}

// localStorage as RecordStore (record-store.js) reads it, every call guarded: the old record
// layout is read through this for the move to IndexedDB. setItem reports failure by throwing
// (RecordStore catches it), as the real Storage does.
export const guardedLocal = {
  getItem: getSetting,
  removeItem: removeSetting,
  setItem(key, value) {
    const r = setSetting(key, value);
    if (!r.ok) throw new StorageError(r);
  },
  keys: settingKeys,
};
