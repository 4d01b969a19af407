// tour.js — the guided tours (scenarios.js) docked beside the roofline: each step sets the state
// through the controller, rings the marks to look at (the chart's annotation plugin), thickens
// the ridge, highlights a row of the worked calculation (and shows a copy of it in the panel), and
// draws the previous step's roof and marks faintly (the ghost) so before and after are both in
// view. Next / Back, ← → and Escape while the panel has focus, a URL per step
// (?tour=ID&step=N before the state's fragment) restored on load, and a "start here" line on a
// first visit (remembered in localStorage). Numbers in the texts are the page's own (core's).
/* global Chart */
import { escapeHtml as esc } from './html.js';
import { withAlpha } from './chart-data.js';
import { getSetting, setSetting, removeSetting } from './storage.js';
import { $ } from './dom.js';

const SEEN_KEY = 'rooflab.tour.seen';
const STYLE = { compulsory: 'circle', tiled: 'triangle', naive: 'rectRot' };
const RING_FONT = 12;

// Where a ring's label goes (issue 20, the phone): `dy` pixels above (< 0) or below the mark, on
// the other side when that side leaves the chart area, and the label's box kept inside the chart
// area (a mark near an edge of a 390 px wide chart had its name drawn off the canvas). Returns
// chart → { x, y } in data values (the annotation plugin's xValue / yValue, asked at each layout).
function ringLabelAt(p, dy, text) {
  return (chart) => {
    const { chartArea: a, scales: { x: sx, y: sy }, ctx } = chart;
    if (!a || !sx || !sy) return { x: p.x, y: p.y };
    ctx.save();
    ctx.font = `bold ${RING_FONT}px ${Chart.defaults.font.family}`;
    const halfW = ctx.measureText(text).width / 2 + 4; // the label's padding (2) and border
    ctx.restore();
    const halfH = RING_FONT * 0.6 + 4;
    const clamp = (v, lo, hi) => (lo > hi ? (lo + hi) / 2 : Math.min(Math.max(v, lo), hi));
    const px = sx.getPixelForValue(p.x);
    const py = sy.getPixelForValue(p.y);
    const fits = (y) => y - halfH >= a.top && y + halfH <= a.bottom;
    const ly = fits(py + dy) || !fits(py - dy) ? py + dy : py - dy;
    return { x: sx.getValueForPixel(clamp(px, a.left + halfW, a.right - halfW)), y: sy.getValueForPixel(clamp(ly, a.top + halfH, a.bottom - halfH)) };
  };
}

export class Tour {
  // app: the Controller; scenarios: scenarios.js's list (the first is the "start here" tour).
  constructor(app, scenarios) {
    this.app = app;
    this.scenarios = scenarios;
    this.tour = null; // the scenario being toured
    this.step = 0; // 0-based
    this.ghost = null; // the previous step's marks: { roofLine, points, predicted, ridge }
    this.look = null;
    this.panel = $('tour-panel');
    this.chartBox = this.panel.closest('section');
    $('tour-next').addEventListener('click', () => (this.step + 1 < this.tour.steps.length ? this.go(this.step + 1) : this.close()));
    $('tour-back').addEventListener('click', () => this.go(this.step - 1));
    $('tour-close').addEventListener('click', () => this.close());
    this.panel.addEventListener('keydown', (e) => this.onKey(e));
    $('scenario-text').addEventListener('click', (e) => {
      const b = e.target.closest('button[data-step]');
      if (b && this.tour) this.go(Number(b.dataset.step));
    });
    $('action-reset').addEventListener('click', () => this.close({ keepState: true }));
    // A control changed by hand: the state is no longer the step's, so the URL drops the step.
    for (const type of ['input', 'change']) $('controls').addEventListener(type, () => this.detach());
    this.initStartHere();
  }

