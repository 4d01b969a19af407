// practice.js — the practice mode: an exercise drawn by core from a seed (the same as
// `rooflab quiz --seed N`), answered with units and checked by core (value, dimension, the step a
// slip departs from). This file only renders and handles input: the question, the verdict, the
// solution and every rule come from C through model.js.
//
// The problem is shown in words, not set on the page's controls: the page's numbers would give
// the answer away. After answering, "Show on the chart" loads it into the page (the URL fragment).
// The seed is in the URL query (?practice=SEED, &practice-kind=KIND), so a link shares the exercise.
// The score lives in localStorage under SCORE_KEY, validated on restore; a corrupt entry is dropped
// with a message.

import { getSetting, setSetting, removeSetting } from './storage.js';
import { $ } from './dom.js';

export const SCORE_KEY = 'rooflab.practice.v1';
const SCORE_MAX = 1e9;

// A stored score → { ok: true, score: { right, tried } } | { ok: false, reason }. Pure.
export function parseScore(value) {
  if (value === null || value === undefined) return { ok: true, score: { right: 0, tried: 0 } };
  let o;
  try { o = JSON.parse(value); } catch { return { ok: false, reason: 'not JSON' }; }
  if (!o || typeof o !== 'object' || Array.isArray(o) || o.v !== 1) return { ok: false, reason: 'not a version 1 score' };
  const whole = (x) => Number.isInteger(x) && x >= 0 && x <= SCORE_MAX;
  if (!whole(o.right) || !whole(o.tried)) return { ok: false, reason: 'counts are not whole numbers' };
  if (o.right > o.tried) return { ok: false, reason: 'more right than tried' };
  return { ok: true, score: { right: o.right, tried: o.tried } };
}

export const scoreText = ({ right, tried }) => `Score: ${right} / ${tried} right first time`;

function randomSeed() {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return a[0];
}

export class Practice {
  constructor(model, doc = document) {
    this.model = model;
    this.el = {
      panel: $('practice', doc), open: $('practice-open', doc), close: $('practice-close', doc), kind: $('practice-kind', doc),
      setup: $('practice-setup', doc), question: $('practice-question', doc), form: $('practice-form', doc),
      answer: $('practice-answer', doc), verdict: $('practice-verdict', doc), solution: $('practice-solution', doc),
      solutionBox: $('practice-solution-box', doc), next: $('practice-next', doc), score: $('practice-score', doc),
      seed: $('practice-seed', doc), note: $('practice-note', doc), show: $('practice-show', doc),
    };
    this.q = null;
    this.counted = new Set(); // exercises (seed/kind) whose first judged answer is in the score
    this.score = this.restoreScore();
    this.fillKinds();
    this.bind();
    this.renderScore();
  }

  restoreScore() {
    const r = parseScore(getSetting(SCORE_KEY));
    if (r.ok) return r.score;
    removeSetting(SCORE_KEY);
    this.showNote(`The saved practice score could not be read (${r.reason}); it was dropped and the score starts again.`);
    return { right: 0, tried: 0 };
  }

  saveScore() {
    const r = setSetting(SCORE_KEY, JSON.stringify({ v: 1, ...this.score }));
    if (!r.ok) this.showNote(`The score is not kept after a reload: ${r.text}.`);
  }

  showNote(text) {
    this.el.note.textContent = this.model.escapeText(text); // a seed from the link is quoted in it
    this.el.note.hidden = !text;
  }

  fillKinds() {
    const labels = { any: 'any question', flops: 'FLOPs', bytes: 'bytes', intensity: 'intensity', ridge: 'ridge', time: 'bound time', regime: 'regime', 'gemm-intensity': 'a GEMM’s intensity (the output projection)', 'norm-intensity': 'an element-wise op’s intensity (RMSNorm)', 'softmax-intensity': 'a fused softmax + scale’s intensity' };
    this.el.kind.replaceChildren(...this.model.quizKinds.map((k) => new Option(labels[k] || k, k)));
  }

