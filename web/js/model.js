// model.js — with model-io.js (its methods on whole files and questions), the only module that
// touches the WebAssembly module and its memory.
//
// It loads core/ compiled to WASM (wasm/rooflab_wasm.c) and exposes plain JS objects. Every number,
// name, default, limit and error text the page shows comes from here; this file holds no model
// arithmetic — it only moves values in and out of flat arrays whose slot names come from the WASM
// module itself (rlw_in_key, rlw_report_name (core's report-output table), rlw_row_key, rlw_roof_out_key, rlw_record_limit_key), so
// the layout has one source of truth in C.
//
//   const model = await loadModel(createRooflab);                 // page, worker
//   const model = await loadModel(createRooflab, { wasmBinary }); // node (tests, benchmarks)
//   model.fields                      → [{ index, key, flag, type, def, max, rangeLo, rangeHi, … }]
//   model.parseField('seq', '4096')   → { ok: true, value: 4096 } | { ok: false, field, message }
//   model.resolveRoof({ hw, dtype, bandwidth, peak }) → { ok, bandwidth, peak, ridge, hw, … }
//   model.evaluate(params)  → { ok: true, r: { 'flops': …, 'models.tiled.bytes': … }, predError } | { ok: false, field, message }
//     (r keyed by core's report-output names, as `rooflab eval --json` nests them; NaN where an
//     output has no value: no prediction, no naive backward model, no memory-level figures.
//     predError: core's reason when the kernel profile cannot predict — r['predicted.time_s'] NaN)
//   model.tune(params, cap) → { ok: true, rows: [{ block_m, block_n, splits, …, loses_on }] } (best first)
//   model.kernels / model.terms / model.levels → names (and one-line descriptions) from core
//   model.sweep(params, 'seq', lo, hi, count, log) → { ok: true, rows: [{ x, flops, 'tiled.bytes', … }] }
//   model.parseQuantity('4.8 TB/s', 'B/s', 'bandwidth') → { ok: true, value, dim } | { ok: false, … }
//   model.format(2.039e12, 'B/s') → '2.039 TB/s'
//   model.recordLimits.max_file_bytes; model.checkRecord(bytes) → core's JSON report, parsed
//   model.detectFormat(bytes), model.importRecord(bytes, { format, answers }) → other tools' output
//   model.layerStep(modelId, hwId, { phase, batch, seq, kv_len, tp, dtype, … }) → the whole layer:
//     { ok: true, ops: [{ name, kind, bound, flops, bytes, … }], step: { time_s, …, crossover_value },
//       note } | { ok: false, field, message }   (core's layer.c; wasm/layer_wasm.c)

import { unitTable, formatQuantity } from './units.js';
import { ModelIo } from './model-io.js';

const STR_CAP = 4096;
const FIELD_TYPES = ['int', 'dtype', 'bool', 'pass', 'lens']; // rl_field_type order (rlw_field_type)

export async function loadModel(factory, options = {}) {
  const M = await factory(options);
  return new Model(M);
}

