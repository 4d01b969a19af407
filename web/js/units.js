// units.js — the page's one formatter of quantities: core's rl_format_quantity (core/src/units.c)
// run in JS, so a slider move formats its few hundred numbers without a call into WASM per number.
// The table it formats with is core's, read once when the model loads (unitTable): each dimension's
// base unit, the SI and IEC prefixes, the time units and the default digit count. What stays here
// is the rule of rl_format_quantity and its plain_number, step for step, and C's "%.*g" (digits rounded half to even,
// as the WASM module's printf does). tests/wasm/units.test.mjs holds it equal to core's own output.

// C's "%.*g" of a finite value: `sig` significant digits, trailing zeros dropped, an exponent of
// at least two digits when it is below -4 or at least `sig`.
export function formatG(value, sig) {
  const p = Math.max(1, sig);
  const neg = value < 0 || Object.is(value, -0);
  const a = Math.abs(value);
  let [digits, x] = mantissa(a, p - 1);
  // JS rounds a tie away from zero; printf rounds it to the even digit, so only a last digit that
  // came out odd can be wrong. Only a value whose next three digits round to 500 can be a tie;
  // its exact expansion (100 digits: a double that is a tie at ≤ 17 digits ends well within them)
  // decides.
  if (a > 0 && Number(digits[p - 1]) % 2 === 1) {
    const [near] = mantissa(a, p + 2);
    if (near.endsWith('500', p + 3)) {
      const [exact, ex] = mantissa(a, 100);
      if (exact[p] === '5' && /^0*$/.test(exact.slice(p + 1)) && Number(exact[p - 1]) % 2 === 0) { digits = exact.slice(0, p); x = ex; }
    }
  }
  let text;
  if (x < -4 || x >= p) {
    const rest = trimZeros(digits.slice(1));
    text = `${digits[0]}${rest ? `.${rest}` : ''}e${x < 0 ? '-' : '+'}${Math.abs(x) < 10 ? '0' : ''}${Math.abs(x)}`;
  } else if (x >= 0) {
    const frac = trimZeros(digits.slice(x + 1));
    text = frac ? `${digits.slice(0, x + 1)}.${frac}` : digits.slice(0, x + 1);
  } else {
    text = `0.${'0'.repeat(-x - 1)}${trimZeros(digits)}`;
  }
  return neg ? `-${text}` : text;
}

// a ≥ 0 rounded to f + 1 significant digits: [the digits, the decimal exponent].
function mantissa(a, f) {
  const e = a.toExponential(f);
  const k = e.indexOf('e');
  return [f > 0 ? e[0] + e.slice(2, k) : e.slice(0, k), Number(e.slice(k + 1))];
}

function trimZeros(t) {
  let n = t.length;
  while (n > 0 && t.charCodeAt(n - 1) === 48) n--;
  return n === t.length ? t : t.slice(0, n);
}

// C's "%.*e" digits of a ≥ 0 rounded half to even like printf: [sig digits, decimal exponent]
// (formatG's tie rule, applied to the mantissa).
function roundedDigits(a, sig) {
  let [digits, x] = mantissa(a, sig - 1);
  if (Number(digits[sig - 1]) % 2 === 1) {
    const [near] = mantissa(a, sig + 2);
    if (near.endsWith('500', sig + 3)) {
      const [exact, ex] = mantissa(a, 100);
      if (exact[sig] === '5' && /^0*$/.test(exact.slice(sig + 1)) && Number(exact[sig - 1]) % 2 === 0) { digits = exact.slice(0, sig); x = ex; }
    }
  }
  return [digits, x];
}

// Digits grouped by three with commas ("16384" → "16,384").
function group(d) {
  let out = '';
  for (let i = 0; i < d.length; i++) out += (i > 0 && (d.length - i) % 3 === 0 ? ',' : '') + d[i];
  return out;
}

// A whole double's digits as C's "%.0f" writes them (a fraction of exactly one half to even).
function wholeDigits(a) {
  let f = Math.floor(a);
  const r = a - f; // exact below 2^53
  if (r > 0.5 || (r === 0.5 && f % 2 === 1)) f += 1;
  return BigInt(f).toString();
}

