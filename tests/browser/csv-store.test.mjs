// The page's CSV writer (io.js: numbers stay numbers, every text cell quoted, formula-injection
// prefix) and its record storage layout (record-store.js: one key per record, every stored value
// parsed and checked, the old single list read, "Clear all" leaving a token), in node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvCell, csvText } from '../../web/js/io.js';
import {
  RecordStore, parseStored, recordId, keyOf, PREFIX, CLEARED_KEY, LEGACY_KEY,
} from '../../web/js/record-store.js';

test('CSV: text cells quoted, inner quotes doubled; numbers stay numbers', () => {
  assert.equal(csvCell('tiled'), '"tiled"');
  assert.equal(csvCell('a "b", c\nd'), '"a ""b"", c\nd"');
  assert.equal(csvCell(''), '""');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(undefined), '');
  assert.equal(csvCell(-1.5e-3), '-0.0015');
  assert.equal(csvCell(0.1 + 0.2), '0.30000000000000004'); // round-trips
  assert.equal(csvCell(2.039e12), '2039000000000');
  assert.equal(csvText(['x', 'y'], [['a', 1], ['b', -2]]), '"x","y"\n"a",1\n"b",-2\n');
});

test('CSV: a text beginning with = + - @ tab or CR is prefixed with a single quote', () => {
  for (const s of ['=1+2', '=HYPERLINK("http://x","y")', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
    assert.equal(csvCell(s), `"'${s.replace(/"/g, '""')}"`, JSON.stringify(s));
  }
  // only the first character counts; a number-like text is still text
  for (const s of ['a=1', ' =1', '1-2', "'quoted", '1e3']) assert.equal(csvCell(s), `"${s}"`, JSON.stringify(s));
  assert.equal(csvText(['series'], [['=cmd|" /C calc"!A0: k v1']]), '"series"\n"\'=cmd|"" /C calc""!A0: k v1"\n');
});

// A Storage look-alike (getItem, setItem, removeItem, key, length; a quota in characters).
class MemoryStorage {
  constructor(quota = Infinity) { this.m = new Map(); this.quota = quota; }
  get length() { return this.m.size; }
  key(i) { return [...this.m.keys()][i] ?? null; }
  getItem(k) { return this.m.has(k) ? this.m.get(k) : null; }
  setItem(k, v) {
    const used = [...this.m].reduce((n, [kk, vv]) => n + (kk === k ? 0 : kk.length + vv.length), 0);
    if (used + k.length + String(v).length > this.quota) throw new Error('QuotaExceededError');
    this.m.set(k, String(v));
  }
  removeItem(k) { this.m.delete(k); }
}

const rec = (name, text, added = 1) => ({ name, source: 'upload', visible: true, added, text });

test('store: one key per record, id from the content; put, read back, remove', () => {
  const s = new MemoryStorage();
  const store = new RecordStore(s);
  const a = rec('a.json', '{"a":1}', 2);
  const b = rec('b.json', '{"b":1}', 1);
  assert.ok(store.put(recordId(a), a));
  assert.ok(store.put(recordId(b), b));
  assert.deepEqual([...s.m.keys()].sort(), [keyOf(recordId(a)), keyOf(recordId(b))].sort());
  assert.match(recordId(a), /^[0-9a-f]{16}$/);
  assert.notEqual(recordId(a), recordId({ ...a, name: 'other.json' }));
  const all = store.readAll();
  assert.deepEqual(all.map((x) => [x.ok, x.entry.name]), [[true, 'b.json'], [true, 'a.json']]); // oldest first
  store.remove(recordId(b));
  assert.equal(store.has(recordId(b)), false);
  assert.equal(store.readAll().length, 1);
  assert.equal(new RecordStore(new MemoryStorage(10)).put('x', a), false, 'over the quota: not kept');
  assert.equal(new RecordStore(null).put('x', a), false, 'no storage: not kept');
  assert.deepEqual(new RecordStore(null).readAll(), []);
});

test('store: every bad stored value is named with its reason', () => {
  const s = new MemoryStorage();
  const store = new RecordStore(s);
  const good = rec('good.json', '{}');
  store.put(recordId(good), good);
  const bad = {
    [`${PREFIX}notjson`]: '{not json',
    [`${PREFIX}array`]: '[1,2]',
    [`${PREFIX}version`]: JSON.stringify({ v: 9, name: 'v9.json' }),
    [`${PREFIX}notext`]: JSON.stringify({ v: 2, name: 'x.json', source: 'upload', visible: true, added: 1 }),
    [`${PREFIX}wrongkey`]: JSON.stringify({ v: 2, ...rec('=evil.json', '{}') }),
  };
  for (const [k, v] of Object.entries(bad)) s.setItem(k, v);
  s.setItem('unrelated', 'kept as is');
  const all = store.readAll();
  assert.equal(all.filter((x) => x.ok).length, 1);
  const why = Object.fromEntries(all.filter((x) => !x.ok).map((x) => [x.key, [x.label, x.reason]]));
  assert.match(why[`${PREFIX}notjson`][1], /^not valid JSON/);
  assert.equal(why[`${PREFIX}notjson`][0], `stored entry ${PREFIX}notjson`);
  assert.equal(why[`${PREFIX}array`][1], 'expected an object');
  assert.equal(why[`${PREFIX}version`][1], 'v: expected 2, got 9');
  assert.equal(why[`${PREFIX}version`][0], `“v9.json” (stored as ${PREFIX}version)`);
  assert.equal(why[`${PREFIX}notext`][1], 'text: expected a string (the record file)');
  assert.equal(why[`${PREFIX}wrongkey`][1], 'its key does not match its content');
  assert.equal(parseStored('x', 'null').reason, 'expected an object');
});

test('store: the old single list is read item by item; Clear all leaves a token', () => {
  const s = new MemoryStorage();
  s.setItem(LEGACY_KEY, JSON.stringify([{ name: 'old.json', source: 'upload', visible: false, text: '{}' }, { name: 5 }, null]));
  const store = new RecordStore(s);
  const all = store.readAll();
  assert.deepEqual(all.map((x) => [x.legacy, x.ok]), [[true, true], [true, false], [true, false]]);
  assert.equal(all[0].entry.visible, false);
  assert.equal(all[0].entry.id, recordId(all[0].entry));
  assert.equal(all[1].label, `stored entry ${LEGACY_KEY}[1]`);
  s.setItem(LEGACY_KEY, '{broken');
  assert.match(store.readAll()[0].reason, /^not valid JSON/);
  const a = rec('a.json', '{}');
  store.put(recordId(a), a);
  s.setItem('unrelated', '1');
  store.clear();
  assert.deepEqual([...s.m.keys()].sort(), [CLEARED_KEY, 'unrelated']);
  const token = s.getItem(CLEARED_KEY);
  store.clear();
  assert.notEqual(s.getItem(CLEARED_KEY), token, 'each Clear all writes a new token (a storage event each time)');
});
