// import-form.js — the small form a tool's output needs before it becomes a record: the problem
// the points describe (ncu rows never carry it; Google Benchmark names may), the preset measured
// and the record's details. Plain labels, with the CLI's flag (`rooflab import --help`) as a hint
// and as the fields' names and test ids (`import-seq`, `import-kv-heads`, `import-hw`, …). It
// guesses nothing (issue 20): a field the file cannot supply starts empty — never copied from the
// page's controls — and the problem's own fields (REQUIRED) must be given before anything is
// imported; a field the file supplies (core's hints, or a benchmark name's arguments) is shown
// locked with where it came from. Every answer goes to core's importer as typed
// (model.importRecord), whose errors name the flag.
//
//   const form = new ImportForm(model, { format, name, answers, hints, onChange, onConfirm });
//   (hints: model.importHints(bytes), whose answers are already merged into `answers`)
//   form.missing()          the required flags still empty (no point shown or added until [])
//   (the file's Cancel button, in its list item, cancels the form too)
//   form.el                 the <form> to put in the file's list item
//   form.answers()          { flag: text } ('' = not given, the CLI's default)
//   form.showPreview(result, busy)  the resulting point(s) or the importer's errors

import { makeEl } from './dom.js';

// Options of `rooflab import` beside the problem flags (cli/cmd_import.c), in its help's order.
const OPTION_FLAGS = ['hw', 'hw-name', 'kernel-version', 'date', 'traffic-model'];
// Options only some formats read (cli/cmd_import.c's help).
const FORMAT_FLAGS = {
  gbench: ['args'],
  'torch-trace': ['match'],
  'nsys-csv': ['match'],
  'triton-csv': ['args', 'unit'],
};
// The format options' meaning (a field's title), as rooflab import --help says it.
const OPTION_HELP = {
  match: 'import the kernels whose name contains this text (case-insensitive) instead of the attention-like names',
  unit: 'the values’ unit where the table states none: TFLOP/s, TFLOPS, ms, us',
};
// An ERT roofline.json needs no problem (its ceilings are the device's); what it lacks is the
// device it ran on (it names only its host): these are asked, and start empty (issue 20).
const ERT_FLAGS = ['hw', 'hw-name', 'date'];
// What each format does not carry, said above the form.
const INTROS = {
  ert: 'An ERT roofline.json measures a device’s ceilings but names only its host: say which device it ran on. With a preset its ceilings are compared with that device’s roof and named as its own; left empty, they belong to no preset. Not prefilled: the controls’ preset need not be the machine ERT ran on.',
  gbench: 'The benchmarks’ names give the problem where they carry arguments (see args); the rest comes from here.',
  'ncu-csv': 'An Nsight Compute export does not say which problem the kernels ran: give it here.',
  'torch-trace': 'A PyTorch profiler trace times its GPU kernels but does not say which problem they ran: give it here (a FlashAttention-2 kernel’s name gives its head dim). match: the kernels to import (default: names like flash, fmha, attention).',
  'nsys-csv': 'An Nsight Systems report times its kernels but does not say which problem they ran: give it here. match: the kernels to import (default: names like flash, fmha, attention).',
  'triton-csv': 'A perf_report table sweeps one problem field (its x column; see args): give the others here, and unit when its values are in TFLOP/s (the plot’s ylabel, not in the table).',
};

// Every text this form shows (what the file names: hints, kernel names; core's messages, which
// quote answers and the file) goes through core's escaper (model.escapeText, the CLI's
// rl_text_escape): invisible and direction characters named, never rendered; set by the
// ImportForm constructor. (An input's value is the user's own text, kept as typed.)
let esc = (s) => s;
let el = makeEl(esc); // dom.js's, with core's escaper once the form is made

// The fields a measurement must state: the problem's own, which no default stands for (a wrong
// batch or head count scales every point; issue 20's ×8). Tied fields (KV heads, KV length, the
// other dtypes) may stay empty: they follow their partner, as in the CLI; the tile is the tiled
// model's only.
export const REQUIRED = ['batch', 'heads', 'seq', 'head-dim', 'dtype', 'causal', 'pass'];
// Plain labels; the flag is shown beside as a hint (the CLI's name for the same answer).
export const LABELS = {
  batch: 'Batch B', heads: 'Query heads H', 'kv-heads': 'KV heads Hkv', seq: 'Sequence length N',
  'kv-len': 'KV length L', 'head-dim': 'Head dim d', dtype: 'Element type (Q, O)', 'kv-dtype': 'K/V element type',
  'out-dtype': 'Output element type', 'score-dtype': 'Score element type (S, P)', causal: 'Causal mask',
  pass: 'Pass', 'block-m': 'Tile rows Br', 'block-n': 'Tile columns Bc', hw: 'Device it ran on',
  'hw-name': 'Device name', 'kernel-version': 'Kernel version', date: 'Date measured', 'traffic-model': 'Traffic model',
  args: 'Arguments in the benchmark names', match: 'Kernels to import', unit: 'Unit of the values',
};
// Google Benchmark's default argument order when `args` is empty (core: rl_import_opts.gbench_args,
// record.h: "batch,seq,heads,head_dim"): these fields come from each benchmark's name.
const GBENCH_DEFAULT_ARGS = 'batch,seq,heads,head_dim';