class Model {
  constructor(M) {
    this.M = M;
    this.version = this.str(M._rlw_version());
    this.inKeys = range(M._rlw_in_count()).map((i) => this.str(M._rlw_in_key(i)));
    // core's report-output table (rl_output_*): the names `rooflab eval --json` writes
    this.outKeys = range(M._rlw_report_count()).map((i) => this.str(M._rlw_report_name(i)));
    this.rowKeys = range(M._rlw_row_width()).map((i) => this.str(M._rlw_row_key(i)));
    this.roofKeys = range(M._rlw_roof_out_count()).map((i) => this.str(M._rlw_roof_out_key(i)));
    this.sweepMax = M._rlw_sweep_max();
    this.tuneKeys = range(M._rlw_tune_width()).map((i) => this.str(M._rlw_tune_key(i)));
    this.tuneMax = M._rlw_tune_max();
    // Buffers allocated once; views are re-read from M on each call (memory may grow).
    this.inPtr = M._malloc(8 * this.inKeys.length);
    this.outPtr = M._malloc(8 * this.outKeys.length);
    this.rowPtr = M._malloc(8 * this.rowKeys.length * this.sweepMax);
    this.roofPtr = M._malloc(8 * this.roofKeys.length);
    this.pairPtr = M._malloc(16);
    this.shapePtr = M._malloc(48); // heads … rope_dim of rlw_model_shape_apply
    this.tunePtr = M._malloc(8 * this.tuneKeys.length * this.tuneMax);
    this.errPtr = M._malloc(M._rlw_error_size()); // the caller-owned rl_error every call fills
    this.predErrPtr = M._malloc(M._rlw_error_size()); // why the kernel profile cannot predict
    this.strPtrs = range(3).map(() => M._malloc(STR_CAP)); // scratch for string arguments
    // Dimensions are addressed by their base unit ('B/s', 'FLOP/s', 'B', …; '' a plain number).
    this.dims = {};
    this.dimNouns = {};
    for (let d = 0; d < M._rlw_dim_count(); d++) {
      const unit = this.str(M._rlw_dim_base_unit(d));
      this.dims[unit] = d;
      this.dimNouns[unit] = this.str(M._rlw_dim_noun(d));
    }
    this.anyDim = M._rlw_dim_count();
    this.unitTable = unitTable(M, (p) => this.str(p)); // core's units and prefixes: format() runs in JS
    // Answers of core's pure look-ups, by their arguments: a slider move asks again only what changed.
    this.memo = new Map();
    this.dtypes = range(M._rlw_dtype_count()).map((i) => ({
      index: i, name: this.str(M._rlw_dtype_name(i)), bytes: M._rlw_dtype_bytes(i),
    }));
    this.models = range(M._rlw_model_count()).map((i) => this.str(M._rlw_model_name(i)));
    this.kernels = range(M._rlw_kernel_count()).map((i) => ({
      index: i, name: this.str(M._rlw_kernel_name(i)), description: this.str(M._rlw_kernel_description(i)),
    }));
    this.terms = range(M._rlw_term_count()).map((i) => this.str(M._rlw_term_name(i)));
    // core's ledger table (RL_TERMS): what each term measures and why a tile losing on it is slower
    this.termNotes = Object.fromEntries(this.terms.map((t, i) => [t, this.str(M._rlw_term_meaning(i))]));
    this.termLoses = this.terms.map((_, i) => this.str(M._rlw_term_why_loses(i)));
    this.levels = range(M._rlw_level_count()).map((i) => this.str(M._rlw_level_name(i)));
    this.bounds = [0, 1].map((i) => this.str(M._rlw_bound_name(i)));
    this.limits = [0, 1, 2, 3].map((i) => this.str(M._rlw_limit_name(i))); // compute, memory, occupancy, latency
    this.passes = [0, 1].map((i) => this.str(M._rlw_pass_name(i)));
    this.peakKinds = range(M._rlw_peak_count()).map((k) => ({
      index: k, id: this.str(M._rlw_peak_id(k)), name: this.str(M._rlw_peak_name(k)),
    }));
    this.presets = range(M._rlw_hw_count()).map((i) => this.readPreset(i));
    this.defaultHw = this.str(M._rlw_default_hw());
    // allFields: every problem field (the page's state and URL); fields: the beginner's ones, without
    // the attention variants (head-dim-v, MLA, window, sinks, page size, kv-lens, top-k: core's
    // rl_problem_field_variant), which the page keeps in its closed "attention variant" group.
    this.allFields = range(M._rlw_field_count()).map((i) => this.readField(i));
    this.fields = this.allFields.filter((f) => !f.variant);
    // Real attention shapes (core's rl_model_shape table): refused ones carry `unsupported`.
    const ss = this.slots('model_shape_str');
    const sn = this.slots('model_shape_num');
    this.shapes = range(M._rlw_model_shape_count()).map((i) => ({
      id: this.str(M._rlw_model_shape_str(i, ss.id)), name: this.str(M._rlw_model_shape_str(i, ss.name)),
      source: this.str(M._rlw_model_shape_str(i, ss.source)), fields: this.str(M._rlw_model_shape_str(i, ss.fields)),
      unsupported: this.str(M._rlw_model_shape_str(i, ss.unsupported)), heads: M._rlw_model_shape_num(i, sn.heads),
      kvHeads: M._rlw_model_shape_num(i, sn.kv_heads), headDim: M._rlw_model_shape_num(i, sn.head_dim),
      window: M._rlw_model_shape_num(i, sn.sliding_window), headDimV: M._rlw_model_shape_num(i, sn.head_dim_v),
      kvLoraRank: M._rlw_model_shape_num(i, sn.kv_lora_rank), ropeDim: M._rlw_model_shape_num(i, sn.rope_dim),
      localLayers: M._rlw_model_shape_num(i, sn.local_layers), layers: M._rlw_model_shape_num(i, sn.layers),
    }));
    this.recordLimits = Object.fromEntries(range(M._rlw_record_limit_count()).map((i) =>
      [this.str(M._rlw_record_limit_key(i)), M._rlw_record_limit(i)]));
  }

