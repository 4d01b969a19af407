// state.js — the page's state: what the controls say, as URL keys (CONTRACTS.md "The page's URL
// and test ids": the keys are the CLI's long flags), and how that state becomes the WASM model's input.
//
// Names, types, defaults and limits of the problem's fields are core's field table (model.fields,
// RL_PROBLEM_FIELDS); values are checked by core's parser (model.parseField) and the roof by core's
// one resolution (model.resolveRoof). What lives here is page-only UI state:
//   phase     prefill (N query rows on L keys; kv-len '' = tied to N: 0 is sent and core resolves
//             it; a number L > N is a prefill with a cached prefix, chunked prefill) or decode
//             (N = 1; kv-len '' = the prefill's N, kept, as its cache length);
//   the attention variants (core's variant fields: head-dim-v, kv-lora-rank, rope-dim, window,
//             sinks, page-size, kv-lens, topk): '' = off (0 sent); an MLA latent (kv-lora-rank)
//             ties head-dim, head-dim-v and kv-heads, a ragged batch (kv-lens) batch and kv-len,
//             all sent as 0 so core resolves them (derivedKeys());
//   ceilings  which extra compute ceilings are drawn (comma list of peak ids);
//   kernel, gqa-pack, splits, ctas-per-sm   the kernel profile of the predicted time (the CLI's
//             flags; names from core: model.kernels; '' = the profile's own choice);
//   roofs     which extra roofs are drawn (comma list: l2, exp); levels  the per-level points;
//   model     a real attention shape (core's table, model.shapes; '' = none): it fills heads,
//             kv-heads and head-dim; keys typed in the link win over it, as the CLI's flags win
//             over --model; changing one of the three by hand clears it (controller.js);
//   compare   compare mode (compare.js): '' off, 'on' with no device picked, else the picked
//             devices in order (a preset id, or ceilings:ID for a loaded record's measured
//             ceilings); own-roof  its "% of own roof" view. Loading another state (a scenario,
//             a tour step, Reset) keeps them: only a link sets them;
//   and which of the two lengths the phase sweeps on the time/intensity chart.
// The state holds what a person typed (numbers, names, unit strings).

// Page-only keys around core's fields: the phase first, with the two lengths it decides about;
// then the rest of the fields in core's order; then the roof and the drawn ceilings.
const PHASE_KEYS = { prefill: 'seq', decode: 'kv-len' }; // the length each phase sweeps
const ROOF_KEYS = ['hw', 'bandwidth', 'peak'];
const KERNEL_KEYS = ['kernel', 'gqa-pack', 'splits', 'ctas-per-sm'];
export const ROOF_TOGGLES = ['l2', 'exp'];
const ZERO_MEANS_DEFAULT = ['splits', 'ctas-per-sm']; // 0 typed = the profile's choice
export const SHAPE_KEYS = ['heads', 'kv-heads', 'head-dim']; // what a model shape sets
export const COMPARE_KEYS = ['compare', 'own-roof']; // compare mode: set by a link only
// What a model shape may set besides SHAPE_KEYS (core's rl_model_shape_apply: an MLA model's latent
// in decode, its d_v in the MHA form); '' where the shape leaves it off.
export const SHAPE_VARIANT_KEYS = ['head-dim-v', 'kv-lora-rank', 'rope-dim'];
// Fields a variant hands to core (sent as 0, shown as core resolves them): an MLA latent fixes the
// head dims and the one KV head; a ragged batch fixes the batch and the longest length.
const DERIVED_BY = { 'kv-lora-rank': ['head-dim', 'head-dim-v', 'kv-heads'], 'kv-lens': ['batch', 'kv-len'] };
const isSet = (v) => v !== '' && v !== undefined && v !== null;

export class PageState {
  // Reads core's field table once; `ties` (a tied field → the field whose value it takes while
  // 0, e.g. kv-heads → heads) are core's (rl_problem_field_tie, model.fields[i].tie).
  constructor(model) {
    this.model = model;
    this.fields = model.allFields; // the variants too (view: the closed "attention variant" group)
    this.variantKeys = model.allFields.filter((f) => f.variant).map((f) => f.flag);
    const resolved = this.probe({});
    this.defaults = { phase: 'prefill', model: '' };
    for (const f of this.fields) this.defaults[f.flag] = this.defaultText(f, resolved);
    this.defaults.hw = model.defaultHw;
    this.defaults.bandwidth = '';
    this.defaults.peak = '';
    this.defaults.ceilings = '';
    this.defaults.kernel = model.kernels[0].name;
    this.defaults['gqa-pack'] = '';
    this.defaults.splits = '';
    this.defaults['ctas-per-sm'] = '';
    this.defaults.roofs = '';
    this.defaults.levels = false;
    this.defaults.compare = '';
    this.defaults['own-roof'] = false;
    Object.freeze(this.defaults);
    // The phase decides about the two lengths itself; the other tied numbers are '' while they
    // follow their partner: 0 is sent and core resolves them (a tied dtype's '' is "same as dtype").
    this.ties = {};
    for (const f of this.fields) {
      if (f.tie >= 0 && f.type === 'int') this.ties[f.flag] = model.allFields[f.tie].flag;
    }
    const lengths = Object.values(PHASE_KEYS);
    this.urlKeys = ['phase', 'model', ...lengths, ...this.fields.map((f) => f.flag).filter((k) => !lengths.includes(k)),
      ...ROOF_KEYS, 'ceilings', ...KERNEL_KEYS, 'roofs', 'levels', ...COMPARE_KEYS];
  }

