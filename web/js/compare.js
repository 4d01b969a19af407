// compare.js — compare mode: up to four devices' roofs drawn together (a preset's roof from core
// through model.resolveRoof with the dtype its points ran in, or a record's measured ceilings),
// each labelled on the line with the device's name and drawn in the device's colour; record points
// coloured by their device; and the "% of own roof" view (y = core's derived efficiency: achieved /
// attainable on the point's own hardware, a flat 100 % line).
//
// Pure functions (compareDatasets, compareAxes, devicePoints) prepare what charts.js draws; the
// Compare class owns the controls (toggle, four selects, the own-roof view) and hands records.js
// a config { on, ownRoof, devices: [{ key, preset, name, short, bandwidth, peak, ridge, from }],
// notes }. No numbers are computed here: roofs, ridges and efficiencies are core's.
import { SPAN, measuredDataset } from './chart-data.js';
import { $ } from './dom.js';

export const MAX_DEVICES = 4;

// The "% of own roof" view's ceiling (issue 20, the phone): the axis ends at 150 % (room above the
// 100 % line for its label) or, when a point is above ~130 %, at 200 %; a point above 200 % of its
// own roof is drawn at 200 % as an up-pointing triangle, in a series of its own named for it, its
// tooltip and CSV row keeping the true value. Such a point is a wrong roof (another preset, another
// precision), not a kernel: an axis stretched to decades of % for it (it went to 1000 % and more)
// squeezed every honest point into the bottom of a phone's chart.
export const OWN_ROOF_CAP = 2;

// The index of the compared device a point's hardware ({ preset, name }) is, or -1.
export function deviceIndex(devices, hw) {
  if (!hw) return -1;
  const i = devices.findIndex((d) => d.preset && d.preset === hw.preset);
  return i >= 0 ? i : devices.findIndex((d) => d.name && d.name === hw.name);
}

// A device's roof over the whole span: the slope to its ridge, then its peak (core's attainable).
export function deviceRoofLine(model, d) {
  const at = (x) => ({ x, y: model.attainable(d.bandwidth, d.peak, x) });
  return [at(SPAN.xMin), ...(d.ridge > SPAN.xMin && d.ridge < SPAN.xMax ? [at(d.ridge)] : []), at(SPAN.xMax)];
}

// The measured series regrouped by device: each record's points split by the device they ran on,
// coloured by it (deviceIndex; -1 = not compared: muted). In the own-roof view y is the point's
// efficiency and points without a known roof are left out. Records' ceiling lines are left out
// (a record's measured ceilings are a device of their own in the selects).
export function devicePoints(measured, devices, ownRoof) {
  const out = [];
  for (const m of measured) {
    if (m.line) continue; // a record's ceilings: its device's roof stands for them here
    const groups = new Map();
    for (const p of m.points) {
      const i = deviceIndex(devices, p.device);
      if (ownRoof && !(p.eff > 0)) continue;
      const capped = ownRoof && p.eff > OWN_ROOF_CAP;
      const key = `${i}${capped ? '^' : ''}`;
      if (!groups.has(key)) groups.set(key, { i, capped, points: [] });
      groups.get(key).points.push(ownRoof ? { x: p.x, y: Math.min(p.eff, OWN_ROOF_CAP), eff: p.eff, capped, get text() { return p.text; }, kernel: p.kernel, name: p.name, device: p.device, own: p.y } : p);
    }
    for (const { i, capped, points } of groups.values()) {
      const dev = i >= 0 ? devices[i].short : 'a device not compared';
      const over = capped ? { label: `${m.label} — ${dev} — above ${100 * OWN_ROOF_CAP} % of own roof, drawn at it`, pointStyle: 'triangle', rotation: 0 } : { label: `${m.label} — ${dev}` };
      out.push({ ...m, ...over, points, deviceIndex: i, ownRoof, capped, muted: i < 0 });
    }
  }
  return out;
}