  bind() {
    const { el } = this;
    el.open.addEventListener('click', () => (el.panel.hidden ? this.open(this.q ? this.q.seed : randomSeed()) : this.close()));
    el.close.addEventListener('click', () => this.close());
    el.form.addEventListener('submit', (e) => { e.preventDefault(); this.check(); });
    el.next.addEventListener('click', () => this.draw(randomSeed(), { focus: true }));
    el.kind.addEventListener('change', () => this.draw(this.q ? this.q.seed : randomSeed(), { focus: false }));
    el.show.addEventListener('click', () => this.showOnChart());
    el.panel.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') { e.preventDefault(); this.close(); }
    });
  }

  // From the URL query: ?practice=SEED opens the panel on that exercise.
  restore(search) {
    const params = new URLSearchParams(search);
    if (!params.has('practice')) return;
    const kind = params.get('practice-kind');
    if (kind && this.model.quizKinds.includes(kind)) this.el.kind.value = kind;
    const r = this.model.parseQuizSeed(params.get('practice'));
    if (!r.ok) this.showNote(`${r.message} — a new exercise was drawn instead.`);
    this.open(r.ok ? r.seed : randomSeed(), { focus: false });
    this.el.panel.scrollIntoView({ block: 'start' });
  }

  open(seed, { focus = true } = {}) {
    this.el.panel.hidden = false;
    this.el.open.setAttribute('aria-expanded', 'true');
    this.draw(seed, { focus });
  }

  close() {
    this.el.panel.hidden = true;
    this.el.open.setAttribute('aria-expanded', 'false');
    this.writeUrl(null);
    this.el.open.focus();
  }

  draw(seed, { focus = true } = {}) {
    const q = this.model.drawQuiz(seed, this.el.kind.value || 'any');
    if (!q.ok) {
      this.showNote(q.message);
      return;
    }
    this.q = q;
    const { el } = this;
    el.setup.textContent = q.setup;
    el.question.textContent = q.question;
    el.seed.textContent = `Exercise ${q.seed}`;
    el.panel.dataset.seed = String(q.seed);
    el.panel.dataset.kind = q.kind;
    el.answer.value = '';
    el.answer.placeholder = q.unit ? 'a number with its unit' : 'memory or compute';
    el.answer.removeAttribute('aria-invalid');
    el.verdict.textContent = '';
    el.verdict.className = 'practice-verdict';
    el.solution.replaceChildren(...q.steps.map((s) => Object.assign(document.createElement('li'), { textContent: s })));
    el.solutionBox.open = false;
    el.show.hidden = true;
    this.writeUrl(q);
    if (focus) el.answer.focus();
  }

  check() {
    if (!this.q) return;
    const { el } = this;
    const v = this.model.checkQuiz(this.q, el.answer.value);
    el.verdict.textContent = this.model.escapeText(v.text); // it quotes the answer: named, never rendered
    el.verdict.className = `practice-verdict ${v.outcome}`;
    el.verdict.dataset.outcome = v.outcome;
    el.verdict.dataset.slip = v.slip;
    el.answer.setAttribute('aria-invalid', v.outcome === 'right' ? 'false' : 'true');
    if (v.outcome === 'unreadable') return; // not counted: the answer could not be read
    const id = `${this.q.seed}/${this.q.kind}`;
    if (!this.counted.has(id)) {
      this.counted.add(id);
      this.score = { right: this.score.right + (v.outcome === 'right' ? 1 : 0), tried: this.score.tried + 1 };
      this.saveScore();
      this.renderScore();
    }
    el.show.hidden = false;
    if (v.outcome === 'right') {
      el.solutionBox.open = true;
      el.next.focus();
    }
  }

  renderScore() {
    this.el.score.textContent = scoreText(this.score);
    this.el.score.dataset.right = String(this.score.right);
    this.el.score.dataset.tried = String(this.score.tried);
  }

  writeUrl(q) {
    const url = new URL(location.href);
    if (q) {
      url.searchParams.set('practice', String(q.seed));
      if (this.el.kind.value && this.el.kind.value !== 'any') url.searchParams.set('practice-kind', this.el.kind.value);
      else url.searchParams.delete('practice-kind');
    } else {
      url.searchParams.delete('practice');
      url.searchParams.delete('practice-kind');
    }
    history.replaceState(history.state, '', url);
  }

  // The exercise's problem into the page's controls, through the page's own URL state.
  showOnChart() {
    const { q, model } = this;
    const p = q.problem;
    const frag = new URLSearchParams();
    for (const key of ['batch', 'heads', 'kv-heads', 'seq', 'kv-len', 'head-dim']) frag.set(key, String(p[key]));
    frag.set('dtype', model.dtypes[p.dtype].name);
    frag.set('hw', q.hw);
    location.hash = frag.toString();
  }
}

// Started by main.js with the page's own model (one WASM instance for the page).
export function startPractice(model) {
  if (typeof document === 'undefined' || !document.getElementById('practice')) return null;
  const practice = new Practice(model);
  practice.restore(location.search);
  window.rooflabPractice = practice; // for tests
  document.documentElement.dataset.practiceReady = '1';
  return practice;
}
