// import-form.js — the small form a tool's output needs before it becomes a record: the problem
// the points describe (ncu rows never carry it; Google Benchmark names may), the preset measured
// and the record's details, with the CLI's flag names (`rooflab import --help`) as the fields'
// names and test ids (`import-seq`, `import-kv-heads`, `import-hw`, …). It holds no rules: every
// answer goes to core's importer as typed (model.importRecord), whose errors name the flag.
//
//   const form = new ImportForm(model, { format, name, answers, hints, onChange, onConfirm });
//   (hints: model.importHints(bytes), whose answers are already merged into `answers`)
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

// The controls' current values by flag (the URL fragment holds the page's state with the CLI's
// keys); a field the fragment leaves out is at core's default, which `def` gives (0: tied to
// another field, left empty so the importer ties it too).
export function currentAnswers(model, hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const out = {};
  for (const f of model.fields) {
    const v = params.get(f.flag);
    if (v !== null) out[f.flag] = v;
    else if (f.type === 'int' && f.def > 0) out[f.flag] = String(f.def);
    else out[f.flag] = '';
  }
  out.hw = params.get('hw') || model.defaultHw;
  return out;
}

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
    const ert = format === 'ert';
    form.append(el('p', { className: 'hint', text: `${intro}${ert ? ' The' : ' Prefilled from the current controls; the'} same answers as rooflab import’s flags.` }));
    if (hints && Object.keys(hints.answers).length) {
      // What the file itself names (core's rl_import_hints), already in the fields below.
      // (a perf_report table's hints come from its plot name, which says so itself)
      const lead = hints.from.startsWith('the plot name') ? 'From ' : 'From the kernel name ';
      form.append(el('p', { className: 'hint', testid: 'import-hints' }, lead, el('code', { text: hints.from }), ' (filled in below; change it if it is wrong).'));
    }
    if (format === 'ncu-csv') {
      form.append(el('p', { className: 'hint ncu-command' }, 'Counters it reads, collected by: ', el('code', { text: model.ncuCommand })));
    }
    const grid = el('div', { className: 'import-fields' });
    if (!ert) for (const f of model.fields) grid.append(this.field(f.flag, f.help, this.problemInput(f, answers[f.flag] || '')));
    for (const flag of ert ? ERT_FLAGS : [...OPTION_FLAGS, ...(FORMAT_FLAGS[format] || [])]) {
      grid.append(this.field(flag, OPTION_HELP[flag] || '', this.optionInput(flag, answers[flag] || '')));
    }
    form.append(grid);
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
    return el('label', { className: 'import-field' }, el('span', { text: `--${flag}` }), input);
  }

  problemInput(f, value) {
    if (f.type === 'bool') {
      const box = el('input', { type: 'checkbox' });
      box.checked = value === 'true' || value === '1';
      return box;
    }
    if (f.type === 'dtype' || f.type === 'pass') {
      const names = f.type === 'dtype' ? this.model.dtypes.map((d) => d.name) : this.model.passes;
      return this.select(['', ...names], value);
    }
    return el('input', { type: 'text', inputmode: 'numeric', spellcheck: 'false', value, placeholder: 'default' });
  }

  optionInput(flag, value) {
    if (flag === 'hw' && this.format === 'ert') { // the device ERT ran on: none said until chosen
      const s = this.select(['', ...this.model.presets.filter((p) => p.id !== 'custom').map((p) => p.id)], value);
      s.options[0].text = '(not said)';
      return s;
    }
    if (flag === 'hw') return this.select(['', ...this.model.presets.map((p) => p.id)], value);
    return el('input', { type: 'text', spellcheck: 'false', value, placeholder: 'default' });
  }

  select(values, value) {
    const s = el('select');
    for (const v of values) s.append(new Option(v || '(default)', v));
    s.value = values.includes(value) ? value : '';
    return s;
  }

  answers() {
    const out = {};
    for (const [flag, input] of this.inputs) {
      out[flag] = input.type === 'checkbox' ? (input.checked ? 'true' : '') : input.value;
    }
    return out;
  }

  // result: model.importRecord's answer ({ ok, report, text } or { ok: false, field, message }),
  // null while the importer runs. rows: the points as the list shows them (record-list.js builds them).
  showPreview(result, rows) {
    for (const input of this.inputs.values()) input.removeAttribute('aria-invalid');
    this.error.hidden = true;
    this.confirm.disabled = !(result && result.ok && result.report.ok && result.text !== null);
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