// Datasets of compare mode: the devices' roofs (or the flat 100 % line), then the measured series.
export function compareDatasets(model, cfg, measured, colors, format) {
  const ds = [];
  if (cfg.ownRoof) {
    ds.push({
      label: '100 % of own roof', rlKind: 'roof', rlId: 'own-roof', rlHideInLegend: true, data: [{ x: SPAN.xMin, y: 1 }, { x: SPAN.xMax, y: 1 }],
      showLine: true, borderColor: colors.roof, backgroundColor: colors.roof, borderWidth: 2, pointRadius: 0, pointHitRadius: 4, order: 1,
      rlLabel: { text: '100 % of each point’s own roof', at: { x: SPAN.xMax, y: 1 }, align: 'right', color: colors.roof },
    });
  } else {
    cfg.devices.forEach((d, i) => {
      const line = deviceRoofLine(model, d);
      const color = colors.devices[i];
      ds.push({
        label: `${d.name} roof: ${format(d.bandwidth, 'B/s')} · I, ${format(d.peak, 'FLOP/s')}`, rlKind: 'roof', rlId: `device-roof-${i}`,
        rlDevice: d.key, rlHideInLegend: true, data: line, showLine: true, borderColor: color, backgroundColor: color, borderWidth: 2,
        borderDash: d.from === 'ceilings' ? [8, 3] : [], pointRadius: 0, pointHitRadius: 4, order: 1,
        // named with its precision: an FP64 ceiling is not read as a fp16 tensor roof
        rlLabel: { text: `${d.short} ${format(d.peak, 'FLOP/s')}${d.precision ? ` ${d.precision}` : ''}, ${format(d.bandwidth, 'B/s')}`, at: line[line.length - 1], align: 'right', color, below: i % 2 === 1 },
      });
    });
  }
  for (const m of devicePoints(measured, cfg.devices, cfg.ownRoof)) {
    const d = measuredDataset(m, colors);
    if (m.muted) { d.borderColor = colors.muted; if (!m.hollow) d.backgroundColor = colors.muted; }
    if (cfg.ownRoof) d.rlOwnRoof = true;
    if (m.capped) d.clip = { left: 0, right: 0, top: 12, bottom: 0 }; // the triangles on the top edge drawn whole
    ds.push(d);
  }
  return ds;
}

// Axis ranges of compare mode: whole decades taking in every drawn point, every device's peak and
// every device's ridge (with the same factor-2 margin as the page's own ridge; issue 20: an ERT
// FP64 ridge of 8.5 FLOP/B was off the axis), and the 100 % line in the own-roof view.
export function compareAxes(view, cfg, datasets) {
  let xMin = view.xMin, xMax = view.xMax;
  if (!cfg.ownRoof) {
    for (const d of cfg.devices) {
      if (!(d.ridge > 0)) continue;
      xMin = Math.min(xMin, d.ridge / 2); xMax = Math.max(xMax, d.ridge * 2);
    }
  }
  const ys = cfg.ownRoof ? [1] : cfg.devices.flatMap((d) => [d.peak, d.bandwidth * view.xMin]);
  for (const d of datasets) {
    if (d.rlKind !== 'measured' || d.showLine) continue;
    for (const p of d.data) {
      if (!(p.x > 0 && p.y > 0)) continue;
      xMin = Math.min(xMin, p.x); xMax = Math.max(xMax, p.x); ys.push(p.y);
    }
  }
  const pos = ys.filter((y) => y > 0);
  const top = Math.max(...pos);
  return {
    xMin: 10 ** Math.floor(Math.log10(xMin)), xMax: 10 ** Math.ceil(Math.log10(xMax)),
    yMin: 10 ** Math.floor(Math.log10(Math.min(...pos))),
    // own roof: 150 % or 200 % (OWN_ROOF_CAP; the points are drawn at most at it), never decades
    yMax: cfg.ownRoof ? (top * 1.15 <= 1.5 ? 1.5 : OWN_ROOF_CAP) : 10 ** Math.ceil(Math.log10(top * 1.5)),
  };
}