  str(ptr) { return this.M.UTF8ToString(ptr); }

  // The whole layer's step (core's rl_layer_step_compute and its crossover): input slots, operator
  // and step keys all named by wasm/layer_wasm.c. `inputs` by slot key (integer codes, base units).
  // The weight dtypes core names (rl_weight_dtype: 0 "default" = the activations').
  weightDtypeNames() {
    this.layerInit();
    return this.weightDtypes;
  }

  layerInit() {
    const M = this.M;
    if (!this.layerKeys) {
      this.layerKeys = {
        in: range(M._rlw_layer_in_count()).map((i) => this.str(M._rlw_layer_in_key(i))),
        op: range(M._rlw_layer_op_key_count()).map((i) => this.str(M._rlw_layer_op_key(i))),
        step: range(M._rlw_layer_step_key_count()).map((i) => this.str(M._rlw_layer_step_key(i))),
      };
      this.layerInPtr = M._malloc(8 * this.layerKeys.in.length);
      this.layerFillMax = M._rlw_layer_fill_max();
      this.layerOutPtr = M._malloc(8 * this.layerFillMax);
      this.weightDtypes = range(M._rlw_weight_dtype_count()).map((i) => this.str(M._rlw_weight_dtype_name(i)));
    }
  }

  // Three calls whatever the model: the step, its numbers in one buffer (the step's, then a row per
  // operator), its text in one string (the note, then "name\tkind\tbound" per operator).
  layerStep(modelId, hwId, inputs) {
    const M = this.M;
    this.layerInit();
    const K = this.layerKeys;
    const base = this.layerInPtr >> 3;
    K.in.forEach((k, i) => { M.HEAPF64[base + i] = Number(inputs[k] || 0); });
    const st = M._rlw_layer_step(this.cstr(modelId), this.cstr(hwId, 1), this.layerInPtr, this.errPtr);
    if (st !== 0) return this.error();
    const count = M._rlw_layer_fill(this.layerOutPtr, this.layerFillMax);
    if (count < 0) throw new Error('layer: the operators do not fit the buffer rlw_layer_fill_max sized');
    const out = M.HEAPF64.subarray(this.layerOutPtr >> 3, (this.layerOutPtr >> 3) + this.layerFillMax);
    const [note, ...lines] = this.str(M._rlw_layer_text()).split('\n');
    const step = Object.fromEntries(K.step.map((k, w) => [k, out[w]]));
    const ops = range(count).map((i) => {
      const [name, kind, bound] = lines[i].split('\t');
      const op = { name, kind, bound };
      const row = K.step.length + i * K.op.length;
      K.op.forEach((k, w) => { op[k] = out[row + w]; });
      return op;
    });
    return { ok: true, ops, step, note };
  }