  // ---------------------------------------------------------------------------------------------
  // "Start here": shown until a tour is started or the line dismissed. The stored value must be
  // exactly '1'; anything else is removed and the line shown again.
  initStartHere() {
    const v = getSetting(SEEN_KEY); // null also when storage cannot be read (storage.js says so)
    if (v !== null && v !== '1') removeSetting(SEEN_KEY);
    const first = this.scenarios[0];
    $('tour-start-first').textContent = `Start here: ${first.title} →`;
    $('tour-start-first').addEventListener('click', () => this.start(first.id));
    $('tour-start-dismiss').addEventListener('click', () => this.markSeen());
    $('tour-start-here').hidden = v === '1';
  }

  markSeen() {
    setSetting(SEEN_KEY, '1'); // storage full or refused: shown again next time (storage.js says why)
    $('tour-start-here').hidden = true;
  }

  // ---------------------------------------------------------------------------------------------
  // Navigation
  start(id, step = 0, { focus = true } = {}) {
    const s = this.scenarios.find((x) => x.id === id);
    if (!s) return false;
    this.tour = s;
    this.markSeen();
    for (const b of document.querySelectorAll('#scenario-buttons button')) b.setAttribute('aria-pressed', String(b.dataset.scenario === id));
    this.go(Math.min(Math.max(0, step), s.steps.length - 1), { focus });
    return true;
  }

  // The state of step i: the defaults, the tour's state, then every step's `set` up to i, then
  // `extra` (a question's `at`: a state the text does not give).
  stateAt(i, extra = {}) {
    const ps = this.app.pageState;
    const given = { ...this.tour.state };
    for (const st of this.tour.steps.slice(0, i + 1)) Object.assign(given, st.set || {});
    Object.assign(given, extra);
    return { ...ps.defaultState(), ...given }; // a tied field it does not name follows its partner (core's tie)
  }

  go(i, { focus = false } = {}) {
    const app = this.app;
    this.step = i;
    this.look = null;
    this.ghost = null;
    app.roofline.overlay = null;
    if (i > 0) {
      // The previous step's marks, computed afresh so a step restored from a URL has its ghost.
      app.load(this.stateAt(i - 1));
      const v = app.roofline.view;
      this.ghost = { roofLine: v.roofLine, points: v.points, predicted: v.predicted, ridge: v.ridge };
    }
    this.look = this.tour.steps[i].look || {};
    app.roofline.overlay = (view, colors) => this.overlay(view, colors);
    app.load(this.stateAt(i));
    app.flush();
    this.render();
    this.writeUrl();
    this.chartBox.classList.add('touring');
    this.panel.hidden = false;
    this.ensureChartInView();
    if (focus) this.panel.focus({ preventScroll: true });
  }

  close({ keepState = true } = {}) {
    if (!this.tour) return;
    const back = document.querySelector(`#scenario-buttons button[data-scenario="${this.tour.id}"]`);
    const hadFocus = this.panel.contains(document.activeElement);
    this.tour = null;
    this.look = null;
    this.ghost = null;
    this.panel.hidden = true;
    this.chartBox.classList.remove('touring');
    for (const el of document.querySelectorAll('#worked .tour-hl')) el.classList.remove('tour-hl');
    const r = this.app.roofline;
    r.overlay = null;
    if (keepState && r.view) r.fullUpdate(r.view);
    for (const b of document.querySelectorAll('#scenario-buttons button')) b.setAttribute('aria-pressed', 'false');
    $('scenario-text').replaceChildren();
    this.detach();
    if (hadFocus && back) back.focus({ preventScroll: true });
  }