  // The problem core makes of `over` (integer slots; the rest 0 = core's defaults).
  probe(over) {
    const roof = this.model.resolveRoof({ hw: this.model.defaultHw, dtype: 0 });
    const ev = this.model.evaluate({ ...over, bandwidth: roof.bandwidth, peak: roof.peak, hw: roof.hw });
    return ev.ok ? ev.r : {};
  }

  // A field's default as the state holds it: an integer ('' for one tied to another field, which
  // core resolves; the phase's lengths: what they resolve to), a dtype or pass name ('' for a
  // dtype tied to another: "same as dtype"), a boolean.
  defaultText(f, resolved) {
    if (f.type === 'int' && f.def === 0 && f.tie >= 0) return '';
    if (f.variant && f.def === 0) return ''; // off
    if (f.type === 'lens') return '';
    if (f.type === 'int') return f.def > 0 ? f.def : resolved[`problem.${f.key}`];
    if (f.type === 'dtype') return f.def > 0 ? this.model.dtypes[f.def].name : '';
    if (f.type === 'pass') return this.model.passes[f.def];
    return f.def === 1;
  }

  // A tied number typed equal to its partner follows it again ('': core resolves it).
  withTies(state) {
    const s = { ...state };
    for (const [f, target] of Object.entries(this.ties)) if (s[f] !== '' && String(s[f]) === String(s[target])) s[f] = '';
    return s;
  }

  defaultState() { return { ...this.defaults }; }
  isDecode(state) { return state.phase === 'decode'; }
  // The fields a variant in `state` hands to core (DERIVED_BY): the page sends 0 and shows core's value.
  derivedKeys(state) {
    return Object.entries(DERIVED_BY).filter(([k]) => isSet(state[k])).flatMap(([, keys]) => keys);
  }
  // Whether any attention variant is set (the group opens for it).
  hasVariant(state) { return this.variantKeys.some((k) => isSet(state[k])); }
  // The length the chart sweeps in this phase, and its range (core's slider range for it).
  sweptKey(state) { return PHASE_KEYS[this.isDecode(state) ? 'decode' : 'prefill']; }
  // A causal prefill with a cached prefix sweeps N up to its L (core refuses N > L when causal).
  sweepRange(state) {
    const f = this.model.field(this.sweptKey(state));
    const l = Number(state['kv-len']);
    if (!this.isDecode(state) && state.causal === true && isSet(state['kv-len']) && Number.isInteger(l) && l >= f.rangeLo) {
      return [f.rangeLo, Math.min(f.rangeHi, l)];
    }
    return [f.rangeLo, f.rangeHi];
  }

  // state → { ok, params, roof: { bandwidth, peak, ridge, peakName, bandwidthFrom, peakFrom }, preset }
  // or core's error { ok: false, field, message } naming the URL key.
  resolve(state) {
    const m = this.model;
    const params = {};
    const decode = this.isDecode(state);
    const derived = this.derivedKeys(state);
    for (const f of this.fields) {
      const v = state[f.flag];
      if (f.flag === PHASE_KEYS.prefill && decode) params[f.flag] = 1; // decode: one query row
      else if (derived.includes(f.flag)) params[f.flag] = 0; // a variant's: core resolves it
      else if (f.flag === PHASE_KEYS.decode && decode && !isSet(v)) { // decode's cache: the prefill's N
        const r = m.parseField(PHASE_KEYS.prefill, String(state[PHASE_KEYS.prefill] ?? ''));
        if (!r.ok) return r;
        params[f.flag] = r.value;
      } else if ((this.ties[f.flag] || f.type === 'dtype') && f.tie >= 0 && !isSet(v)) params[f.flag] = 0; // tied: core resolves it
      else if (f.variant && !isSet(v)) params[f.flag] = 0; // a variant left off
      else if (typeof v === 'boolean') params[f.flag] = v ? 1 : 0;
      else {
        const r = m.parseField(f.flag, String(v ?? ''));
        if (!r.ok) return r;
        params[f.flag] = r.value;
      }
    }
    if (state.model) {
      const shape = m.modelShape(String(state.model), params[PHASE_KEYS.prefill]);
      if (!shape.ok) return shape;
    }
    const rr = m.resolveRoof({ hw: state.hw, dtype: params.dtype, bandwidth: state.bandwidth, peak: state.peak });
    if (!rr.ok) return rr;
    const kr = this.kernelParams(state);
    if (!kr.ok) return kr;
    Object.assign(params, kr.params);
    const preset = m.presets[rr.hw];
    params.bandwidth = rr.bandwidth;
    params.peak = rr.peak;
    params.hw = rr.hw;
    const roof = {
      bandwidth: rr.bandwidth, peak: rr.peak, ridge: rr.ridge, peakKind: m.peakKinds[rr.peakKind],
      peakName: m.peakKinds[rr.peakKind].name,
      bandwidthFrom: rr.bandwidthTyped ? 'typed' : preset.id, peakFrom: rr.peakTyped ? 'typed' : preset.id,
    };
    return { ok: true, params, roof, preset };
  }