  // Writes `text` to scratch buffer `which` (0 … 2: one per argument of a call), returns its address.
  cstr(text, which = 0) {
    const ptr = this.strPtrs[which];
    this.M.stringToUTF8(String(text), ptr, STR_CAP);
    return ptr;
  }

  // A binding table of named slots (rlw_NAME_count, rlw_NAME_key): { key: slot index }.
  slots(name) {
    const M = this.M;
    return Object.fromEntries(range(M[`_rlw_${name}_count`]()).map((w) => [this.str(M[`_rlw_${name}_key`](w)), w]));
  }

  readPreset(i) {
    const M = this.M;
    this.hwSlots ||= { s: this.slots('hw_str'), n: this.slots('hw_num') };
    const s = (k) => this.str(M._rlw_hw_str(i, this.hwSlots.s[k]));
    const n = (k) => M._rlw_hw_num(i, this.hwSlots.n[k]);
    const peaks = {};
    this.peakKinds.forEach((k) => { peaks[k.id] = M._rlw_hw_peak(i, k.index); });
    return {
      index: i, id: s('id'), name: s('name'), arch: s('arch'), source: s('source'), sourceDate: s('source_date'),
      notes: s('notes'), bandwidth: n('bandwidth_bytes_per_s'), peaks,
      smemPerSm: n('smem_per_sm_bytes'), smemPerBlockDefault: n('smem_per_block_default_bytes'),
      smemPerBlockOptin: n('smem_per_block_optin_bytes'), l2: n('l2_bytes'), sms: n('sm_count'),
      l2Bandwidth: n('l2_bandwidth_bytes_per_s'), clock: n('sm_clock_hz'), expRate: n('exp_per_s'),
      computeCapability: n('sm_arch') / 10, l2BandwidthSource: s('l2_bandwidth_source'),
    };
  }

  // One problem field from core's table (RL_PROBLEM_FIELDS). def: what 0 stands for (0 = tied
  // to another field); rangeLo … rangeHi: what a slider or sweep offers.
  readField(i) {
    const M = this.M;
    return {
      index: i, key: this.str(M._rlw_field_key(i)), flag: this.str(M._rlw_field_flag(i)),
      type: FIELD_TYPES[M._rlw_field_type(i)], def: M._rlw_field_num(i, 0), max: M._rlw_field_num(i, 1),
      rangeLo: M._rlw_field_num(i, 2), rangeHi: M._rlw_field_num(i, 3),
      help: this.str(M._rlw_field_help(i)), meta: this.str(M._rlw_field_meta(i)),
      variant: M._rlw_field_num(i, 4) === 1,
      tie: M._rlw_field_tie(i), // the field whose value a 0 here takes (core's rl_problem_field_tie), -1 none
    };
  }

  // A field by URL key / CLI flag ("kv-heads") or JSON key ("kv_heads").
  field(name) { return this.allFields.find((f) => f.flag === name || f.key === name); }

  // What a person typed for a field → the integer code its input slot takes, with core's error
  // naming `name` (the URL key) when it is not a valid value.
  parseField(flag, text, name = flag) {
    // The list field (kv-lens) is kept in the module by its parse (rlw_field_parse): never from
    // the cache, so the list the next evaluation reads is the one just parsed.
    if (this.field(flag)?.type === 'lens') return this.parseFieldNow(flag, text, name);
    return this.remember(['field', flag, text, name], () => this.parseFieldNow(flag, text, name));
  }
  parseFieldNow(flag, text, name) {
    const f = this.field(flag);
    const st = this.M._rlw_field_parse(f.index, this.cstr(text), this.cstr(name, 1), this.pairPtr, this.errPtr);
    return st !== 0 ? this.error() : { ok: true, value: this.M.HEAPF64[this.pairPtr >> 3] };
  }