const SUPERSCRIPT = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

// core's plain_number (units.c): `sig` significant digits, never e-notation; an integer part
// grouped by three; a whole number of more digits than `sig` shown whole (rounded past 10^15);
// beyond 10^21 or below 10^-9 a power of ten written out ("1.5 × 10²⁴").
export function plainNumber(v, sig) {
  const a = Math.abs(v);
  const sign = v < 0 ? '-' : '';
  if (a === 0) return '0';
  const [digits, e] = roundedDigits(a, sig);
  if (e >= 21 || e < -9) {
    const ex = `${e < 0 ? '⁻' : ''}${String(Math.abs(e)).split('').map((c) => SUPERSCRIPT[Number(c)]).join('')}`;
    return `${sign}${formatG(a / Number(`1e${e}`), sig)} × 10${ex}`; // 1eE: 10^E correctly rounded, as pow gives it
  }
  if (e >= 15) return sign + group(digits + '0'.repeat(Math.max(0, e + 1 - digits.length)));
  if (e >= sig) return sign + group(wholeDigits(a));
  let whole;
  let frac;
  if (e >= 0) { whole = digits.slice(0, e + 1); frac = digits.slice(e + 1); } else { whole = '0'; frac = '0'.repeat(-e - 1) + digits; }
  frac = trimZeros(frac);
  return `${sign}${group(whole)}${frac ? `.${frac}` : ''}`;
}

// core's table, read through the WASM module's exports once:
//   units: base unit per dimension index; si, iec: the prefixes for 1000^k / 1024^k
//   (rl_prefix_name); time: the units a time takes, s down to ns (rl_time_unit_name); sig: the
//   default digit count (RL_FORMAT_DEFAULT_SIG, what sig 0 means).
export function unitTable(M, str) {
  const units = Array.from({ length: M._rlw_dim_count() }, (_, d) => str(M._rlw_dim_base_unit(d)));
  const prefixes = (style) => Array.from({ length: M._rlw_prefix_count() }, (_, k) => str(M._rlw_prefix(style, k)));
  const time = Array.from({ length: M._rlw_time_unit_count() }, (_, k) => str(M._rlw_time_unit(k)));
  const B = units.indexOf('B');
  return {
    units, si: prefixes(0), iec: prefixes(1), time, sig: M._rlw_format_default_sig(), bytes: B, seconds: units.indexOf('s'),
    ratio: units.indexOf('FLOP/B'), none: units.indexOf(''), iecDims: [B, units.indexOf('B/s')],
  };
}

// rl_format_quantity: value in base units of dimension `dim` (an index of table.units; another
// number: a plain number), SI or IEC prefixes, `sig` digits (0: the default; at most 17).
export function formatQuantity(table, value, dim, iec = false, sig = 0) {
  const t = table;
  const s = sig <= 0 ? t.sig : Math.min(sig, 17);
  const unit = dim >= 0 && dim < t.units.length ? t.units[dim] : '';
  const unitSp = unit ? ` ${unit}` : '';
  if (!Number.isFinite(value)) return `${Number.isNaN(value) ? 'NaN' : value > 0 ? 'inf' : '-inf'}${unitSp}`;
  if (dim === t.seconds) {
    let a = Math.abs(value);
    let m = value;
    let k = 0;
    while (k < t.time.length - 1 && a !== 0 && a < 0.9995) { a *= 1e3; m *= 1e3; k++; }
    return `${plainNumber(m, s)} ${t.time[k]}`;
  }
  if (dim === t.none || dim === t.ratio || !(dim >= 0 && dim < t.units.length)) return `${plainNumber(value, s)}${unitSp}`;
  const useIec = iec && t.iecDims.includes(dim);
  const step = useIec ? 1024 : 1000;
  let a = Math.abs(value);
  let m = value;
  let k = 0;
  const top = t.si.length - 1;
  while (k < top && a >= step) { a /= step; m /= step; k++; }
  if (k < top && Number(formatG(Math.abs(m), s)) >= step) { m /= step; k++; } // 999.96 → 1000: the next prefix
  return `${plainNumber(m, s)} ${(useIec ? t.iec : t.si)[k]}${unit}`;
}
