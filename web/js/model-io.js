// model-io.js — the Model's calls that take whole files and questions (model.js stays the one module
// that touches the WebAssembly module; these methods join its class, see the end of model.js):
// a record through core's reader and validator, other tools' output through core's importers, and
// core's exercises. Methods of class ModelIo, copied onto Model.prototype.

const range = (n) => Array.from({ length: n }, (_, i) => i);

export class ModelIo {
  // A record file (bytes: ArrayBuffer or Uint8Array) through core's reader and validator, the same
  // code as `rooflab validate`: the parsed JSON report { ok, errors, warnings, issues, record }.
  checkRecord(bytes) {
    const M = this.M;
    const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const ptr = M._malloc(u8.length || 1);
    if (!ptr) throw new Error('out of memory');
    M.HEAPU8.set(u8, ptr);
    const out = M._rlw_record_check(ptr, u8.length);
    M._free(ptr);
    if (!out) throw new Error('out of memory');
    const text = this.str(out);
    M._free(out);
    return JSON.parse(text);
  }

  // Exercises (core's rl_quiz_*, wasm/quiz_wasm.c): a question drawn from a seed, the same as
  // `rooflab quiz --seed N`, and an answer checked by core (value, unit, the step a slip departs from).
  //   model.quizKinds                 → ['any', 'flops', 'bytes', 'intensity', 'ridge', 'time', 'regime']
  //   model.parseQuizSeed('42')       → { ok: true, seed: 42 } | { ok: false, field: 'practice', message }
  //   model.drawQuiz(seed, 'any')     → { ok: true, seed, kind, setup, question, unit, steps, problem, … }
  //   model.poseQuiz(params, { hw, bandwidth, peak }, 'bytes', 'compulsory') → the same object, for
  //     the problem in `params` (evaluate's problem slots) on preset `hw` with the typed overrides
  //   model.checkQuiz(q, '34.4 GFLOP') → { outcome: 'right' | 'wrong' | 'unreadable', slip, step, answer, text }
  get quizKinds() {
    const M = this.M;
    return range(M._rlw_quiz_kind_count()).map((i) => this.str(M._rlw_quiz_kind_name(i)));
  }

  parseQuizSeed(text, field = 'practice') {
    const st = this.M._rlw_quiz_seed_parse(this.cstr(text), this.cstr(field, 1), this.pairPtr, this.errPtr);
    return st !== 0 ? this.error() : { ok: true, seed: this.M.HEAPF64[this.pairPtr >> 3] };
  }

  drawQuiz(seed, kind = 'any') {
    const k = this.quizKinds.indexOf(kind);
    return this.quizFrom((ptr) => this.M._rlw_quiz_draw(seed, Math.max(k, 0), ptr, this.errPtr));
  }

  poseQuiz(params, { hw = '', bandwidth = '', peak = '' } = {}, kind = 'flops', trafficModel = 'compulsory') {
    this.writeParams(params);
    const k = this.quizKinds.indexOf(kind);
    const m = this.models.indexOf(trafficModel);
    return this.quizFrom((ptr) => this.M._rlw_quiz_pose(this.inPtr, this.cstr(hw), this.cstr(bandwidth ?? '', 1),
      this.cstr(peak ?? '', 2), k, m, ptr, this.errPtr));
  }

  // A question core writes into a fresh buffer with make(ptr) → rl_status, read out as a plain object.
  quizFrom(make) {
    const M = this.M;
    const ptr = M._malloc(M._rlw_quiz_size());
    try {
      if (make(ptr) !== 0) return this.error();
      this.quizSlots ||= { s: this.slots('quiz_str'), n: this.slots('quiz_num'), v: this.slots('quiz_verdict_num') };
      const s = (k) => this.str(M._rlw_quiz_str(ptr, this.quizSlots.s[k]));
      const n = (k) => M._rlw_quiz_num(ptr, this.quizSlots.n[k]);
      const problem = {};
      this.fields.forEach((f) => { problem[f.flag] = M._rlw_quiz_field(ptr, f.index); });
      // The question's bytes, kept so checkQuiz can hand the same question back to core.
      const bytes = M.HEAPU8.slice(ptr, ptr + M._rlw_quiz_size());
      return {
        ok: true, seed: n('seed'), kind: s('kind'), decode: n('decode') === 1, setup: s('setup'),
        question: s('question'), expectedText: s('expected_text'), hw: s('hw'), hwName: s('hw_name'),
        trafficModel: s('traffic_model'), unit: s('unit'), tolerance: n('tolerance'),
        steps: range(n('step_count')).map((i) => this.str(M._rlw_quiz_step(ptr, i))),
        problem, bytes,
      };
    } finally { M._free(ptr); }
  }

