// The page against hostile and clumsy input, in headless Chromium under the served
// Content-Security-Policy: corrupt entries planted in localStorage (dropped with a message naming
// them, the good records kept, the page ready), two tabs adding, removing and clearing records
// (merged through the storage event, nothing lost), and a record whose file name begins with "="
// exported to CSV (the cell is text, not a formula).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage, ARTIFACTS, ROOT, SECURITY_HEADERS, pageEnv, clearStored, recordsIdle } from './harness.mjs';

const EX = join(ROOT, 'data', 'examples');
const CASES = join(ROOT, 'tests', 'record', 'cases');
const GBENCH = join(EX, 'gbench-flash-attn-h100.record.json'); // 3 points
const NCU = join(EX, 'ncu-raw-flash-fwd-h100.record.json'); // 1 point
const env = pageEnv({ scratch: 'storage' });

const idle = recordsIdle;
const count = (page) => page.$eval('[data-testid="measured-count"]', (e) => Number(e.dataset.value));
const names = (page) => page.$$eval('#records-list > li strong', (els) => els.map((e) => e.textContent));
const listLength = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#records-list > li').length === k, n, { timeout: 30000 });
const storedKeys = (page) => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('rooflab.record')).sort());
// The ids of the records kept in IndexedDB (record-db.js: database rooflab, store records).
const storedIds = (page) => page.evaluate(() => new Promise((done, fail) => {
  const q = indexedDB.open('rooflab');
  q.onerror = () => fail(q.error);
  q.onsuccess = () => {
    const db = q.result;
    if (!db.objectStoreNames.contains('records')) { db.close(); done([]); return; }
    const r = db.transaction('records').objectStore('records').getAllKeys();
    r.onsuccess = () => { db.close(); done(r.result.sort()); };
    r.onerror = () => fail(r.error);
  };
}));

async function ready(page) {
  await page.waitForSelector('html[data-ready="1"]', { timeout: 20000 });
  await idle(page);
}

async function fresh() {
  const page = await openPage(env.browser.context, env.server.url);
  await clearStored(page);
  await page.reload();
  await ready(page);
  return page;
}