  // Core's one roof resolution: preset id, the problem's dtype code, typed overrides ('' = the
  // preset's) → { ok, bandwidth, peak, ridge, hw (preset index), peakKind, bandwidthTyped, peakTyped }.
  resolveRoof({ hw, dtype, bandwidth = '', peak = '' }) {
    return this.remember(['roof', hw, dtype, bandwidth, peak], () => this.resolveRoofNow(hw, dtype, bandwidth, peak));
  }
  resolveRoofNow(hw, dtype, bandwidth, peak) {
    const M = this.M;
    const st = M._rlw_roof_resolve(this.cstr(hw), dtype, this.cstr(bandwidth, 1), this.cstr(peak, 2),
      this.roofPtr, this.errPtr);
    if (st !== 0) return this.error();
    const o = {};
    this.roofKeys.forEach((k, i) => { o[k] = M.HEAPF64[(this.roofPtr >> 3) + i]; });
    return {
      ok: true, bandwidth: o.bandwidth_bytes_per_s, peak: o.peak_flops_per_s, ridge: o.ridge_flop_per_byte,
      hw: o.hw, peakKind: o.peak_kind, bandwidthTyped: o.bandwidth_typed === 1, peakTyped: o.peak_typed === 1,
    };
  }

  presetIndex(id) { return this.M._rlw_hw_find(this.cstr(id)); }
  // Like presetIndex, with core's error (naming `field`, listing the valid ids) when unknown.
  lookupPreset(id, field = 'hw') {
    const i = this.M._rlw_hw_lookup(this.cstr(id), this.cstr(field, 1), this.errPtr);
    return i < 0 ? this.error() : { ok: true, index: i };
  }
  // dtype name → index, with core's error naming `field` when unknown.
  parseDtype(name, field = 'dtype') {
    const i = this.M._rlw_dtype_parse(this.cstr(name), this.cstr(field, 1), this.errPtr);
    return i < 0 ? this.error() : { ok: true, index: i };
  }
  // A model id → { ok, heads, 'kv-heads', 'head-dim' } (URL keys), or core's error naming "model"
  // (an unknown id lists the valid ones; a refused model gives the reason).
  // seq: the query rows (core picks an MLA model's form by it: absorbed decode for 1 … 16 rows,
  // the MHA form otherwise); the variant keys are 0 where core leaves them to resolve (off).
  modelShape(id, seq = 0) { return this.remember(['shape', id, seq], () => this.modelShapeNow(id, seq)); }
  modelShapeNow(id, seq) {
    const st = this.M._rlw_model_shape_apply(this.cstr(id), seq, this.shapePtr, this.errPtr);
    if (st !== 0) return this.error();
    const H = this.M.HEAPF64;
    const b = this.shapePtr >> 3;
    return {
      ok: true, heads: H[b], 'kv-heads': H[b + 1], 'head-dim': H[b + 2],
      'head-dim-v': H[b + 3], 'kv-lora-rank': H[b + 4], 'rope-dim': H[b + 5],
    };
  }
  // Core's note on what a model shape leaves out at this key length (a sliding window not applied),
  // '' when none.
  modelNote(id, kvLen) {
    return id ? this.remember(['note', id, kvLen], () => this.str(this.M._rlw_model_shape_note(this.cstr(id), kvLen))) : '';
  }
  // '' (the profile's) / 'packed' / 'per-head' → the packing code, with core's error naming `field`.
  parseGqaPack(text, field = 'gqa-pack') {
    return this.remember(['pack', text, field], () => {
      const i = this.M._rlw_gqa_pack_parse(this.cstr(text), this.cstr(field, 1), this.errPtr);
      return i < 0 ? this.error() : { ok: true, index: i };
    });
  }
  // A kernel profile name → its index, with core's error naming `field` when unknown.
  parseKernel(name, field = 'kernel') {
    return this.remember(['kernel', name, field], () => {
      const i = this.M._rlw_kernel_parse(this.cstr(name), this.cstr(field, 1), this.errPtr);
      return i < 0 ? this.error() : { ok: true, index: i };
    });
  }
  // The preset's compute ceiling for a dtype (0 when it has none), and that ceiling's name.
  peakForDtype(hwIndex, dtypeIndex) { return this.M._rlw_hw_peak_for_dtype(hwIndex, dtypeIndex); }
  peakKindForDtype(dtypeIndex) { return this.peakKinds[this.M._rlw_peak_for_dtype(dtypeIndex)]; }