  onKey(e) {
    if (!this.tour || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape') { e.preventDefault(); this.close(); return; }
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    if (e.key === 'ArrowRight' && this.step + 1 < this.tour.steps.length) this.go(this.step + 1);
    else if (e.key === 'ArrowLeft' && this.step > 0) this.go(this.step - 1);
    else return;
    e.preventDefault();
  }

  // ---------------------------------------------------------------------------------------------
  // URL: ?tour=ID&step=N (1-based) before the state's #fragment, which the controller writes.
  writeUrl() {
    const frag = this.app.pageState.toFragment(this.app.state);
    const q = new URLSearchParams({ tour: this.tour.id, step: String(this.step + 1) });
    history.replaceState(null, '', `${location.pathname}?${q}${frag ? `#${frag}` : ''}`);
    this.panel.dataset.detached = '0';
  }

  detach() {
    if (this.tour) this.panel.dataset.detached = '1';
    const q = new URLSearchParams(location.search);
    if (!q.has('tour') && !q.has('step')) return;
    q.delete('tour');
    q.delete('step');
    const rest = q.toString();
    history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
  }

  // A tour and step from the query string (an unknown tour is ignored, a step out of range is
  // brought into range). Returns whether a tour started.
  restore(search) {
    const q = new URLSearchParams(search);
    const id = q.get('tour');
    if (!id) return false;
    const n = Number.parseInt(q.get('step') || '1', 10);
    return this.start(id, Number.isFinite(n) ? n - 1 : 0, { focus: false });
  }

  // The chart's section at the top of the window: the chart, and beside or under it the panel.
  ensureChartInView() {
    if (Math.abs(this.chartBox.getBoundingClientRect().top) > 2) this.chartBox.scrollIntoView({ block: 'start' });
  }

  // ---------------------------------------------------------------------------------------------
  // The chart overlay (charts.js calls it on every full update while a tour is open): the ghost
  // of the previous step and the rings around the marks to look at.
  overlay(view, colors) {
    const hl = getComputedStyle(document.documentElement).getPropertyValue('--tour-hl').trim() || colors.predicted;
    const datasets = [];
    const annotations = {};
    const points = [];
    const g = this.ghost;
    if (g) {
      datasets.push({
        label: 'previous step (faint)', rlKind: 'ghost', rlId: 'ghost-roof', data: g.roofLine, showLine: true,
        borderColor: withAlpha(colors.roof, 0.3), backgroundColor: withAlpha(colors.roof, 0.3), borderWidth: 2, borderDash: [5, 5],
        pointRadius: 0, pointHitRadius: 0, order: 6,
      });
      const marks = [...g.points, ...(g.predicted ? [{ ...g.predicted, model: 'predicted' }] : [])];
      for (const p of marks) {
        const color = p.model === 'predicted' ? colors.predicted : colors[p.model];
        datasets.push({
          label: `${p.model} (previous step)`, rlKind: 'ghost', rlId: `ghost-${p.model}`, rlHideInLegend: true, data: [p],
          pointStyle: STYLE[p.model] || 'star', pointRadius: 8, borderColor: withAlpha(color, 0.45), borderWidth: 1.5,
          backgroundColor: withAlpha(color, 0.2), order: 4,
        });
        points.push(p);
      }
      if (g.ridge !== view.ridge) {
        annotations.tourGhostRidge = { type: 'line', xMin: g.ridge, xMax: g.ridge, borderColor: withAlpha(colors.ridge, 0.5), borderWidth: 1, borderDash: [1, 4] };
      }
    }
    const look = this.look || {};
    for (const m of look.marks || []) {
      const p = m === 'predicted' ? view.predicted : view.points.find((x) => x.model === m);
      if (!p) continue;
      annotations[`tourMark-${m}`] = { type: 'point', xValue: p.x, yValue: p.y, radius: 15, borderColor: hl, borderWidth: 3, backgroundColor: 'rgba(0,0,0,0)' };
      const at = ringLabelAt(p, look.marks.indexOf(m) % 2 ? 30 : -30, m);
      annotations[`tourLabel-${m}`] = {
        type: 'label', xValue: (c) => at(c.chart).x, yValue: (c) => at(c.chart).y, content: m, color: hl,
        backgroundColor: colors.bg, font: { size: RING_FONT, weight: 'bold' }, padding: 2,
      };
    }
    if (look.ridge) annotations.tourRidge = { type: 'line', xMin: view.ridge, xMax: view.ridge, borderColor: hl, borderWidth: 3 };
    this.panel.dataset.ghost = g ? 'on' : 'off';
    this.panel.dataset.highlight = Object.keys(annotations).filter((k) => k.startsWith('tourMark') || k === 'tourRidge').join(' ');
    return { datasets, annotations, points };
  }

  // ---------------------------------------------------------------------------------------------
  // The panel: title, counter, the step's text with the page's numbers, the worked calculation's
  // row, the question; and the tour's outline in the scenarios section.
  render() {
    const s = this.tour;
    const st = s.steps[this.step];
    const n = s.steps.length;
    $('tour-title').textContent = s.title;
    $('tour-counter').textContent = `${this.step + 1} / ${n}`;
    $('tour-step').innerHTML = (this.step === 0 ? `<span class="tour-intro">${esc(s.intro)}</span> ` : '') +
      `<strong>${esc(st.title)}.</strong> ${this.fill(st.text)}`;
    $('tour-back').disabled = this.step === 0;
    $('tour-next').textContent = this.step + 1 < n ? 'Next →' : 'Finish';
    this.panel.dataset.value = `${s.id}:${this.step + 1}`;
    this.panel.scrollTop = 0;
    this.renderRow(st.look && st.look.row);
    this.renderQuestion(st.question);
    const outline = document.createElement('ol');
    s.steps.forEach((x, i) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'link';
      b.dataset.step = String(i);
      b.textContent = x.title;
      if (i === this.step) b.setAttribute('aria-current', 'step');
      li.append(b);
      outline.append(li);
    });
    const h = document.createElement('h3');
    h.textContent = s.title;
    const intro = document.createElement('p');
    intro.textContent = s.intro;
    const box = $('scenario-text');
    box.dataset.value = s.id;
    box.replaceChildren(h, intro, outline);
  }

  // The shown number with that testid (outside the panel): [value, text] or null.
  number(id, unit) {
    const el = [...document.querySelectorAll(`[data-testid="${CSS.escape(id)}"]`)].find((e) => !this.panel.contains(e));
    if (!el) return null;
    const value = el.dataset.value;
    return [value, unit === undefined ? el.textContent : this.app.model.format(Number(value), unit)];
  }

  // A step's text: escaped, each {testid} or {testid|unit} replaced by the page's number.
  fill(text) {
    return esc(text).replace(/\{([a-z0-9_-]+)(?:\|([^}]*))?\}/g, (all, id, unit) => {
      const v = this.number(id, unit);
      if (!v) return `<span class="num" data-src="${id}" data-missing="1">?</span>`;
      return `<span class="num" data-src="${id}" data-value="${esc(v[0])}">${esc(v[1])}</span>`;
    });
  }