// The controls. sources(): what records.js offers — { used: [{ preset, name, dtype }] (the
// devices of the shown points, in order), ceilings: [{ key, name, preset, file, bandwidth, peak }] }.
// onChange(): the config changed (records.js draws again). onState(value, ownRoof): the mode as
// the link keeps it (state.js's compare and own-roof keys) changed by hand.
export class Compare {
  constructor(model, { sources, onChange, onState = () => {} }) {
    this.model = model;
    this.sources = sources;
    this.onChange = onChange;
    this.onState = onState;
    this.wanted = null; // a link's devices not offered yet (a record's ceilings still loading)
    this.selects = [...Array(MAX_DEVICES).keys()].map((i) => $(`compare-preset-${i}`));
    this.toggle = $('compare-toggle');
    this.own = $('view-own-roof');
    if (!this.toggle) return;
    this.toggle.addEventListener('change', () => { if (this.toggle.checked) this.autofill(); this.changed(true); });
    this.own.addEventListener('change', () => this.changed(true));
    for (const s of this.selects) s.addEventListener('change', () => this.changed(true));
    this.fillOptions();
  }

  changed(byHand = false) {
    $('compare-controls').hidden = !this.toggle.checked;
    if (byHand) {
      this.wanted = null;
      this.onState(this.linkValue(), this.own.checked);
    }
    this.onChange();
  }

  // The mode as a link's `compare` value: '' off, 'on' with nothing picked, else the picked
  // devices in order, a preset by its id and a record's measured ceilings as ceilings:ID.
  linkValue() {
    if (!this.toggle || !this.toggle.checked) return '';
    const picked = this.selects.map((s) => s.value).filter(Boolean).map((v) => (v.startsWith('preset:') ? v.slice(7) : v));
    return picked.length ? picked.join(',') : 'on';
  }

  // A link's compare and own-roof values (state.js) shown in the controls. Devices the selects
  // do not offer yet (a record's ceilings before its file is restored) are kept and picked when
  // they appear; config() names those still missing. Nothing is reported back (onState).
  restore(value, ownRoof) {
    if (!this.toggle) return;
    const v = String(value || '');
    if (v === this.linkValue() && !!ownRoof === this.own.checked) return;
    this.toggle.checked = v !== '';
    this.own.checked = !!ownRoof;
    const picks = v === '' || v === 'on' ? [] : v.split(',').map((x) => x.trim()).filter(Boolean)
      .map((x) => (x.startsWith('ceilings:') ? x : `preset:${x}`)).slice(0, MAX_DEVICES);
    this.wanted = picks.length ? picks : null;
    for (const s of this.selects) s.value = '';
    this.fillOptions();
    this.changed();
  }

  // The selects' options: none, every preset, every shown record's measured ceilings.
  fillOptions() {
    const keep = this.selects.map((s) => s.value);
    const ceilings = this.sources().ceilings;
    for (const [i, s] of this.selects.entries()) {
      s.replaceChildren(new Option('(none)', ''));
      for (const p of this.model.presets) if (p.id !== 'custom') s.append(new Option(p.name, `preset:${p.id}`));
      // a record's file and hardware names, as the CLI prints them (core's escaper)
      for (const c of ceilings) s.append(new Option(this.model.escapeText(`measured ceilings of ${c.file} (${c.name})`), c.key));
      const want = this.wanted ? this.wanted[i] || '' : keep[i];
      s.value = [...s.options].some((o) => o.value === want) ? want : '';
    }
  }

  // Turning compare on with nothing picked: the devices of the shown records (a record of ceilings
  // only, such as ERT's, by its measured ceilings), up to four.
  autofill() {
    this.fillOptions();
    if (this.selects.some((s) => s.value)) return;
    const { used, ceilings } = this.sources();
    const picks = [];
    for (const c of ceilings) if (!used.some((u) => u.preset && u.preset === c.preset)) picks.push(c.key);
    for (const u of used) if (u.preset) picks.push(`preset:${u.preset}`);
    [...new Set(picks)].slice(0, MAX_DEVICES).forEach((v, i) => { this.selects[i].value = v; });
  }