  writeParams(params) {
    const H = this.M.HEAPF64;
    const base = this.inPtr >> 3;
    this.inKeys.forEach((k, i) => {
      const v = params[k];
      H[base + i] = v === undefined || v === null ? 0 : Number(v);
    });
  }

  error(ptr = this.errPtr) {
    const M = this.M;
    return { ok: false, field: this.str(M._rlw_error_field(ptr)), message: this.str(M._rlw_error_message(ptr)) };
  }

  // params: one slot per problem field by URL key (integer codes; 0 = core's default), then
  // bandwidth, peak (base units), hw (preset index, -1 none) and the kernel slots: kernel (profile
  // index), gqa-pack (0 the profile's, 1 packed, 2 per head), splits, ctas-per-sm (0 = the profile's).
  evaluate(params) {
    this.writeParams(params);
    const st = this.M._rlw_report(this.inPtr, this.outPtr, this.errPtr, this.predErrPtr);
    if (st !== 0) return this.error();
    const H = this.M.HEAPF64;
    const base = this.outPtr >> 3;
    const r = {};
    this.outKeys.forEach((k, i) => { r[k] = H[base + i]; });
    const predError = Number.isNaN(r['predicted.time_s']) ? this.error(this.predErrPtr) : null;
    return { ok: true, r, predError };
  }

  // The generic profile's tile search for the problem in `params` on its preset: up to `cap`
  // candidates, best first, each { block_m, block_n, splits, ctas_per_sm, sram_bytes, time_s, …,
  // 'terms.mma', …, loses_on (a term index, -1 for the best or a tie) }.
  tune(params, cap = this.tuneMax) {
    this.writeParams(params);
    const n = this.M._rlw_tune(this.inPtr, this.tunePtr, Math.min(cap, this.tuneMax), this.errPtr);
    if (n < 0) return this.error();
    const H = this.M.HEAPF64;
    const w = this.tuneKeys.length;
    const base = this.tunePtr >> 3;
    const rows = [];
    for (let i = 0; i < n; i++) {
      const row = {};
      this.tuneKeys.forEach((k, j) => { row[k] = H[base + i * w + j]; });
      rows.push(row);
    }
    return { ok: true, rows };
  }

  // Raw evaluation for benchmarks: no object built.
  evaluateRaw() { return this.M._rlw_report(this.inPtr, this.outPtr, this.errPtr, this.predErrPtr); }

  sweep(params, paramName, lo, hi, count, log = true) {
    const param = this.M._rlw_sweep_param_parse(this.cstr(paramName), this.errPtr);
    if (param < 0) return this.error();
    this.writeParams(params);
    const n = this.M._rlw_sweep(this.inPtr, param, lo, hi, Math.min(count, this.sweepMax), log ? 1 : 0, this.rowPtr, this.errPtr);
    if (n < 0) return this.error();
    const H = this.M.HEAPF64;
    const w = this.rowKeys.length;
    const base = this.rowPtr >> 3;
    const rows = new Array(n);
    for (let i = 0; i < n; i++) {
      const row = {};
      for (let j = 0; j < w; j++) row[this.rowKeys[j]] = H[base + i * w + j];
      rows[i] = row;
    }
    return { ok: true, rows };
  }

  // Parse a quantity with core's rl_parse_quantity. `unit` is the expected base unit ('B/s',
  // 'FLOP/s', …) or null for any. Errors are core's messages naming `field`.
  parseQuantity(text, unit, field) {
    const dim = unit === null ? this.anyDim : this.dims[unit];
    const st = this.M._rlw_parse_quantity(this.cstr(text), dim, this.cstr(field, 1), this.pairPtr, this.errPtr);
    if (st !== 0) return this.error();
    const H = this.M.HEAPF64;
    return { ok: true, value: H[this.pairPtr >> 3], dim: H[(this.pairPtr >> 3) + 1] };
  }

