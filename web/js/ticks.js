// ticks.js — the log axes' tick labels (chart-data.js re-exports them for charts.js): decades
// and, on a short axis, 2 and 5, by core's rule for plain numbers (never e-notation).

export function isDecade(v) {
  const e = Math.log10(v);
  return Math.abs(e - Math.round(e)) < 1e-9;
}

// Tick label of a plain count or intensity at a decade, by core's rule for plain numbers
// (units.c plain_number, issue 20): never e-notation — 0.000000001 … 0.01 … 1,000,000 …
// 100,000,000,000,000,000,000, then 1 × 10²¹. A tick has one significant digit, so the rule is
// only grouping by three; no WASM call per tick.
// On an axis spanning less than two decades, 2 and 5 in each decade are labelled too.
// Called by Chart.js with `this` the scale.
export function decadeLabel(v) {
  const span = this && this.max / this.min;
  const mant = v / 10 ** Math.floor(Math.log10(v) + 1e-9);
  const whole = Math.abs(mant - Math.round(mant)) < 1e-6;
  const show = isDecade(v) || (span < 100 && whole && (mant < 2.5 ? Math.round(mant) === 2 : Math.round(mant) === 5)) ||
    (span < 10 && whole);
  if (!show) return '';
  return plainTick(v);
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
export function plainTick(v) {
  const e = Math.floor(Math.log10(v) + 1e-9);
  if (e >= -9 && e < 21) return Number(v).toLocaleString('en-US', { maximumSignificantDigits: 1, maximumFractionDigits: 20 });
  const mant = Math.round(v / 10 ** e);
  const sup = String(Math.abs(e)).split('').map((ch) => SUPERSCRIPT[ch]).join('');
  return `${mant} × 10${e < 0 ? '⁻' : ''}${sup}`;
}