  renderRow(id) {
    for (const el of document.querySelectorAll('#worked .tour-hl')) el.classList.remove('tour-hl');
    const box = $('tour-look');
    box.replaceChildren();
    box.hidden = !id;
    const row = id && document.querySelector(`#worked [data-row="${CSS.escape(id)}"]`);
    if (!row) return;
    const folded = row.closest('details');
    if (folded && !folded.open) folded.open = true; // a row of part 2 (predicting a real kernel)
    row.classList.add('tour-hl');
    const copy = row.cloneNode(true);
    for (const el of copy.querySelectorAll('[data-testid],[id]')) { el.removeAttribute('data-testid'); el.removeAttribute('id'); }
    const head = document.createElement('p');
    head.className = 'hint';
    head.textContent = 'From the worked calculation (highlighted below the chart):';
    const body = document.createElement('div');
    body.className = 'tour-row';
    body.dataset.row = id;
    body.append(...copy.childNodes);
    box.append(head, body);
  }

  // The closing question, about a state the text does not give (`at`: changes on top of the
  // step's state, so its answer is not on the page). One that is an exercise kind of core (`pose`:
  // F, a traffic model's bytes, intensity, ridge, bound time, regime) is posed by core for that
  // state (model.poseQuiz) and the answer judged by core's checker (model.checkQuiz: right in any
  // unit within its tolerance, or wrong with the slip and the step it departs from). Any other
  // (`reveal`: a block count, an SRAM size, a kernel's prediction) is read by core's unit parser
  // (a count may carry its noun: "64 blocks") and shown in the question's unit beside the model's
  // value, with no verdict. The answer shown is core's evaluation of that state (`key`: the
  // evaluate() result it is). The feedback is styled as Practice's verdict (right / wrong /
  // unreadable; neutral when only shown or read).
  renderQuestion(q) {
    const box = $('tour-question');
    box.replaceChildren();
    box.hidden = !q;
    if (!q) return;
    box.innerHTML = `<p><strong>Check yourself:</strong> ${esc(q.text)}</p>` +
      '<div class="tour-answer"><input type="text" id="tour-answer" data-testid="tour-answer" spellcheck="false" aria-label="Your answer, with its unit">' +
      '<button type="button" id="tour-check" data-testid="tour-check">Check</button>' +
      '<button type="button" id="tour-reveal" data-testid="tour-reveal">Show the answer</button></div>' +
      '<p class="hint practice-verdict" id="tour-feedback" data-testid="tour-feedback" role="status" aria-live="polite"></p>';
    const posed = q.pose ? this.pose(q.pose, q.at) : null;
    const answer = () => (q.at ? this.answerAt(q) : this.number(q.answer, q.unit));
    // outcome: 'shown' (revealed), 'right' / 'wrong' / 'unreadable' (core's verdict), 'read' (no verdict).
    const say = (text, outcome, value = '', slip = '') => {
      const f = $('tour-feedback');
      f.textContent = this.app.model.escapeText(text); // it may quote the answer: named, never rendered
      f.className = `hint practice-verdict ${outcome}`;
      Object.assign(f.dataset, { outcome, value, slip });
    };
    $('tour-reveal').addEventListener('click', () => { const a = answer(); say(a ? `The model: ${a[1]}.` : '', 'shown', a ? a[0] : ''); });
    const check = () => {
      const typed = $('tour-answer').value;
      const m = this.app.model;
      if (posed) {
        const v = m.checkQuiz(posed, typed);
        say(v.text, v.outcome, v.outcome === 'unreadable' || v.slip === 'dimension' ? '' : String(v.answer), v.slip);
        return;
      }
      const a = answer();
      if (!a) return;
      const r = m.parseQuantity(typed, q.unit, 'answer');
      if (!r.ok) { say(r.message, 'unreadable'); return; }
      say(`You wrote ${m.format(r.value, q.unit)}; the model says ${a[1]}.`, 'read', String(r.value));
    };
    $('tour-check').addEventListener('click', check);
    $('tour-answer').addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); check(); } });
  }

  // The answer to a question `at` another state: core's evaluation of it, [value, text] or null.
  answerAt(q) {
    const r = this.app.pageState.resolve(this.stateAt(this.step, q.at));
    const ev = r.ok ? this.app.model.evaluate(r.params) : r;
    const v = ev.ok ? ev.r[q.key] : undefined;
    return Number.isFinite(v) ? [String(v), this.app.model.format(v, q.unit)] : null;
  }

  // Core's exercise for this step's state: { kind, model } → model.poseQuiz's question, or null
  // (then the question is checked as a `reveal` one).
  pose({ kind, model }, at = {}) {
    const state = this.stateAt(this.step, at);
    const r = this.app.pageState.resolve(state);
    if (!r.ok) return null;
    const roof = { hw: r.preset.id, bandwidth: state.bandwidth, peak: state.peak };
    const posed = this.app.model.poseQuiz(r.params, roof, kind, model);
    return posed.ok ? posed : null;
  }
}