  // Format a base-unit value: unit is a base unit ('B', 'B/s', 'FLOP', 'FLOP/s', 's', 'FLOP/B', '').
  // Core's rl_format_quantity with core's table (units.js): no call into WASM per number.
  format(value, unit, { iec = false, sig = 0 } = {}) {
    return formatQuantity(this.unitTable, value, this.dims[unit], iec, sig);
  }

  // A pure look-up of core's (the same arguments give the same answer) asked once per arguments:
  // the last 512 answers are kept.
  remember(args, ask) {
    const key = JSON.stringify(args.map((a) => (typeof a === 'number' ? String(a) : a))); // Infinity, NaN apart
    if (this.memo.has(key)) return this.memo.get(key);
    const v = ask();
    if (this.memo.size >= 512) this.memo.delete(this.memo.keys().next().value);
    this.memo.set(key, v);
    return v;
  }

  attainable(bandwidth, peak, intensity) {
    return this.remember(['att', bandwidth, peak, intensity], () => this.M._rlw_attainable(bandwidth, peak, intensity));
  }
  ridge(bandwidth, peak) { return this.remember(['ridge', bandwidth, peak], () => this.M._rlw_ridge(bandwidth, peak)); }
  efficiency(bandwidth, peak, flops, bytes, time) {
    return this.M._rlw_efficiency(bandwidth, peak, flops, bytes, time);
  }

  // `text` as a NUL-terminated UTF-8 string in a buffer of its own (free it with M._free): for
  // text that may be longer than the STR_CAP scratch buffers (an answer of 100,000 characters).
  heapStr(text) {
    const s = String(text ?? '');
    const n = this.M.lengthBytesUTF8(s) + 1;
    const ptr = this.M._malloc(n);
    this.M.stringToUTF8(s, ptr, n);
    return ptr;
  }

  // Any user-supplied text as the page shows it, the same as the CLI prints it: core's one escaper
  // (rl_text_escape through rlw_text_escape): one line, controls as \n \r \t \xHH, invisible
  // and direction characters named, e.g. "<U+202E RIGHT-TO-LEFT OVERRIDE>". Printable ASCII comes
  // back as it is (core leaves it so; no call made); a NUL, which a C string cannot hold, is
  // written \x00 as core writes it. maxBytes (> 0): at most that many bytes of the escaped
  // text, cut by core (rlw_text_escape's max_bytes: on a whole character or a whole named form,
  // ending "..."), for a label drawn on a canvas.
  escapeText(text, maxBytes = 0) {
    const s = String(text ?? '');
    const max = maxBytes > 0 ? Math.max(4, Math.floor(maxBytes)) : 0;
    if (/^[\x20-\x7e]*$/.test(s) && (!max || s.length <= max)) return s;
    if (s.includes('\0')) {
      const whole = s.split('\0').map((part) => this.escapeText(part)).join('\\x00'); // printable: core leaves it
      return max ? this.escapeText(whole, max) : whole;
    }
    return this.remember(['esc', s, max], () => this.escapeNow(s, max));
  }
  escapeNow(s, max = 0) {
    const M = this.M;
    const ptr = this.heapStr(s);
    try {
      const out = M._rlw_text_escape(ptr, max);
      if (!out) throw new Error('out of memory escaping a text');
      try { return this.str(out); } finally { M._free(out); }
    } finally { M._free(ptr); }
  }

  // The raw module, for the lead's WASM tests and the benchmark's timing loop only.
  get raw() { return this.M; }
}

function range(n) { return Array.from({ length: n }, (_, i) => i); }

// Records, imports and exercises (model-io.js) are the Model's methods too.
for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(ModelIo.prototype))) {
  if (name !== 'constructor') Object.defineProperty(Model.prototype, name, d);
}
