// state.js — the page's state: what the controls say, as URL keys (DESIGN.md "Contracts": the
// keys are the CLI's long flags), and how that state becomes the WASM model's input.
//
// The state holds what a person typed (numbers, names, unit strings). resolve() turns it into the
// flat parameters model.evaluate() takes, using core (through model.js) for every lookup and
// parse: preset figures, dtype names, unit strings. Errors name the URL key of the field.

export const SEQ_MIN = 128;
export const SEQ_MAX = 1048576;

export const DEFAULTS = Object.freeze({
  phase: 'prefill',     // prefill: N = L = seq; decode: N = 1, L = kv-len
  seq: 4096,
  'kv-len': 4096,
  batch: 1,
  heads: 8,
  'kv-heads': 8,
  'head-dim': 64,
  dtype: 'fp16',
  'kv-dtype': '',       // '' = same as dtype
  causal: false,
  pass: 'fwd',
  'block-m': 64,
  'block-n': 64,
  hw: 'h100-sxm',
  bandwidth: '',        // '' = the preset's; else a unit string ("4.8 TB/s")
  peak: '',             // '' = the preset's peak for the dtype; else a unit string
  ceilings: '',         // extra ceilings drawn: comma list of peak ids ("fp32,fp16_nontensor")
});

export const INT_KEYS = ['seq', 'kv-len', 'batch', 'heads', 'kv-heads', 'head-dim', 'block-m', 'block-n'];
// URL keys in the order they are written.
export const URL_KEYS = ['phase', 'seq', 'kv-len', 'batch', 'heads', 'kv-heads', 'head-dim', 'dtype',
  'kv-dtype', 'causal', 'pass', 'block-m', 'block-n', 'hw', 'bandwidth', 'peak', 'ceilings'];

export function defaultState() { return { ...DEFAULTS }; }

// A whole number ≥ 1 typed in a field; the model checks the upper limits and relations.
function wholeNumber(key, value) {
  const text = String(value).trim();
  const n = Number(text);
  if (text === '' || !Number.isFinite(n) || !Number.isInteger(n) || n < 1) {
    return { ok: false, field: key, message: `${key}: expected a positive whole number, got "${text}"` };
  }
  return { ok: true, value: n };
}

// state → { ok, params, roof: { bandwidth, peak, peakName, bandwidthFrom, peakFrom }, preset }
export function resolve(model, state) {
  const params = {};
  for (const key of INT_KEYS) {
    if (key === 'seq' && state.phase === 'decode') continue;
    if (key === 'kv-len' && state.phase !== 'decode') continue;
    const r = wholeNumber(key, state[key]);
    if (!r.ok) return r;
    params[key] = r.value;
  }
  if (state.phase === 'decode') {
    params.seq = 1;
  } else {
    params['kv-len'] = 0; // tied: L = N (so a sweep of seq moves both)
  }
  const dt = model.parseDtype(state.dtype, 'dtype');
  if (!dt.ok) return dt;
  params.dtype = dt.index;
  if (state['kv-dtype']) {
    const kdt = model.parseDtype(state['kv-dtype'], 'kv-dtype');
    if (!kdt.ok) return kdt;
    params['kv-dtype'] = kdt.index;
  } else {
    params['kv-dtype'] = 0;
  }
  params.causal = state.causal ? 1 : 0;
  if (state.pass !== 'fwd' && state.pass !== 'bwd') {
    return { ok: false, field: 'pass', message: `pass: expected fwd or bwd, got "${state.pass}"` };
  }
  params.pass = state.pass === 'bwd' ? 1 : 0;
  const hw = model.lookupPreset(state.hw, 'hw');
  if (!hw.ok) return hw;
  params.hw = hw.index;
  const preset = model.presets[hw.index];

  const roof = {};
  if (String(state.bandwidth).trim() !== '') {
    const b = model.parseQuantity(state.bandwidth, 'B/s', 'bandwidth');
    if (!b.ok) return b;
    roof.bandwidth = b.value;
    roof.bandwidthFrom = 'typed';
  } else if (preset.bandwidth > 0) {
    roof.bandwidth = preset.bandwidth;
    roof.bandwidthFrom = preset.id;
  } else {
    return { ok: false, field: 'bandwidth', message: `bandwidth: the ${preset.id} preset has no bandwidth; type one, e.g. "3.35 TB/s"` };
  }
  const kind = model.peakKindForDtype(dt.index);
  roof.peakName = kind.name;
  if (String(state.peak).trim() !== '') {
    const p = model.parseQuantity(state.peak, 'FLOP/s', 'peak');
    if (!p.ok) return p;
    roof.peak = p.value;
    roof.peakFrom = 'typed';
  } else {
    const p = model.peakForDtype(hw.index, dt.index);
    if (!(p > 0)) {
      return { ok: false, field: 'peak', message: `peak: the ${preset.id} preset has no ${kind.name} peak for ${state.dtype}; type one, e.g. "989 TFLOP/s"` };
    }
    roof.peak = p;
    roof.peakFrom = preset.id;
  }
  params.bandwidth = roof.bandwidth;
  params.peak = roof.peak;
  return { ok: true, params, roof, preset };
}

// The fragment: keys that differ from the defaults (prefill writes seq; decode writes
// phase=decode, seq=1 and kv-len), so a link says exactly what was changed.
export function toFragment(state) {
  const q = new URLSearchParams();
  const decode = state.phase === 'decode';
  for (const key of URL_KEYS) {
    const v = state[key];
    if (key === 'phase') {
      if (decode) q.set('phase', 'decode');
    } else if (key === 'seq') {
      if (decode) q.set('seq', '1');
      else if (String(v) !== String(DEFAULTS.seq)) q.set('seq', String(v));
    } else if (key === 'kv-len') {
      if (decode) q.set('kv-len', String(v));
    } else if (key === 'kv-heads') {
      if (String(v) !== String(state.heads)) q.set('kv-heads', String(v));
    } else if (typeof v === 'boolean') {
      if (v !== DEFAULTS[key]) q.set(key, v ? '1' : '0');
    } else if (String(v) !== String(DEFAULTS[key])) {
      q.set(key, String(v));
    }
  }
  return q.toString().replace(/\+/g, '%20');
}

// Fragment → state: unknown keys are ignored; values are kept as typed (resolve() checks them).
export function fromFragment(fragment) {
  const state = defaultState();
  const q = new URLSearchParams(String(fragment || '').replace(/^#/, ''));
  for (const [key, value] of q) {
    if (!(key in DEFAULTS)) continue;
    if (key === 'causal') state.causal = value === '1' || value === 'true';
    else if (INT_KEYS.includes(key)) state[key] = value;
    else state[key] = value;
  }
  if (!q.has('kv-heads')) state['kv-heads'] = state.heads;
  if (!q.has('phase') && q.get('seq') === '1' && q.has('kv-len')) state.phase = 'decode';
  if (state.phase === 'decode' && !q.has('seq')) state.seq = DEFAULTS.seq;
  if (state.phase === 'decode' && q.get('seq') === '1') state.seq = DEFAULTS.seq;
  if (state.phase !== 'decode' && state.phase !== 'prefill') state.phase = 'prefill';
  return state;
}