export class ImportForm {
  constructor(model, { format, answers, hints = null, onChange, onConfirm }) {
    this.model = model;
    esc = (s) => model.escapeText(s);
    el = makeEl(esc);
    this.format = format;
    this.inputs = new Map();
    const form = el('form', { className: 'import-form', testid: 'import-form', novalidate: '' });
    form.addEventListener('submit', (e) => { e.preventDefault(); onConfirm(); });
    const intro = INTROS[format] || INTROS['ncu-csv'];
    form.append(el('p', { className: 'hint', text: `${intro} Nothing is taken from the page’s controls: fields marked * are needed; the others may stay empty (core’s default, or the field they follow). The same answers as rooflab import’s flags.` }));
    if (hints && Object.keys(hints.answers).length) {
      // What the file itself names (core's rl_import_hints), already in the fields below.
      // (a perf_report table's hints come from its plot name, which says so itself)
      const lead = hints.from.startsWith('the plot name') ? 'From ' : 'From the kernel name ';
      form.append(el('p', { className: 'hint', testid: 'import-hints' }, lead, el('code', { text: hints.from }), ' (shown below, locked: the file says so).'));
    }
    if (format === 'ncu-csv') {
      const copy = el('button', { type: 'button', testid: 'import-ncu-copy', text: 'Copy the command' });
      const code = el('code', { testid: 'import-ncu-command', text: model.ncuCommand });
      copy.addEventListener('click', async () => {
        let ok = false;
        try { await navigator.clipboard.writeText(model.ncuCommand); ok = true; } catch (_) { /* shown selected instead */ }
        if (!ok) getSelection().selectAllChildren(code);
        copy.textContent = ok ? 'Copied' : 'Selected: press Ctrl+C';
      });
      form.append(el('details', { className: 'hint ncu-command', testid: 'import-ncu-details' },
        el('summary', { text: 'The ncu command that collects the counters it reads' }), code, ' ', copy));
    }
    // Fields the file supplies: core's hints (FA2 kernel traits) and, for Google Benchmark, the
    // fields its names carry (args, else core's default order); shown locked, saying so.
    this.fromFile = new Map(Object.keys(hints ? hints.answers : {}).map((k) => [k, 'from the kernel name']));
    if (format === 'gbench') {
      for (const key of (answers.args || GBENCH_DEFAULT_ARGS).split(',')) {
        const f = model.field(key.trim());
        if (f) this.fromFile.set(f.flag, 'from each benchmark’s name');
      }
    }
    // (a Google Benchmark name may also carry the dtype and the pass, core's gbench importer: a
    // fp16/bf16/fp8/fp32 token, a forward/backward word; a given answer is what the name lacks)
    this.maybeFromName = format === 'gbench' ? new Set(['dtype', 'pass']) : new Set();
    const ert = format === 'ert'; // an ERT file carries ceilings, not a problem: its device is asked
    this.required = format === 'triton-csv' || ert ? [] : REQUIRED.filter((f) => !this.maybeFromName.has(f)); // a table's x column is not known here
    const grid = el('div', { className: 'import-fields' });
    if (!ert) for (const f of model.fields) grid.append(this.field(f.flag, f.help, this.problemInput(f, answers[f.flag] || '')));
    for (const flag of ert ? ERT_FLAGS : [...OPTION_FLAGS, ...(FORMAT_FLAGS[format] || [])]) {
      grid.append(this.field(flag, OPTION_HELP[flag] || '', this.optionInput(flag, answers[flag] || '')));
    }
    form.append(grid);
    this.needs = el('p', { className: 'hint import-needs', testid: 'import-needs' });
    form.append(this.needs);
    this.error = el('p', { className: 'field-error', testid: 'import-error', role: 'alert' });
    this.error.hidden = true;
    this.preview = el('div', { className: 'import-preview', testid: 'import-preview' });
    this.confirm = el('button', { type: 'submit', testid: 'import-confirm', text: ert ? 'Add its ceilings' : 'Add these points' });
    form.append(this.error, this.preview, el('div', { className: 'buttons' }, this.confirm));
    form.addEventListener('change', () => onChange());
    form.addEventListener('input', () => onChange());
    this.el = form;
  }

  field(flag, help, input) {
    input.dataset.testid = `import-${flag}`;
    input.name = flag;
    if (help) input.title = help;
    this.inputs.set(flag, input);
    const from = this.fromFile.get(flag);
    const need = !from && this.required.includes(flag);
    if (need) input.required = true;
    if (from) { // locked: the file says it (a wrong hint is the file's, not the form's)
      if (input.tagName === 'SELECT') input.disabled = true;
      else input.readOnly = true;
      input.dataset.from = 'file';
    }
    return el('label', { className: `import-field${from ? ' from-file' : ''}` },
      el('span', { className: 'import-label', text: `${LABELS[flag] || flag}${need ? ' *' : ''}` }),
      input, el('small', { className: 'import-flag', text: from ? `--${flag}, ${from}` : `--${flag}` }));
  }