  checkQuiz(q, answer) {
    const M = this.M;
    const qp = M._malloc(q.bytes.length);
    const vp = M._malloc(M._rlw_quiz_verdict_size());
    const ap = this.heapStr(answer); // the whole answer, however long (core names its length)
    try {
      M.HEAPU8.set(q.bytes, qp);
      const st = M._rlw_quiz_check(qp, ap, vp, this.errPtr);
      this.quizSlots ||= { s: this.slots('quiz_str'), n: this.slots('quiz_num'), v: this.slots('quiz_verdict_num') };
      const v = (k) => M._rlw_quiz_verdict_num(vp, this.quizSlots.v[k]);
      const outcome = ['right', 'wrong', 'unreadable'][v('outcome')];
      return {
        outcome, status: st, text: this.str(M._rlw_quiz_verdict_text(vp)),
        slip: this.str(M._rlw_quiz_slip_name(v('slip'))), step: v('step_number'), answer: v('answer'),
      };
    } finally { M._free(qp); M._free(vp); M._free(ap); }
  }

  // Other tools' output through core's importers (the same code as `rooflab import`):
  //   model.importFormats → ['ert', 'ncu-csv', 'gbench', 'torch-trace', 'nsys-csv', 'triton-csv',
  //     'record'] (rl_import_format order)
  //   model.detectFormat(bytes) → { ok: true, format } | { ok: false, field, message } (core's
  //     rl_import_detect: the message names every signature looked for and what the file starts with)
  //   model.importRecord(bytes, { format, answers }) → { ok: true, report, text } | { ok: false, field,
  //     message }; answers: the CLI's flag names → the text typed ('' = not given); report as
  //     checkRecord's; text: the record as `rooflab import` writes it (null when refused).
  get importFormats() {
    const M = this.M;
    return range(M._rlw_import_format_count()).map((i) => this.str(M._rlw_import_format_name(i)));
  }

  // The ncu command line that collects every counter the ncu-csv import reads (core's).
  get ncuCommand() { return this.str(this.M._rlw_import_ncu_command()); }

  detectFormat(bytes) {
    const M = this.M;
    const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const ptr = M._malloc(u8.length || 1);
    if (!ptr) throw new Error('out of memory');
    M.HEAPU8.set(u8, ptr);
    const f = M._rlw_import_detect(ptr, u8.length, this.errPtr);
    M._free(ptr);
    return f < 0 ? this.error() : { ok: true, format: this.importFormats[f] };
  }

  importRecord(bytes, { format, answers = {} }) {
    const M = this.M;
    const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const json = JSON.stringify(answers);
    const n = M.lengthBytesUTF8(json) + 1;
    const ptr = M._malloc(u8.length || 1);
    const aptr = M._malloc(n);
    if (!ptr || !aptr) throw new Error('out of memory');
    M.HEAPU8.set(u8, ptr);
    M.stringToUTF8(json, aptr, n);
    const out = M._rlw_record_import(this.importFormats.indexOf(format), ptr, u8.length, aptr, this.errPtr);
    M._free(ptr);
    M._free(aptr);
    if (!out) return this.error();
    const o = JSON.parse(this.str(out));
    M._free(out);
    return { ok: true, report: o.report, text: o.text };
  }

  // What a file names of its problem unasked (core's rl_import_hints: FA2's kernel traits give
  // head dim, tile, dtype) → { answers: { flag: text }, from: the text it was read from }.
  importHints(bytes) {
    const M = this.M;
    const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const ptr = M._malloc(u8.length || 1);
    if (!ptr) throw new Error('out of memory');
    M.HEAPU8.set(u8, ptr);
    const out = M._rlw_import_hints(ptr, u8.length);
    M._free(ptr);
    if (!out) throw new Error('out of memory');
    const o = JSON.parse(this.str(out));
    M._free(out);
    return o;
  }
}