test('corrupt stored entries: the page becomes ready, each is named and dropped, good records stay', async () => {
  const page = await fresh();
  await page.setInputFiles('[data-testid="input-upload"]', [GBENCH]);
  await listLength(page, 1);
  await idle(page);
  const invalid = await readFile(join(CASES, 'invalid', 'negative-head-dim.json'), 'utf8');
  const valid = await readFile(NCU, 'utf8');
  const planted = await page.evaluate(async ({ invalid, valid }) => {
    const { recordId, keyOf } = await import('./js/record-store.js');
    const entry = (name, text) => ({ v: 2, name, source: 'upload', visible: true, added: 1, text });
    const bad = entry('broken.json', invalid);
    const good = entry('kept.json', valid);
    localStorage.setItem('rooflab.record.garbage', '{not json at all');
    localStorage.setItem('rooflab.record.notarecord', JSON.stringify({ v: 2, name: 'x.json', text: 42 }));
    localStorage.setItem(keyOf(recordId(bad)), JSON.stringify(bad));
    localStorage.setItem(keyOf(recordId(good)), JSON.stringify(good)); // the shape of an old tab's save
    localStorage.setItem('rooflab.records.v1', '[{"name":"old.json","text":'); // the old list, cut short
    return { bad: keyOf(recordId(bad)), good: keyOf(recordId(good)) };
  }, { invalid, valid });
  await page.reload();
  await ready(page);
  // ready, the good records shown (the stored upload and the planted valid one), in stored order
  assert.equal(await count(page), 4);
  assert.deepEqual(await names(page), ['kept.json', 'gbench-flash-attn-h100.record.json']);
  const items = await page.$$eval('[data-testid="records-dropped-item"]', (els) => els.map((e) => [e.dataset.key, e.textContent]));
  const byKey = Object.fromEntries(items);
  assert.equal(items.length, 4, JSON.stringify(items));
  assert.match(byKey['rooflab.record.garbage'], /^stored entry rooflab\.record\.garbage: dropped — not valid JSON/);
  assert.match(byKey['rooflab.record.notarecord'], /^“x\.json” \(stored as rooflab\.record\.notarecord\): dropped — /);
  assert.equal(byKey[planted.bad], `“broken.json” (stored as ${planted.bad}): dropped — not a valid record: points[3].problem.head_dim: expected a positive integer, got -64.`);
  assert.match(byKey['rooflab.records.v1'], /^stored entry rooflab\.records\.v1: dropped — not valid JSON/);
  assert.match(await page.textContent('[data-testid="records-dropped"]'), /4 records kept in this browser could not be restored/);
  await page.locator('section.records').screenshot({ path: join(ARTIFACTS, 'records-dropped.png') });
  // dropped entries are gone from storage; the good ones stay (moved to IndexedDB, their
  // localStorage keys removed once that write committed); the next load is clean
  await page.waitForFunction(() => !Object.keys(localStorage).some((k) => k.startsWith('rooflab.record')));
  const kept = await storedIds(page);
  assert.equal(kept.length, 2);
  assert.ok(kept.includes(planted.good.slice('rooflab.record.'.length)));
  await page.click('[data-testid="action-records-dropped-dismiss"]');
  assert.equal(await page.$('[data-testid="records-dropped"]'), null);
  await page.reload();
  await ready(page);
  assert.equal(await count(page), 4);
  assert.equal(await page.$('[data-testid="records-dropped"]'), null);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// A kept record's key is its id, a hash of source, name and text (record-store.js). On load the
// page does not hash it: the worker that checks the text hashes it too (record-pack.js's
// aboutResult), and an entry whose key is not that hash is dropped and deleted; one whose key is
// restored. Both planted straight into IndexedDB, as another version or a tampered profile would.
test('a kept record whose key does not match its text is dropped (the worker hashes it), a matching one restored', async () => {
  const page = await fresh();
  await page.setInputFiles('[data-testid="input-upload"]', [GBENCH]); // the database and its store exist
  await listLength(page, 1);
  await idle(page);
  const text = await readFile(NCU, 'utf8');
  const ids = await page.evaluate(async (t) => {
    const { recordId } = await import('./js/record-store.js');
    const good = { v: 2, name: 'right.json', source: 'upload', visible: true, added: 2, text: t };
    const bad = { ...good, name: 'renamed.json', added: 3 };
    const goodId = recordId(good);
    const badId = 'ffffffffffffffff'; // not recordId(bad): its name was changed after it was kept
    await new Promise((done, fail) => {
      const q = indexedDB.open('rooflab');
      q.onerror = () => fail(q.error);
      q.onsuccess = () => {
        const tx = q.result.transaction('records', 'readwrite');
        tx.objectStore('records').put({ id: goodId, ...good });
        tx.objectStore('records').put({ id: badId, ...bad });
        tx.oncomplete = () => { q.result.close(); done(); };
        tx.onerror = () => fail(tx.error);
      };
    });
    return { goodId, badId };
  }, text);
  await page.reload();
  await ready(page);
  assert.deepEqual(await names(page), ['right.json', 'gbench-flash-attn-h100.record.json']); // in the order kept (added 2 is long before the upload)
  const items = await page.$$eval('[data-testid="records-dropped-item"]', (els) => els.map((e) => e.textContent));
  assert.deepEqual(items, [`“renamed.json” (kept as IndexedDB rooflab/records/${ids.badId}): dropped — its key does not match its content.`]);
  await page.waitForFunction((bad) => new Promise((done) => {
    const q = indexedDB.open('rooflab');
    q.onsuccess = () => {
      const r = q.result.transaction('records').objectStore('records').getAllKeys();
      r.onsuccess = () => { q.result.close(); done(!r.result.includes(bad)); };
    };
  }), ids.badId);
  const kept = await storedIds(page);
  assert.equal(kept.length, 2);
  assert.ok(kept.includes(ids.goodId));
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('the page runs under the served Content-Security-Policy (an injected inline script is refused)', async () => {
  const page = await openPage(env.browser.context, env.server.url);
  const res = await page.reload();
  await ready(page);
  assert.equal(res.headers()['content-security-policy'], SECURITY_HEADERS['Content-Security-Policy']);
  await page.evaluate(() => { const s = document.createElement('script'); s.textContent = 'window.__inline = 1'; document.body.append(s); });
  assert.equal(await page.evaluate(() => window.__inline), undefined);
  assert.ok(page.rlErrors.some((e) => /Content Security Policy/.test(e)), page.rlErrors.join('\n'));
  await page.close();
});

test('the old single-list format is moved to one key per record', async () => {
  const page = await fresh();
  const text = await readFile(NCU, 'utf8');
  await page.evaluate((t) => localStorage.setItem('rooflab.records.v1', JSON.stringify([{ name: 'old.json', source: 'upload', visible: true, text: t }])), text);
  await page.reload();
  await ready(page);
  assert.deepEqual(await names(page), ['old.json']);
  await page.waitForFunction(() => localStorage.getItem('rooflab.records.v1') === null);
  const ids = await storedIds(page);
  assert.equal(ids.length, 1);
  assert.match(ids[0], /^[0-9a-f]{16}$/);
  assert.deepEqual(await storedKeys(page), [], 'the old list removed once IndexedDB has the record');
  await page.reload();
  await ready(page);
  assert.deepEqual(await names(page), ['old.json']);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

test('two tabs: each one\'s records reach the other; removal and Clear all propagate', async () => {
  const a = await fresh();
  const b = await openPage(env.browser.context, env.server.url);
  await ready(b);
  // both add at once: neither overwrites the other's
  await Promise.all([
    a.setInputFiles('[data-testid="input-upload"]', [GBENCH]),
    b.setInputFiles('[data-testid="input-upload"]', [NCU]),
  ]);
  for (const p of [a, b]) {
    await listLength(p, 2);
    await idle(p);
    assert.equal(await count(p), 4);
    assert.deepEqual((await names(p)).sort(), ['gbench-flash-attn-h100.record.json', 'ncu-raw-flash-fwd-h100.record.json']);
  }
  assert.equal((await storedIds(a)).length, 2);
  // the same file added in both: one record
  await b.setInputFiles('[data-testid="input-upload"]', [GBENCH]);
  await idle(b);
  assert.equal(await count(b), 4);
  // a refused file in A (shown, not stored); B removes a record → A loses it
  await a.setInputFiles('[data-testid="input-upload"]', [join(CASES, 'invalid', 'zero-flops.json')]);
  await listLength(a, 3);
  const ncuInB = (await names(b)).indexOf('ncu-raw-flash-fwd-h100.record.json');
  await b.click(`[data-testid="record-remove-${ncuInB}"]`);
  await listLength(a, 2);
  assert.deepEqual(await names(a), ['gbench-flash-attn-h100.record.json', 'zero-flops.json']);
  assert.equal(await count(a), 3);
  // hiding in one hides in the other
  await b.click('[data-testid="record-visible-0"]');
  await a.waitForFunction(() => Number(document.querySelector('[data-testid="measured-count"]').dataset.value) === 0);
  await b.click('[data-testid="record-visible-0"]');
  await a.waitForFunction(() => Number(document.querySelector('[data-testid="measured-count"]').dataset.value) === 3);
  // Clear all in B → A empties, its refused file too
  await b.click('[data-testid="action-records-clear"]');
  await listLength(a, 0);
  await idle(a);
  assert.equal(await count(a), 0);
  assert.match(await a.textContent('[data-testid="records-status"]'), /cleared in another tab/);
  assert.deepEqual(await storedIds(a), []);
  // and adding again after a clear works both ways
  await a.setInputFiles('[data-testid="input-upload"]', [NCU]);
  await listLength(b, 1);
  await idle(b);
  assert.equal(await count(b), 1);
  await b.reload();
  await ready(b);
  assert.deepEqual(await names(b), ['ncu-raw-flash-fwd-h100.record.json']);
  assert.deepEqual(a.rlErrors, []);
  assert.deepEqual(b.rlErrors, []);
  await a.close();
  await b.close();
});

test('CSV export: a record whose file name begins with "=" is text, not a formula', async () => {
  const page = await fresh();
  const evil = join(env.tmp, '=HYPERLINK("http-x","y")+1.json');
  await copyFile(NCU, evil);
  await page.setInputFiles('[data-testid="input-upload"]', [evil]);
  await listLength(page, 1);
  await idle(page);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=action-export-csv]')]);
  const path = join(ARTIFACTS, 'export-formula-name.csv');
  await dl.saveAs(path);
  const lines = (await readFile(path, 'utf8')).trim().split('\n');
  const measured = lines.filter((l) => l.startsWith('"roofline","\'=HYPERLINK'));
  assert.equal(measured.length, 1, 'the measured point, its series label neutralised');
  // (the series, then the record column: the file's name, neutralised too)
  assert.match(measured[0], /^"roofline","'=HYPERLINK\(""http-x"",""y""\)\+1\.json: measured",[-0-9.e+]+,[-0-9.e+]+,"FLOP\/B","FLOP\/s","","'=HYPERLINK\(""http-x"",""y""\)\+1\.json",/);
  // no cell anywhere starts a formula: every text cell is quoted, and none starts with = + - @
  for (const line of lines) {
    assert.doesNotMatch(line, /(^|,)[=+@\t\r]/, line);
    assert.doesNotMatch(line, /(^|,)"[=+\-@\t\r]/, line);
  }
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// Storage that throws (issue 21, item 1): each method in turn replaced, before the page's scripts
// run, by one that throws a DOMException (as Firefox's NS_ERROR_FILE_CORRUPTED or a policy does).
// The page still becomes ready, a record can still be loaded and is shown, and the page says what
// is not kept and why, in the browser's own words.
const THROWERS = {
  getItem: () => { Storage.prototype.getItem = function () { throw new DOMException('storage file is corrupted', 'UnknownError'); }; },
  setItem: () => { Storage.prototype.setItem = function () { throw new DOMException('writes refused by policy', 'SecurityError'); }; },
  removeItem: () => { // a stored setting with a bad value first, so that loading removes it
    localStorage.setItem('rooflab.tour.seen', 'garbage');
    Storage.prototype.removeItem = function () { throw new DOMException('removal refused', 'SecurityError'); };
  },
  key: () => { // one stored setting, so that listing the keys asks for one
    localStorage.setItem('rooflab.theme', 'light');
    Storage.prototype.key = function () { throw new DOMException('keys unreadable', 'UnknownError'); };
  },
  length: () => { Object.defineProperty(Storage.prototype, 'length', { get() { throw new DOMException('length unreadable', 'UnknownError'); } }); },
  'indexedDB.open': () => { IDBFactory.prototype.open = function () { throw new DOMException('IndexedDB disabled by policy', 'SecurityError'); }; },
  'IDBDatabase.transaction': () => { IDBDatabase.prototype.transaction = function () { throw new DOMException('database is closing', 'InvalidStateError'); }; },
};
// What the note says for each (the part after "… are not kept after a reload: "), and which
// action makes the page use the method (null: loading the page does).
const SAID = {
  getItem: [/^Settings .* are not kept after a reload: this browser refused to read them \(UnknownError: storage file is corrupted\)\.$/, null],
  setItem: [/^Settings .* are not kept after a reload: this browser refused to write them \(SecurityError: writes refused by policy\)\.$/, 'theme'],
  removeItem: [/^Settings .* are not kept after a reload: this browser refused to change them \(SecurityError: removal refused\)\.$/, null],
  key: [/^Settings .* are not kept after a reload: this browser refused to list them \(UnknownError: keys unreadable\)\.$/, null],
  length: [/^Settings .* are not kept after a reload: this browser refused to list them \(UnknownError: length unreadable\)\.$/, null],
  'indexedDB.open': [/^Records are not kept after a reload: this browser's database \(IndexedDB\) is unavailable \(SecurityError: IndexedDB disabled by policy\)\.$/, null],
  'IDBDatabase.transaction': [/^Records are not kept after a reload: this browser refused the read \(InvalidStateError: database is closing\)\.$/, null],
};

test('storage that throws on every method in turn: the page becomes ready and says what is not kept', async () => {
  (await fresh()).close();
  for (const [method, install] of Object.entries(THROWERS)) {
    const page = await env.browser.context.newPage();
    page.rlErrors = [];
    page.on('pageerror', (err) => page.rlErrors.push(`pageerror: ${err.message}`));
    await page.addInitScript(install);
    await page.goto(env.server.url);
    await ready(page); // before the fix: getItem throwing in tour.js kept the page from ever being ready
    const [said, action] = SAID[method];
    if (action === 'theme') await page.click('#action-theme');
    const note = await page.waitForSelector('[data-testid="storage-note"]:not([hidden])', { state: 'attached', timeout: 10000 }).catch(() => assert.fail(`${method}: no note`));
    const lines = await note.$$eval('p', (ps) => ps.map((p) => p.textContent));
    assert.ok(lines.some((l) => said.test(l)), `${method}: ${JSON.stringify(lines)}`);
    // a record still loads and is shown; when IndexedDB fails it says it is not kept, and why
    await page.setInputFiles('[data-testid="input-upload"]', [NCU]);
    await listLength(page, 1);
    await idle(page);
    assert.equal(await count(page), 1, method);
    const line = await page.textContent('[data-testid="record-points-0"]');
    if (method === 'indexedDB.open') assert.equal(line, "1 — not kept after a reload: this browser's database (IndexedDB) is unavailable (SecurityError: IndexedDB disabled by policy)");
    else if (method === 'IDBDatabase.transaction') assert.equal(line, '1 — not kept after a reload: this browser refused the write (InvalidStateError: database is closing)');
    else assert.equal(line, '1', `${method}: kept (records do not use localStorage)`);
    if (method === 'getItem') await page.locator('section.records').screenshot({ path: join(ARTIFACTS, 'storage-throws.png') });
    assert.deepEqual(page.rlErrors, [], method);
    await page.close();
  }
  const after = await fresh();
  await after.close();
});

// A write the storage refuses, or cannot fit: the record stays on screen with the exact reason
// (never "too large" for a small record), what was kept before is not lost, and the next load
// has the kept one. IDBObjectStore.put throws as the page's test hook window.__failPut says.
test('a full or refusing storage: the small record shown with the exact reason, nothing kept is lost', async () => {
  const page = await fresh();
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (...a) {
      if (window.__failPut === 'full') throw new DOMException('the quota has been exceeded', 'QuotaExceededError');
      if (window.__failPut === 'refused') throw new DOMException('writes are refused', 'UnknownError');
      return put.apply(this, a);
    };
  });
  await page.reload();
  await ready(page);
  await page.setInputFiles('[data-testid="input-upload"]', [GBENCH]);
  await listLength(page, 1);
  await idle(page);
  await page.evaluate(() => { window.__failPut = 'full'; });
  await page.setInputFiles('[data-testid="input-upload"]', [NCU]);
  await listLength(page, 2);
  await idle(page);
  const est = await page.evaluate(() => navigator.storage.estimate());
  const mib = (b) => `${(b / 1048576).toFixed(b < 10485760 ? 2 : 1)} MiB`;
  const full = `this browser's storage for the page is full (QuotaExceededError, ${mib(est.usage)} of its ${mib(est.quota)} used)`;
  const line = await page.textContent('[data-testid="record-points-1"]');
  // the usage figure is the browser's own estimate at the time: compared by its shape and quota
  assert.match(line, /^1 — not kept after a reload: this browser's storage for the page is full \(QuotaExceededError, [0-9.]+ MiB of its [0-9.]+ MiB used\)$/);
  assert.ok(line.endsWith(`of its ${mib(est.quota)} used)`), `${line} vs ${full}`);
  assert.doesNotMatch(line, /too large/);
  assert.match(await page.textContent('[data-testid="records-status"]'), /^ncu-raw-flash-fwd-h100\.record\.json: (1 point loaded, 1 warning\. S|s)hown, but not kept after a reload: this browser's storage for the page is full \(QuotaExceededError/);
  assert.equal(await page.textContent('[data-testid="record-points-0"]'), '3', 'the record kept before is untouched');
  assert.equal(await count(page), 4, 'both on screen');
  await page.evaluate(() => { window.__failPut = 'refused'; });
  await page.click('[data-testid="record-remove-1"]');
  await page.setInputFiles('[data-testid="input-upload"]', [NCU]);
  await listLength(page, 2);
  await idle(page);
  assert.equal(await page.textContent('[data-testid="record-points-1"]'), '1 — not kept after a reload: this browser refused the write (UnknownError: writes are refused)');
  await page.locator('section.records').screenshot({ path: join(ARTIFACTS, 'storage-full.png') });
  // the next load: the kept record back, the refused one not (as said)
  await page.evaluate(() => { window.__failPut = null; });
  await page.reload();
  await ready(page);
  assert.deepEqual(await names(page), ['gbench-flash-attn-h100.record.json']);
  assert.equal(await count(page), 3);
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});

// Migration (issue 21, item 4): what an older version kept in localStorage is moved to IndexedDB,
// and its keys removed only after that write has committed — a write that fails leaves them where
// they are (the record still shown, read from there again next time).
test('the old localStorage layout: kept there while IndexedDB refuses the write, moved once it takes it', async () => {
  const page = await fresh();
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (...a) {
      if (sessionStorage.getItem('failPut')) throw new DOMException('writes are refused', 'UnknownError');
      return put.apply(this, a);
    };
  });
  const text = await readFile(NCU, 'utf8');
  const key = await page.evaluate(async (t) => {
    const { recordId, keyOf } = await import('./js/record-store.js');
    const e = { v: 2, name: 'older.json', source: 'upload', visible: true, added: 5, text: t };
    localStorage.setItem(keyOf(recordId(e)), JSON.stringify(e));
    sessionStorage.setItem('failPut', '1');
    return keyOf(recordId(e));
  }, text);
  await page.reload();
  await ready(page);
  assert.deepEqual(await names(page), ['older.json']);
  assert.deepEqual(await storedKeys(page), [key], 'left in localStorage: the IndexedDB write failed');
  assert.deepEqual(await storedIds(page), []);
  assert.match(await page.textContent('[data-testid="records-status"]'), /^Records kept by an older version could not be moved to this browser's database \(this browser refused the write \(UnknownError: writes are refused\)\); they stay where they were/);
  await page.evaluate(() => sessionStorage.removeItem('failPut'));
  await page.reload();
  await ready(page);
  assert.deepEqual(await names(page), ['older.json']);
  assert.deepEqual(await storedKeys(page), [], 'moved: the key removed after the write committed');
  assert.deepEqual(await storedIds(page), [key.slice('rooflab.record.'.length)]);
  await page.reload();
  await ready(page);
  assert.deepEqual(await names(page), ['older.json'], 'and read from IndexedDB since');
  assert.deepEqual(page.rlErrors, []);
  await page.close();
});