  // Core's defaults for `flags` (model.fields' def): only for a probe import that finds what the
  // file itself refuses while answers are missing; never shown, never added.
  probeAnswers(flags) {
    const out = {};
    for (const flag of flags) {
      const f = this.model.field(flag);
      if (!f) continue;
      if (f.type === 'int') out[flag] = f.def > 0 ? String(f.def) : '';
      else if (f.type === 'dtype') out[flag] = f.def > 0 ? this.model.dtypes[f.def].name : '';
      else if (f.type === 'pass') out[flag] = this.model.passes[f.def];
      else if (f.type === 'bool') out[flag] = f.def === 1 ? 'true' : 'false';
    }
    return out;
  }

  // The required fields still empty, by flag.
  missing() {
    return this.required.filter((flag) => !this.fromFile.has(flag) && this.inputs.get(flag).value === '');
  }

  problemInput(f, value) {
    if (f.type === 'bool') { // a choice to make, not a box left unticked by default
      const s = this.select(['', 'false', 'true'], value === '1' ? 'true' : value === '0' ? 'false' : value);
      s.options[0].text = '— choose —';
      s.options[1].text = 'no';
      s.options[2].text = 'yes';
      return s;
    }
    if (f.type === 'dtype' || f.type === 'pass') {
      const names = f.type === 'dtype' ? this.model.dtypes.map((d) => d.name) : this.model.passes;
      const tied = f.tie >= 0 ? this.model.allFields[f.tie] : null;
      const empty = tied ? `same as ${LABELS[tied.flag] || tied.flag}` : this.maybeFromName.has(f.flag) ? 'from the names where they say' : '— choose —';
      return this.select(['', ...names], value, empty);
    }
    const partner = f.tie >= 0 ? this.model.allFields[f.tie] : null;
    const placeholder = this.fromFile.has(f.flag) ? '' : REQUIRED.includes(f.flag) ? 'needed' : partner ? `same as ${LABELS[partner.flag] || partner.flag}` : 'core’s default';
    return el('input', { type: 'text', inputmode: 'numeric', spellcheck: 'false', value, placeholder });
  }

  optionInput(flag, value) {
    if (flag === 'hw' && this.format === 'ert') { // the device ERT ran on: none said until chosen
      const s = this.select(['', ...this.model.presets.filter((p) => p.id !== 'custom').map((p) => p.id)], value);
      s.options[0].text = '(not said)';
      return s;
    }
    if (flag === 'hw') return this.select(['', ...this.model.presets.map((p) => p.id)], value, 'not said (the file’s name for it, if any)');
    return el('input', { type: 'text', spellcheck: 'false', value, placeholder: 'default' });
  }

  select(values, value, empty = '— choose —') {
    const s = el('select');
    for (const v of values) s.append(new Option(v || empty, v));
    s.value = values.includes(value) ? value : '';
    return s;
  }

  answers() {
    const out = {};
    for (const [flag, input] of this.inputs) out[flag] = input.value;
    return out;
  }

  // result: model.importRecord's answer ({ ok, report, text } or { ok: false, field, message }),
  // null while the importer runs. rows: the points as the list shows them (record-list.js builds them).
  showPreview(result, rows) {
    for (const input of this.inputs.values()) input.removeAttribute('aria-invalid');
    this.error.hidden = true;
    this.confirm.disabled = !(result && result.ok && result.report.ok && result.text !== null);
    const missing = this.missing();
    this.needs.textContent = missing.length ? `Needed before the points can be shown: ${missing.map((f) => `${LABELS[f]} (--${f})`).join(', ')}.` : '';
    this.needs.hidden = !missing.length;
    if (missing.length) this.confirm.disabled = true;
    if (missing.length && (!result || (result.ok && result.report.ok))) { // a refusal is the file's: shown
      this.preview.dataset.value = 'needs';
      this.preview.replaceChildren();
      return;
    }
    if (!result) {
      this.preview.dataset.value = 'busy';
      this.preview.replaceChildren(el('p', { className: 'hint', text: 'Importing with these answers…' }));
      return;
    }
    if (!result.ok) { // an answer core refused: the message names its flag
      this.preview.dataset.value = 'refused';
      this.error.textContent = esc(result.message); // it quotes the answer: named, never rendered
      this.error.hidden = false;
      const input = this.inputs.get(result.field);
      if (input) input.setAttribute('aria-invalid', 'true');
      this.preview.replaceChildren();
      return;
    }
    this.preview.dataset.value = result.report.ok ? String(result.report.record.points.length) : 'refused';
    this.preview.replaceChildren(...rows.filter((r) => r !== null && r !== undefined)); // (no "null" text)
  }
}
