// controller.js — owns the page's state: takes input from the view (and from records.js through
// callbacks), turns the state into model input (state.js), calls the model (model.js), and tells
// the view and the two charts what to render. The last good state stays shown when an input is
// refused; the URL fragment follows the state.
import { PageState, SHAPE_KEYS, SHAPE_VARIANT_KEYS, COMPARE_KEYS } from './state.js';
import { buildViews, legendItems, limitText } from './chart-data.js';
import { workedHtml, makeFormatters } from './explain.js';
import { download, csvBlob, copyText } from './io.js';
import { chartPng } from './charts.js';

const SWEEP_POINTS = 256;
// What each ledger term is (core's term names; the formulas are in the worked calculation).

export class Controller {
  // charts: { roofline: RooflineChart, sweep: SweepChart }; scenarios: scenarios.js's list; bus:
  // bus.js's, where the collaborators (tour, layer view, records' compare view) listen.
  constructor(model, view, charts, scenarios, bus) {
    this.model = model;
    this.bus = bus;
    this.view = view;
    this.roofline = charts.roofline;
    this.sweepChart = charts.sweep;
    this.scenarios = scenarios;
    this.pageState = new PageState(model);
    this.fmt = makeFormatters(model);
    this.state = this.pageState.defaultState(); // the last state shown (applied)
    this.controls = this.state; // what the controls say, a refused value too
    this.good = null; // last good { state, resolved, result, rows }
    this.measured = [];
    const ranges = Object.fromEntries(model.allFields.map((f) => [f.flag, [f.rangeLo, f.rangeHi]]));
    view.populate({ presets: model.presets, dtypes: model.dtypes, peakKinds: model.peakKinds, scenarios, version: model.version, ranges, kernels: model.kernels, shapes: model.shapes });
    view.bindControlInput((key, value, o) => this.fromControls(key, value, o));
    view.bindLayerKind((kind) => this.setLayerKind(kind));
    // A scenario button starts its guided tour (tour.js, on the bus) when there is one.
    view.bindScenario((id) => bus.emit('scenario', id) || this.loadScenario(this.scenarios.find((s) => s.id === id)));
    view.bindCopyLink(() => this.copyLink());
    view.bindExportCsv(() => this.exportCsv());
    view.bindExportPng((which) => this.exportPng(which));
    view.bindZoom((what) => {
      if (what === 'reset') this.roofline.resetZoom();
      else this.roofline.zoom(what === 'in' ? 1.25 : 0.8);
    });
    view.bindReset(() => this.load(this.pageState.defaultState(), { scenario: null }));
    view.bindHashChange((hash) => {
      if (hash.replace(/^#/, '') !== this.pageState.toFragment(this.state)) this.load(this.pageState.fromFragment(hash), { fromLink: true });
    });
    view.bindWorkedVisible((visible) => {
      this.workedVisible = visible;
      if (visible && this.workedDirty) this.renderWorked();
    });
    view.bindColorScheme(() => { this.roofline.recolor(); this.sweepChart.recolor(); });
    view.bindTheme(() => { this.roofline.recolor(); this.sweepChart.recolor(); });
    this.roofline.announce = (text) => view.announceChart(text);
    window.addEventListener('beforeprint', () => this.flush()); // the worked calculation, written
  }

  // ---------------------------------------------------------------------------------------------
  // Input. The controller owns the state: the view hands one control's (key, value); the state is
  // patched, what follows from the change is worked out here and only those controls are written.
  fromControls(key, value, { slider = false } = {}) {
    const patch = { [key]: value };
    if (key === 'hw') Object.assign(patch, { bandwidth: '', peak: '' }); // a new machine: its own figures
    if (key === 'phase' && value !== 'decode') patch['kv-len'] = ''; // prefill starts with L = N again
    if (key === 'model' && value) {
      // A model fills its shape (core's values for the rows the phase has: an MLA model's latent
      // in decode); a refused or unknown one is named by resolve(). Its window is the layer kind's.
      Object.assign(patch, this.shapePatch(value, { ...this.controls, ...patch }), { window: '', sinks: '' });
    } else if (SHAPE_KEYS.includes(key) || SHAPE_VARIANT_KEYS.includes(key)) {
      patch.model = ''; // a shape changed by hand is no longer the model's
    } else if ((key === 'phase' || key === 'seq') && this.model.shapes.find((x) => x.id === this.controls.model)?.kvLoraRank > 0) {
      Object.assign(patch, this.shapePatch(this.controls.model, { ...this.controls, ...patch })); // MLA: its form follows the rows
    }
    const follows = { ...patch };
    delete follows[key]; // the control the person changed says it already
    this.view.writeControls(follows);
    this.controls = this.pageState.withTies({ ...this.controls, ...patch });
    if (this.pageState.hasVariant(this.controls)) this.view.openVariants();
    this.renderPhase(this.controls);
    this.apply(this.controls, { throttleUrl: slider });
  }

  // What model `id` sets for the rows `state` has (core's rl_model_shape_apply): the three shape
  // keys where core gives them (absorbed MLA leaves them to resolve) and the variant keys ('' = off).
  shapePatch(id, state) {
    const rows = this.pageState.isDecode(state) ? 1 : Number(state.seq) || 0;
    const shape = this.model.modelShape(id, rows);
    if (!shape.ok) return {};
    const patch = {};
    for (const k of SHAPE_KEYS) if (shape[k] > 0) patch[k] = shape[k];
    for (const k of SHAPE_VARIANT_KEYS) patch[k] = shape[k] > 0 ? shape[k] : '';
    return patch;
  }

  // The layer kind of a model with sliding-window layers: 'local' applies its window (causal, as
  // core's window is), 'global' takes it off.
  setLayerKind(kind) {
    const shape = this.model.shapes.find((x) => x.id === this.controls.model);
    if (!shape || !(shape.window > 0)) return;
    const local = kind === 'local';
    const patch = { window: local ? shape.window : '', ...(local ? { causal: true } : {}) };
    this.view.writeControls(patch);
    this.controls = { ...this.controls, ...patch };
    if (local) this.view.openVariants();
    this.apply(this.controls);
  }

  // What the phase and the variants fix is disabled and shows the value the model uses (decode:
  // N = 1; an MLA latent: d, d_v and Hkv; a ragged batch: B and L — core's, written by render());
  // a field they free shows the state's value again.
  renderPhase(state) {
    const ps = this.pageState;
    const decode = ps.isDecode(state);
    const fixed = new Set(ps.derivedKeys(state));
    if (decode) fixed.add('seq');
    const keys = ['seq', 'kv-len', 'batch', 'kv-heads', 'head-dim', 'head-dim-v'];
    this.view.renderDisabled(Object.fromEntries(keys.map((k) => [k, fixed.has(k)])));
    const shown = decode ? { seq: 1 } : {};
    const was = this.fixedShown || new Set();
    for (const k of keys) if (was.has(k) && !fixed.has(k)) shown[k] = state[k];
    this.fixedShown = fixed;
    this.view.writeControls(shown);
  }

  // A record point's problem (JSON keys, as the record writes them) and its preset id (or null):
  // the controls take them. Returns notes on what the page could not take over.
  adopt(problem, presetId) {
    const s = { ...this.state };
    const decode = problem.seq === 1 && problem.kv_len > 1;
    s.phase = decode ? 'decode' : 'prefill';
    for (const f of this.model.allFields) {
      if (!(f.key in problem)) continue;
      const v = problem[f.key];
      if (f.flag === 'seq' && decode) continue; // decode keeps the prefill length for later
      if (f.type === 'bool') s[f.flag] = !!v;
      else if (f.type === 'dtype' && f.def === 0) s[f.flag] = v === problem.dtype ? '' : v;
      else if (f.type === 'lens') s[f.flag] = Array.isArray(v) ? v.map(([len, count]) => (count > 1 ? `${len}x${count}` : `${len}`)).join(',') : '';
      else if (f.variant && !v) s[f.flag] = ''; // off
      else s[f.flag] = v;
    }
    const preset = presetId && this.model.presets.find((x) => x.id === presetId);
    if (preset) Object.assign(s, { hw: preset.id, bandwidth: '', peak: '' });
    s.model = ''; // the record's shape, not a model's
    this.load(s, { scenario: null });
    const notes = [];
    if (!preset) notes.push('its hardware names no rooflab preset, so the roof was left as it was');
    return notes;
  }

  // A typed roof figure (field 'bandwidth' or 'peak', text in core's units) from a record's ceiling.
  useCeiling(field, text) {
    this.view.writeControls({ [field]: text });
    this.fromControls(field, text);
  }

  // Measured datasets from records.js, drawn on the roofline and listed in the legend.
  setMeasured(list) {
    this.measured = list;
    this.roofline.setMeasured(list);
    if (this.good) this.renderLegend(this.roofline.view);
  }

  // ---------------------------------------------------------------------------------------------
  // Evaluate a candidate state; on success it becomes the state and everything is redrawn.
  apply(candidate, { updateUrl = true, throttleUrl = false } = {}) {
    const ps = this.pageState;
    const res = ps.resolve(candidate);
    let ev = res.ok ? this.model.evaluate(res.params) : res;
    let sw = null;
    if (ev.ok) {
      // The sweep does not depend on the swept parameter's own value: moving N reuses it.
      const swept = ps.sweptKey(candidate);
      const key = JSON.stringify({ ...res.params, [swept]: 0, lens: candidate['kv-lens'], range: ps.sweepRange(candidate) });
      if (res.params['kv-lens']) {
        sw = { ok: true, rows: [] }; // a ragged batch fixes the lengths: nothing to sweep (core refuses kv-len with it)
      } else if (this.sweepCache && this.sweepCache.key === key) {
        sw = this.sweepCache.sweep;
      } else {
        const [lo, hi] = ps.sweepRange(candidate);
        sw = this.model.sweep(res.params, swept, lo, hi, SWEEP_POINTS, true);
        if (sw.ok) this.sweepCache = { key, sweep: sw };
      }
      if (!sw.ok) ev = sw;
    }
    if (!ev.ok) {
      this.view.clearErrors();
      const f = this.model.field(ev.field);
      this.view.showFieldError(f ? f.flag : ev.field, ev.message);
      this.view.renderStatus(this.good ? 'Input not applied — the chart shows the last good state.' : ev.message, 'error');
      return false;
    }
    this.state = candidate;
    this.good = { state: candidate, resolved: res, result: ev.r, rows: sw.rows, predError: ev.predError };
    this.render();
    // After the charts: a canvas font needs its element's style, so a DOM write before them forces
    // a style recalc inside the input event.
    this.view.clearErrors();
    this.view.renderStatus('Ready', 'ok');
    if (updateUrl) this.scheduleUrl(ps.toFragment(candidate), throttleUrl);
    return true;
  }

  // fromLink: the state is a link's (the page's URL); compare mode (state.js's COMPARE_KEYS) is
  // then the link's too, otherwise it stays as it is (a scenario, a tour step or Reset keep it).
  load(state, { scenario, fromLink = false } = {}) {
    const full = this.pageState.withTies({ ...this.pageState.defaultState(), ...state });
    for (const k of COMPARE_KEYS) if (!fromLink) full[k] = this.state[k];
    this.controls = full;
    this.view.writeControls(full);
    this.fixedShown = null;
    this.renderPhase(full);
    this.view.renderVariantsOpen(this.pageState.hasVariant(full)); // a link, a tour, Reset: open with a variant
    if (scenario !== undefined) this.view.renderScenario(scenario);
    // The state as given (a number field cannot hold "abc"; the message should quote it).
    if (!this.apply(full) && !this.good) {
      // Nothing good yet (a bad link): draw the defaults, keep the error and the bad field shown.
      const keep = this.view.shownErrors();
      this.apply(this.pageState.defaultState(), { updateUrl: false });
      this.state = full;
      this.view.restoreErrors(keep);
      this.view.renderStatus(`The link's state is invalid (${keep.map((k) => k[1]).join('; ')}); showing the defaults.`, 'error');
    }
    if (fromLink) this.bus.emit('compare-state', this.state.compare, this.state['own-roof']);
  }

  // Compare mode changed by hand (compare.js): kept in the state and the link; nothing is
  // evaluated again (records.js draws the chart).
  setCompareState(value, ownRoof) {
    this.state = { ...this.state, compare: value, 'own-roof': !!ownRoof };
    if (this.good) this.good = { ...this.good, state: this.state };
    this.scheduleUrl(this.pageState.toFragment(this.state), false);
  }

  loadScenario(s) {
    this.load({ ...this.pageState.defaultState(), ...s.state }, { scenario: s });
  }

  // The fragment follows every change; while a slider is dragged it is written once the slider
  // rests for 150 ms, never in the input event (a history update costs milliseconds of main
  // thread, the slow moves of a drag in bench/page; browsers throttle them too). flush() writes a
  // pending one at once.
  scheduleUrl(frag, throttle) {
    this.pendingFrag = frag;
    clearTimeout(this.urlTimer);
    this.urlTimer = null;
    if (!throttle) this.writeUrl();
    else this.urlTimer = setTimeout(() => this.writeUrl(), 150);
  }

  writeUrl() {
    clearTimeout(this.urlTimer);
    this.urlTimer = null;
    const frag = this.pendingFrag;
    if (frag === undefined) return;
    this.pendingFrag = undefined;
    if (location.hash.replace(/^#/, '') !== frag) history.replaceState(null, '', frag ? `#${frag}` : location.pathname + location.search);
  }

  // Brings everything deferred up to date (the URL, an off-screen worked calculation).
  flush() {
    this.writeUrl();
    if (this.workedDirty) this.renderWorked();
  }

  // ---------------------------------------------------------------------------------------------
  // Rendering
  render() {
    const { resolved, result: r, rows, state } = this.good;
    const res = resolved;
    const m = this.model;
    const { roof, preset } = resolved;
    // Charts first: their layout reads come before the DOM below is changed.
    const ceilings = String(state.ceilings || '').split(',').filter(Boolean)
      .map((id) => m.peakKinds.find((k) => k.id === id))
      .filter((k) => k && preset.peaks[k.id] > 0)
      .map((k) => ({ id: k.id, name: k.name, peak: preset.peaks[k.id] }));
    const swept = this.pageState.sweptKey(state);
    const currentX = r[`problem.${m.field(swept).key}`];
    const kernel = m.kernels[res.params.kernel].name;
    const extras = { roofs: String(state.roofs || '').split(',').filter(Boolean), levels: state.levels === true, kernel };
    const views = buildViews(m, r, rows, roof, ceilings, swept, currentX, extras);
    this.roofline.update(views.roofline);
    this.sweepChart.update(views.sweep);
    this.renderLegend(views.roofline);
    // The worked calculation is long: while it is off screen it is written when it scrolls in.
    if (this.workedVisible === false) this.workedDirty = true;
    else this.renderWorked();
    const presetKey = `${preset.id}|${r['problem.dtype']}|${roof.peakName}`;
    if (presetKey !== this.presetKey) {
      this.presetKey = presetKey;
      this.view.renderPreset(this.presetViewModel(preset, roof));
    }
    // A tied field ('' in the state: 0 sent) shows what core resolved it to.
    const tied = [...Object.keys(this.pageState.ties).filter((k) => this.controls[k] === ''), ...this.pageState.derivedKeys(this.controls)];
    if (tied.length) this.view.writeControls(Object.fromEntries(tied.map((k) => [k, r[`problem.${m.field(k).key}`]])));
    const shape = m.shapes.find((x) => x.id === state.model && !x.unsupported) || null;
    this.view.renderModelInfo(shape, shape && !r['problem.window'] ? m.modelNote(shape.id, r['problem.kv_len']) : '');
    this.view.renderLayerKind(shape && shape.window > 0 ? { window: shape.window, local: r['problem.window'] === shape.window, allLocal: shape.localLayers >= shape.layers } : null);
    this.view.results.renderSummary(this.summaryCards(r, roof));
    this.view.results.renderModelTable(this.modelTable(r));
    this.view.renderKernelDescription(m.kernels[res.params.kernel].description);
    this.view.results.renderLedger(this.ledger(r, kernel, this.good.predError));
    this.view.results.renderBestTile(this.bestTile(res, kernel));
    this.bus.emit('rendered', this.good); // the whole-layer view (layer-view.js)
  }

  // The predicted time's ledger: six terms that add up to it (seconds from core; the shares are
  // display percentages), or core's reason when the profile cannot predict.
  ledger(r, kernel, predError) {
    const m = this.model;
    if (!Number.isFinite(r['predicted.time_s'])) return { kernel, unavailable: predError ? predError.message : 'the profile cannot predict this problem' };
    const total = r['predicted.time_s'];
    const n = (testid, value, text) => ({ testid, value, text });
    const limit = m.limits[r['predicted.limit']];
    const on = (k) => r[`predicted.${k}`] === 1;
    const band = r['predicted.interval_s.0'] > 0 // NaN (no value) below core's minimum of held-out points
      ? `likely ${m.format(r['predicted.interval_s.0'], 's', { sig: 3 })}–${m.format(r['predicted.interval_s.1'], 's', { sig: 3 })} (held-out error on ${this.fmt.int(r['predicted.interval_points'])} published points)`
      : `no likely range (${this.fmt.int(r['predicted.interval_points'])} held-out point${r['predicted.interval_points'] === 1 ? '' : 's'})`;
    const facts = [
      band,
      `tile ${this.fmt.int(r['predicted.tile.block_m'])} × ${this.fmt.int(r['predicted.tile.block_n'])}${on('tile.fitted_to_shared_memory') ? ' (the largest that fits the shared memory; the problem\'s tile does not)' : ''}`,
      `${this.fmt.int(r['predicted.tile.ctas_per_sm'])} CTA/SM`,
      `${this.fmt.int(r['predicted.ctas'])} CTAs`,
      `${m.format(r['predicted.waves'], '', { sig: 4 })} waves`,
      ...(r['predicted.tile.splits'] > 1 ? [`${this.fmt.int(r['predicted.tile.splits'])} KV splits`] : []),
      on('tile.gqa_packed') ? 'GQA packed' : 'K/V per head',
      ...(on('tile.persistent') ? ['persistent'] : []),
      on('tile.exp_serialised') ? 'exp serialised with the MMA' : 'exp overlapped',
      `DRAM ${m.format(r['predicted.levels.dram.bytes'], 'B')}, L2 ${m.format(r['predicted.levels.l2.bytes'], 'B')}`,
    ].join(' · ');
    return {
      kernel,
      unavailable: null,
      head: [n('predicted-time_s', total, m.format(total, 's')), n('predicted-flops_per_s', r['predicted.flops_per_s'], m.format(r['predicted.flops_per_s'], 'FLOP/s')),
        n('predicted-limit', limit, limitText(limit))],
      facts,
      terms: m.terms.map((t) => {
        const v = r[`predicted.terms.${t}`];
        const share = total > 0 ? v / total : 0;
        return { name: t, number: n(`predicted-terms-${t}`, v, m.format(v, 's')), share, shareText: `${(100 * share).toFixed(1)} %`, note: m.termNotes[t] || '' };
      }),
    };
  }

  // The generic profile's tile search: the best Br × Bc (and split for decode) and the next few
  // distinct tiles with the ledger term each loses on. null for the other profiles.
  bestTile(res, kernel) {
    const m = this.model;
    if (kernel !== m.kernels[0].name || !(res.preset && res.preset.id !== 'custom')) return null;
    const t = m.tune(res.params, m.tuneMax);
    if (!t.ok || !t.rows.length) return t.ok ? { best: null, runners: [], value: '' } : null;
    const decode = this.pageState.isDecode(this.good.state);
    const [best, ...rest] = t.rows;
    const tile = (c) => `${c.block_m}×${c.block_n}${decode ? `, ${c.splits} split${c.splits === 1 ? '' : 's'}` : ''}`;
    const seen = new Set([`${best.block_m}x${best.block_n}`]);
    const runners = [];
    for (const c of rest) {
      const k = `${c.block_m}x${c.block_n}`;
      if (seen.has(k) && !decode) continue;
      seen.add(k);
      runners.push(c);
      if (runners.length === 3) break;
    }
    const lose = (c) => (c.loses_on >= 0 ? `loses on ${m.terms[c.loses_on]}` : 'a tie');
    const cand = (c) => ({
      tile: tile(c), time: { testid: '', value: c.time_s, text: m.format(c.time_s, 's') },
      sram: m.format(c.sram_bytes, 'B', { iec: true }), waves: m.format(c.waves, '', { sig: 4 }), lose: lose(c),
    });
    const b = cand(best);
    b.time.testid = 'best-tile-time';
    return { best: b, runners: runners.map(cand), value: `${best.block_m}x${best.block_n}x${best.splits}` };
  }

  renderWorked() {
    const { resolved, result, predError } = this.good;
    const pred = { kernel: this.model.kernels[resolved.params.kernel].name, error: predError ? predError.message : null };
    this.view.renderWorked(workedHtml(this.model, result, resolved.roof, resolved.preset, pred));
    this.workedDirty = false;
  }

  renderLegend(v) {
    // The legend describes what is drawn: rewritten only when its text changes.
    // record, file and device names in it are shown as the CLI prints them (core's escaper)
    const items = legendItems(v, this.measured, this.model, this.pageState.sweepRange(this.good.state))
      .map(([k, t, c]) => [k, this.model.escapeText(t), c]);
    const key = JSON.stringify(items);
    if (key === this.legendKey) return;
    this.legendKey = key;
    this.view.renderLegend(items);
  }

  presetViewModel(preset, roof) {
    const m = this.model;
    const n = (testid, value, text) => ({ testid, value, text });
    const pk = preset.peaks[roof.peakKind.id];
    return {
      ceilings: m.peakKinds.map((k) => ({
        id: k.id, available: preset.peaks[k.id] > 0,
        title: preset.peaks[k.id] > 0 ? m.format(preset.peaks[k.id], 'FLOP/s') : `${preset.id} has no such figure`,
      })),
      // Placeholders show the preset's figures the empty unit fields stand for.
      bandwidthPlaceholder: preset.bandwidth > 0 ? m.format(preset.bandwidth, 'B/s') : 'e.g. 3.35 TB/s',
      peakPlaceholder: pk > 0 ? `${m.format(pk, 'FLOP/s')} (${roof.peakName})` : 'e.g. 989 TFLOP/s',
      info: preset.id === 'custom' ? null : {
        arch: preset.arch, source: preset.source, sourceDate: preset.sourceDate, notes: preset.notes,
        bandwidth: n('preset-bandwidth', preset.bandwidth, m.format(preset.bandwidth, 'B/s')),
        sms: n('preset-sms', preset.sms, this.fmt.int(preset.sms)),
        smemDefault: n('preset-smem-default', preset.smemPerBlockDefault, m.format(preset.smemPerBlockDefault, 'B', { iec: true })),
        smemOptin: n('preset-smem-optin', preset.smemPerBlockOptin, m.format(preset.smemPerBlockOptin, 'B', { iec: true })),
        l2: n('preset-l2', preset.l2, m.format(preset.l2, 'B', { iec: true })),
      },
    };
  }

  summaryCards(r, roof) {
    const m = this.model;
    const card = (testid, label, value, text) => ({ label, number: { testid, value, text } });
    const fits = r['sram.fits_default'] ? 'fits' : (r['sram.fits_optin'] ? 'opt-in' : 'does not fit');
    return [
      card('flops', 'FLOPs F', r.flops, m.format(r.flops, 'FLOP')),
      card('pairs', 'scored pairs P', r.pairs, this.fmt.int(r.pairs)),
      card('softmax_flops', 'softmax FLOPs (not in F)', r.softmax_flops, m.format(r.softmax_flops, 'FLOP')),
      card('bandwidth_bytes_per_s', 'bandwidth β', r.bandwidth_bytes_per_s, m.format(r.bandwidth_bytes_per_s, 'B/s')),
      card('peak_flops_per_s', `peak π (${roof.peakName})`, r.peak_flops_per_s, m.format(r.peak_flops_per_s, 'FLOP/s')),
      card('ridge_flop_per_byte', 'ridge I* = π/β', r.ridge_flop_per_byte, m.format(r.ridge_flop_per_byte, 'FLOP/B')),
      ...(Number.isFinite(r['models.tiled.bytes'])
        ? [card('models-tiled-kv_reload_factor', 'tiled K/V reads (× L)', r['models.tiled.kv_reload_factor'], m.format(r['models.tiled.kv_reload_factor'], '', { sig: 6 }))]
        : []),
      card('sram-total_bytes', `SRAM per tile (${fits})`, r['sram.total_bytes'], m.format(r['sram.total_bytes'], 'B', { iec: true })),
    ];
  }

  // The numbers table: one row per output of core's report table (models.M.SLOT), each cell's
  // test id the output's name with '.' → '-' (models-tiled-bytes).
  modelTable(r) {
    const m = this.model;
    const id = (x, slot) => `models-${x}-${slot}`;
    const row = (label, slot, cell) => ({
      label,
      cells: m.models.map((x) => (Number.isFinite(r[`models.${x}.bytes`]) ? cell(x) : { testid: id(x, slot), value: '', text: 'not modelled' })),
    });
    const q = (slot, unit) => (x) => ({ testid: id(x, slot), value: r[`models.${x}.${slot}`], text: m.format(r[`models.${x}.${slot}`], unit) });
    return {
      models: m.models,
      rows: [
        row('bytes', 'bytes', (x) => ({ testid: id(x, 'bytes'), value: r[`models.${x}.bytes`], text: this.fmt.bytes(r[`models.${x}.bytes`]) })),
        row('intensity', 'intensity_flop_per_byte', q('intensity_flop_per_byte', 'FLOP/B')),
        row('attainable', 'attainable_flops_per_s', q('attainable_flops_per_s', 'FLOP/s')),
        row('bound time', 'time_s', q('time_s', 's')),
        row('bound', 'bound', (x) => {
          const b = m.bounds[r[`models.${x}.bound`]];
          return { testid: id(x, 'bound'), value: b, text: b, boundClass: b };
        }),
      ],
    };
  }

  // ---------------------------------------------------------------------------------------------
  async copyLink() {
    if (this.bus.emit('copy-link')) return; // share.js: the link with the records that fit
    const url = location.href;
    const ok = await copyText(url);
    this.view.renderLinkStatus(ok ? 'Link copied.' : `Copy this link: ${url}`, url);
  }

  exportCsv() {
    if (this.bus.emit('export-csv')) return; // exports.js: with the measured points' columns
    const rows = [...this.roofline.csvRows(), ...this.sweepChart.csvRows()];
    download(csvBlob(['chart', 'series', 'x', 'y', 'x_unit', 'y_unit', 'swept_value'], rows), 'rooflab-points.csv');
  }

  async exportPng(which) {
    if (this.bus.emit('export-png', which)) return; // exports.js: with the legend and the whole link
    const chart = which === 'sweep' ? this.sweepChart.chart : this.roofline.chart;
    this.flush(); // the link in the caption is the state shown
    download(await chartPng(chart, this.caption()), `rooflab-${which}.png`);
  }

  // The exported figure's caption: the problem, the hardware, the date, the link.
  caption() {
    const { state, resolved, result: r } = this.good;
    const m = this.model;
    const p = (k) => this.fmt.int(r[`problem.${m.field(k).key}`]);
    const decode = this.pageState.isDecode(state);
    const shape = m.shapes.find((x) => x.id === state.model);
    const problem = [decode ? 'decode' : 'prefill', ...(shape ? [shape.name] : []), `B ${p('batch')}`, `H ${p('heads')}`,
      `Hkv ${p('kv-heads')}`, `N ${p('seq')}`, `L ${p('kv-len')}`, `d ${p('head-dim')}`, m.dtypes[r['problem.dtype']].name,
      ...(r['problem.causal'] ? ['causal'] : []), m.passes[r['problem.pass']] || ''].filter(Boolean).join(' · ');
    const { roof, preset } = resolved;
    const hw = `${preset.id === 'custom' ? 'custom' : preset.name}: β ${m.format(roof.bandwidth, 'B/s')}, π ${m.format(roof.peak, 'FLOP/s')} (${roof.peakName})`;
    return [`rooflab ${m.version} — ${problem}`, `${hw} — ${new Date().toISOString().slice(0, 10)}`, location.href];
  }
}