  // The kernel slots: profile index, packing code, split count and CTAs per SM ('' = 0, the
  // profile's; a number that is not a whole one in range is refused by core with the slot's name).
  kernelParams(state) {
    const m = this.model;
    const k = m.parseKernel(String(state.kernel ?? this.defaults.kernel), 'kernel');
    if (!k.ok) return k;
    const pack = m.parseGqaPack(String(state['gqa-pack'] ?? ''), 'gqa-pack');
    if (!pack.ok) return pack;
    const num = (v) => (v === '' || v === undefined || v === null ? 0 : Number(v));
    return { ok: true, params: { kernel: k.index, 'gqa-pack': pack.index, splits: num(state.splits), 'ctas-per-sm': num(state['ctas-per-sm']) } };
  }

  // The fragment: keys that differ from the defaults (prefill writes seq; decode writes
  // phase=decode, seq=1 and kv-len; a tied field only when it differs from its partner), so a
  // link says exactly what was changed.
  toFragment(given) {
    const q = new URLSearchParams();
    const state = this.withTies(given);
    const decode = this.isDecode(state);
    const shape = state.model ? this.model.modelShape(String(state.model), decode ? 1 : Number(state[PHASE_KEYS.prefill]) || 0) : null;
    const derived = this.derivedKeys(state);
    for (const key of this.urlKeys) {
      const v = state[key];
      if (derived.includes(key)) {
        // core resolves it from the variant: not the link's to say
      } else if (shape && shape.ok && (SHAPE_KEYS.includes(key) || SHAPE_VARIANT_KEYS.includes(key))) {
        const variant = SHAPE_VARIANT_KEYS.includes(key);
        const shown = v === '' && this.ties[key] && !variant ? state[this.ties[key]] : v; // a tied one: its partner's
        const given = variant ? (shape[key] || '') : shape[key]; // a variant the model leaves off: ''
        if (String(shown) !== String(given)) q.set(key, String(shown)); // a key typed over the model
      } else if (key === 'phase') {
        if (decode) q.set('phase', 'decode');
      } else if (key === PHASE_KEYS.prefill && decode) {
        q.set(key, '1');
      } else if (key === PHASE_KEYS.decode) {
        if (decode) q.set(key, String(isSet(v) ? v : state[PHASE_KEYS.prefill])); // decode says its cache length
        else if (isSet(v)) q.set(key, String(v)); // a prefill with a cached prefix
      } else if (ZERO_MEANS_DEFAULT.includes(key) && String(v) === '0') {
        // 0 is the profile's choice, as empty
      } else if (typeof v === 'boolean') {
        if (v !== this.defaults[key]) q.set(key, v ? '1' : '0');
      } else if (v !== undefined && String(v) !== String(this.defaults[key])) {
        q.set(key, String(v));
      }
    }
    return q.toString().replace(/\+/g, '%20');
  }

  // Fragment → state: unknown keys are ignored; values are kept as typed (resolve() checks them),
  // a yes/no field as a boolean when core reads it as one.
  fromFragment(fragment) {
    const state = this.defaultState();
    const q = new URLSearchParams(String(fragment || '').replace(/^#/, ''));
    for (const [key, value] of q) {
      if (!(key in this.defaults)) continue;
      const f = this.model.field(key);
      if (typeof this.defaults[key] === 'boolean' && !f) {
        state[key] = value === '1';
      } else if (f && f.type === 'bool') {
        const r = this.model.parseField(key, value);
        state[key] = r.ok ? r.value === 1 : value;
      } else {
        state[key] = value;
      }
    }
    // A model fills the shape keys the link does not name (an unknown id: resolve() names it).
    const rows = state.phase === 'decode' || q.get('seq') === '1' ? 1 : Number(q.get('seq')) || 0;
    const shape = q.has('model') ? this.model.modelShape(q.get('model'), rows) : null;
    if (shape && shape.ok) {
      for (const k of SHAPE_KEYS) if (!q.has(k) && shape[k] > 0) state[k] = shape[k];
      for (const k of SHAPE_VARIANT_KEYS) if (!q.has(k) && shape[k]) state[k] = shape[k];
    }
    const [n, l] = [PHASE_KEYS.prefill, PHASE_KEYS.decode];
    if (!q.has('phase') && q.get(n) === '1' && q.has(l)) state.phase = 'decode';
    if (state.phase === 'decode' && (!q.has(n) || q.get(n) === '1')) state[n] = this.defaults[n];
    if (state.phase !== 'decode' && state.phase !== 'prefill') state.phase = 'prefill';
    return this.withTies(state);
  }
}
