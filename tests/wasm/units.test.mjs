// The page's formatter (web/js/units.js) against core's own (rl_format_quantity through
// rlw_format): the same text for every dimension, both prefix styles and every digit count, over
// values chosen to hit the edges (ties that printf rounds to the even digit, a rounding that
// carries to the next prefix, the time units' 0.9995 threshold, zero, negatives, non-finite) and
// 20,000 values drawn from a fixed seed. Expected texts for a few are written out by hand too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWasmModel } from './load.mjs';
import { formatG, formatQuantity } from '../../web/js/units.js';

const model = await loadWasmModel();
const M = model.raw;
const core = (v, dim, iec, sig) => M.UTF8ToString(M._rlw_format(v, dim, iec ? 1 : 0, sig));

test('formatG is C printf %.*g (written out by hand)', () => {
  assert.equal(formatG(0.125, 2), '0.12'); // an exact tie: to the even digit (JS toPrecision says 0.13)
  assert.equal(formatG(0.375, 2), '0.38'); // a tie, odd digit: up
  assert.equal(formatG(1234.5, 4), '1234'); // tie, even
  assert.equal(formatG(1235.5, 4), '1236'); // tie, odd
  assert.equal(formatG(123456, 4), '1.235e+05'); // exponent ≥ sig: exponential, two exponent digits
  assert.equal(formatG(0.0001234, 4), '0.0001234'); // exponent -4: still fixed
  assert.equal(formatG(0.00001234, 4), '1.234e-05');
  assert.equal(formatG(2, 4), '2');
  assert.equal(formatG(-0, 4), '-0');
  assert.equal(formatG(1e100, 4), '1e+100');
});

test('formatQuantity gives core\'s text for every dimension, style and digit count', () => {
  const t = model.unitTable;
  // the table read from core: 7 prefixes each, 4 time units, 4 digits by default (units.c)
  assert.deepEqual(t.si, ['', 'k', 'M', 'G', 'T', 'P', 'E']);
  assert.deepEqual(t.iec, ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']);
  assert.deepEqual(t.time, ['s', 'ms', 'µs', 'ns']);
  assert.equal(t.sig, 4);
  assert.equal(model.format(2.039e12, 'B/s'), '2.039 TB/s');
  assert.equal(model.format(999.96e9, 'FLOP'), '1 TFLOP'); // the rounding carries to the next prefix
  assert.equal(model.format(0.0009994, 's'), '999.4 µs'); // below 0.9995 ms: µs
  assert.equal(model.format(0.0009996, 's'), '0.9996 ms'); // from 0.9995 ms up: ms
  assert.equal(model.format(256 * 1024, 'B', { iec: true }), '256 KiB');
  const edges = [0, -0, 1, -1, 0.5, 0.125, 0.375, 999.5, 999.95, 999.96, 1000, 1023.9, 1024, 0.9995, 0.99949, 0.0009995,
    1234.5, 1235.5, 12345.5, 2.5e-7, 1e-12, 1e21, 1.5e18, 9.999e17, 123456789, 3.35e12, 989e12, NaN, Infinity, -Infinity];
  let seed = 12345;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const drawn = Array.from({ length: 20000 }, () => {
    const v = 10 ** (rand() * 40 - 20) * (rand() < 0.1 ? -1 : 1);
    return rand() < 0.3 ? Math.round(v) : rand() < 0.5 ? Number(v.toPrecision(5)) : v; // integers and short decimals make ties
  });
  let checked = 0;
  for (let dim = 0; dim <= t.units.length; dim++) {
    for (const iec of [false, true]) {
      for (const sig of [0, 1, 2, 3, 4, 6, 17, 20]) {
        for (const v of dim === 0 && !iec && sig === 0 ? [...edges, ...drawn] : [...edges, ...drawn.slice(0, 400)]) {
          assert.equal(formatQuantity(t, v, dim, iec, sig), core(v, dim, iec, sig), `${v} dim ${dim} iec ${iec} sig ${sig}`);
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 20000);
});