  // { on, ownRoof, devices, notes } for the current choice; dtypeName: the page's dtype, for a
  // preset whose points are not shown.
  // page: the page's preset and typed roof ({ hw, typedBandwidth, typedPeak }, records.js's
  // page()): the page's own device is drawn with the β and π typed, the others with their
  // datasheet figures, and the notes say which.
  config(dtypeName, page = null) {
    if (!this.toggle || !this.toggle.checked) return { on: false, ownRoof: false, devices: [], notes: [] };
    this.fillOptions();
    const { used, ceilings } = this.sources();
    const devices = [];
    const notes = [];
    if (this.wanted) {
      for (const w of this.wanted) {
        if (this.selects.some((s) => s.value === w)) continue;
        notes.push(w.startsWith('preset:') ? `the link's device "${w.slice(7)}" is not a preset`
          : `the link's device ${w} (a record's measured ceilings) is not loaded on this page`);
      }
    }
    for (const v of this.selects.map((s) => s.value).filter(Boolean)) {
      const d = v.startsWith('preset:') ? this.presetDevice(v.slice(7), used, dtypeName, notes, page) : this.ceilingDevice(ceilings.find((c) => c.key === v), notes);
      if (d && !devices.some((x) => x.key === d.key)) devices.push(d);
    }
    const sheet = devices.filter((d) => d.from === 'preset').map((d) => d.short);
    if (sheet.length) notes.push(`${sheet.join(', ')}: datasheet roof${sheet.length > 1 ? 's' : ''}`);
    return { on: true, ownRoof: this.own.checked, devices, notes };
  }

  presetDevice(id, used, dtypeName, notes, page = null) {
    const m = this.model;
    const p = m.presets.find((x) => x.id === id);
    const dtype = (used.find((u) => u.preset === id) || {}).dtype || dtypeName;
    const dt = m.parseDtype(dtype);
    const own = page && page.hw === id && (page.typedBandwidth || page.typedPeak); // the roof typed on the page
    const r = dt.ok ? m.resolveRoof({ hw: id, dtype: dt.index, ...(own ? { bandwidth: page.typedBandwidth || '', peak: page.typedPeak || '' } : {}) }) : dt;
    if (!r.ok) { notes.push(`${p ? p.name : id}: ${r.message}`); return null; }
    if (own) notes.push(`${shortName(p.name)}: the roof typed on the page (${r.bandwidthTyped ? `β ${m.format(r.bandwidth, 'B/s')}` : 'datasheet β'}, ${r.peakTyped ? `π ${m.format(r.peak, 'FLOP/s')}` : 'datasheet π'})`);
    const precision = (m.peakKinds[r.peakKind] || {}).name || dtype;
    return { key: `preset:${id}`, preset: id, name: p.name, short: shortName(p.name), bandwidth: r.bandwidth, peak: r.peak, ridge: r.ridge, from: own ? 'typed' : 'preset', dtype, precision };
  }

  ceilingDevice(c, notes) {
    if (!c) return null;
    if (!(c.bandwidth > 0 && c.peak > 0)) { notes.push(`${c.file}: its ceilings give no ${c.bandwidth > 0 ? 'compute' : 'bandwidth'} figure, so no roof`); return null; }
    return { key: c.key, preset: c.preset, name: c.name, short: `${shortName(c.name)} (measured)`, bandwidth: c.bandwidth, peak: c.peak, ridge: this.model.ridge(c.bandwidth, c.peak), from: 'ceilings', precision: c.precision };
  }
}

// A device's name without the vendor and the details in brackets: "NVIDIA V100-SXM2-16GB (NERSC
// Cori GPU node)" → "V100-SXM2-16GB".
export function shortName(name) {
  return String(name || '').replace(/\s*\(.*\)\s*$/, '').replace(/^(NVIDIA|AMD|Intel)\s+/i, '').trim() || String(name || '');
}
