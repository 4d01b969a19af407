// hw-banner.js — hardware honesty (issue 20): points or ceilings measured on another device than the
// page's roof are never drawn on it without a word. A banner above the roofline says so ("30 points
// ran on A100 SXM4: switch the preset or compare") with both actions as buttons, and a record's
// ceiling from another (or an unnamed) device asks before it becomes the page's β or π.
// Words only: which device a point ran on is its record's (record-marks.js's devices, with their
// point counts), the page's preset is the controller's (records.js page()).
import { shortName } from './compare.js';
import { makeEl } from './dom.js';

const plural = (n, word) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

// What the shown records ran on that is not the page's preset: [{ preset, name, points, files }]
// (a preset named in the record; largest first) and the files whose ceilings are from another or
// an unnamed device: [{ file, name }]. marksOf(f): record-marks.js's of(f); presetName(id): a
// preset's own name (the record's may not name the model: "NVIDIA A100 (… not stated …)").
export function foreignHardware(files, marksOf, pageHw, presetName = () => '') {
  const devices = new Map();
  const ceilings = [];
  for (const f of files) {
    if (!f.report || !f.report.ok || !f.visible) continue;
    const m = marksOf(f);
    for (const d of m.devices) {
      if (!d.count || !d.preset || d.preset === pageHw) continue;
      const e = devices.get(d.preset) || { preset: d.preset, name: presetName(d.preset) || d.name, points: 0, files: 0 };
      e.points += d.count;
      e.files += 1;
      devices.set(d.preset, e);
    }
    const hw = f.report.record.hardware || {};
    if ((hw.ceilings || []).length && hw.preset !== pageHw) ceilings.push({ file: f.name, name: presetName(hw.preset) || hw.name || 'an unnamed device', preset: hw.preset || '' });
  }
  return { devices: [...devices.values()].sort((a, b) => b.points - a.points), ceilings };
}

// The banner's sentence: "30 points ran on A100 SXM4: switch the preset or compare" (every device
// named, the largest first); '' when everything shown is the page's device.
export function bannerText({ devices, ceilings }, presetName) {
  const parts = devices.map((d, i) => `${i ? d.points.toLocaleString('en-US') : plural(d.points, 'point')}${i ? '' : ' ran'} on ${shortName(d.name)}`);
  const said = parts.length ? `${parts.join(', ')}` : '';
  const ceil = ceilings.map((c) => `the ceilings of ${c.file} were measured on ${c.preset ? shortName(c.name) : `${c.name} (no rooflab preset)`}`);
  const all = [said, ...ceil].filter(Boolean).join('; ');
  if (!all) return '';
  return `${all[0].toUpperCase()}${all.slice(1)}, not on the ${shortName(presetName)} roof drawn: switch the preset or compare`;
}

export class HwBanner {
  // onPreset(id): the page's preset becomes id; onCompare(): compare mode on with these devices.
  constructor(model, { esc, onPreset, onCompare }) {
    this.model = model;
    this.el = makeEl(esc);
    this.esc = esc;
    this.onPreset = onPreset;
    this.onCompare = onCompare;
    this.key = null;
  }

  // Shown while, outside compare mode, shown records ran on another device than page.hw.
  render(files, marksOf, page, compareOn) {
    const box = document.getElementById('hw-banner');
    if (!box) return;
    const presetName = (id) => (this.model.presets.find((p) => p.id === id) || {}).name || '';
    const found = page && !compareOn ? foreignHardware(files, marksOf, page.hw, presetName) : { devices: [], ceilings: [] };
    const text = page ? bannerText(found, page.hwName) : '';
    const top = found.devices[0] || found.ceilings.find((c) => c.preset);
    const key = JSON.stringify([text, top && top.preset]);
    if (key === this.key) return;
    this.key = key;
    box.hidden = !text;
    box.dataset.value = String(found.devices.reduce((n, d) => n + d.points, 0));
    if (!text) { box.replaceChildren(); return; }
    const el = this.el;
    const buttons = [];
    if (top && top.preset && this.model.presets.some((p) => p.id === top.preset)) {
      const name = shortName(presetName(top.preset) || top.name);
      const b = el('button', { type: 'button', testid: 'hw-banner-switch', text: `Switch the preset to ${name}` });
      b.addEventListener('click', () => this.onPreset(top.preset));
      buttons.push(b);
    }
    const c = el('button', { type: 'button', testid: 'hw-banner-compare', text: 'Compare devices (each point on its own roof)' });
    c.addEventListener('click', () => this.onCompare());
    buttons.push(c);
    box.replaceChildren(el('span', { testid: 'hw-banner-text', text: `⚠ ${text}.` }), ' ', ...buttons);
  }

  // Asks before a ceiling of another device becomes the page's figure: the question (mix: what
  // it mixes, records.js mixWarning) with "Use it" and "Keep the roof"; resolves true or false.
  confirm(anchor, question) {
    this.cancel();
    const el = this.el;
    const yes = el('button', { type: 'button', testid: 'ceiling-confirm-yes', text: 'Use it anyway' });
    const no = el('button', { type: 'button', testid: 'ceiling-confirm-no', text: 'Keep the roof' });
    const box = el('div', { className: 'ceiling-confirm', testid: 'ceiling-confirm', role: 'alertdialog' },
      el('p', { text: question }), yes, ' ', no);
    anchor.after(box);
    return new Promise((resolve) => {
      this.pending = () => { box.remove(); this.pending = null; resolve(false); };
      yes.addEventListener('click', () => { box.remove(); this.pending = null; resolve(true); });
      no.addEventListener('click', () => this.pending());
      yes.focus();
    });
  }

  cancel() { if (this.pending) this.pending(); }
}
