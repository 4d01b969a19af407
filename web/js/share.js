// share.js — links that carry the data, and the workspace file (issue 20 item 4; the formats are
// in CONTRACTS.md "Links with records and the workspace file").
//
// "Copy link" puts the shown records into the link when they fit: their texts (each exactly as
// loaded, checked again by core on the other side) as one JSON, compressed (CompressionStream
// 'deflate-raw', else 'gzip', else none) and base64url-encoded after `records=` in the fragment,
// the records part at most LINK_RECORDS_LIMIT characters. Records that do not fit are left out,
// named in the link (name, id, points) and in "Copy link"'s status, which then offers the
// workspace file: the page's state (the link's fragment) and every loaded record in one JSON,
// opened again by the picker or by dropping it on the page. A recipient is told when a link names
// records it does not have. Nothing here reads a record: every record goes through the records
// queue (core's checks); a malformed link or workspace is refused whole, naming the JSON path,
// and leaves what is loaded as it was.
//
//   const share = new Share({ model, app, records, bus })
//   share.openLink(hash)          a link's records= part (the hash as the page was opened with)
//   share.copyLink()              the link, with what fit, to the clipboard; the status says the rest
//   share.workspaceText()         the workspace file's text; share.openWorkspace(text, name)
//   isWorkspace(bytes)            a file's first bytes open a workspace (records.js asks)
import { download, copyText } from './io.js';
import { $ } from './dom.js';

export const LINK_RECORDS_LIMIT = 8000; // characters of the link's records= part (base64url)
export const WORKSPACE_KEY = 'rooflab_workspace'; // the workspace file's first key
export const WORKSPACE_VERSION = 1;
const MAX_TRIES = 64; // records tried one by one for the link (the rest are named as left out)
const plural = (n, w) => `${n.toLocaleString('en-US')} ${w}${n === 1 ? '' : 's'}`;

// bytes ↔ base64url (RFC 4648 §5, no padding)
function toBase64url(u8) {
  let s = '';
  for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function fromBase64url(text) {
  const bad = text.search(/[^A-Za-z0-9_-]/);
  if (bad >= 0) throw new Error(`not base64url: character ${bad + 1} is “${text[bad]}”`);
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const u8 = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) u8[i] = s.charCodeAt(i);
  return u8;
}

// The compressions a link may use, by the letter it starts with ('j': plain JSON).
const CODECS = { z: 'deflate-raw', g: 'gzip' };
async function pipe(u8, stream, limit = Infinity) {
  const reader = new Blob([u8]).stream().pipeThrough(stream).getReader();
  const parts = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > limit) { reader.cancel(); throw new Error(`larger than ${limit.toLocaleString('en-US')} bytes once decompressed`); }
    parts.push(value);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

// obj → 'z' + base64url(deflate-raw(JSON)) (or 'g' gzip, or 'j' plain where the browser has no
// CompressionStream of that kind).
export async function encodePayload(obj) {
  const u8 = new TextEncoder().encode(JSON.stringify(obj));
  for (const [letter, kind] of Object.entries(CODECS)) {
    try {
      if (typeof CompressionStream !== 'undefined') return letter + toBase64url(await pipe(u8, new CompressionStream(kind)));
    } catch (_) { /* this kind not supported: the next */ }
  }
  return `j${toBase64url(u8)}`;
}

// The reverse; throws Error naming what is wrong ("records: not base64url: …").
export async function decodePayload(text, limit) {
  const letter = text[0];
  if (!letter || !(letter in CODECS || letter === 'j')) throw new Error(`records: expected z, g or j first (the compression), got “${text.slice(0, 1)}”`);
  let u8;
  try {
    u8 = fromBase64url(text.slice(1));
    if (letter !== 'j') u8 = await pipe(u8, new DecompressionStream(CODECS[letter]), limit);
  } catch (e) {
    throw new Error(`records: ${/larger|base64url/.test(e.message) ? e.message : `not a ${CODECS[letter]} stream (${e.message})`}`);
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(u8));
  } catch (e) {
    throw new Error(`records: not JSON (${e.message})`);
  }
}

// The records list of a link or a workspace, checked for shape: [{ name, text }]
// or an Error naming the JSON path. (The texts are records' texts: core checks each as a file.)
export function readRecordList(list, path) {
  if (!Array.isArray(list)) throw new Error(`${path}: expected an array of records`);
  return list.map((r, i) => {
    const at = `${path}[${i}]`;
    if (!r || typeof r !== 'object' || Array.isArray(r)) throw new Error(`${at}: expected an object { name, text }`);
    if (typeof r.name !== 'string' || !r.name) throw new Error(`${at}.name: expected the record's file name (a non-empty string)`);
    if (typeof r.text !== 'string') throw new Error(`${at}.text: expected the record's JSON text (a string)`);
    return { name: r.name, text: r.text };
  });
}

function readLeft(list, path) {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new Error(`${path}: expected an array`);
  return list.map((r, i) => {
    if (!r || typeof r.name !== 'string' || typeof r.id !== 'string') throw new Error(`${path}[${i}]: expected { name, id, points }`);
    if (r.points !== undefined && !(Number.isInteger(r.points) && r.points >= 0)) throw new Error(`${path}[${i}].points: expected a count`);
    return { name: r.name, id: r.id, points: r.points || 0 };
  });
}

// A workspace file's text → { state, records } or an Error naming the JSON path.
export function readWorkspace(text) {
  let o;
  try {
    o = JSON.parse(text);
  } catch (e) {
    throw new Error(`not JSON (${e.message})`);
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw new Error('$: expected an object');
  if (o[WORKSPACE_KEY] !== WORKSPACE_VERSION) throw new Error(`$.${WORKSPACE_KEY}: expected ${WORKSPACE_VERSION}, got ${JSON.stringify(o[WORKSPACE_KEY])}`);
  if (typeof o.state !== 'string') throw new Error('$.state: expected the page\'s state as its link fragment (a string)');
  return { state: o.state, records: readRecordList(o.records, '$.records') };
}

// A file's first bytes say it is a workspace: its first key is WORKSPACE_KEY.
export function isWorkspace(bytes) {
  const head = new TextDecoder().decode(new Uint8Array(bytes, 0, Math.min(64, bytes.byteLength)));
  return new RegExp(`^\\uFEFF?\\s*\\{\\s*"${WORKSPACE_KEY}"\\s*:`).test(head);
}

export class Share {
  constructor({ model, app, records, bus }) {
    this.model = model;
    this.app = app;
    this.records = records;
    this.esc = (s) => model.escapeText(s);
    this.limit = model.recordLimits.max_file_bytes; // a decompressed link: one file's limit
    bus.on('copy-link', () => { this.copyLink(); return true; });
    records.openWorkspace = (bytes, name) => this.openWorkspace(new TextDecoder().decode(bytes), name);
    $('action-save-workspace').addEventListener('click', () => this.saveWorkspace());
    const input = $('input-workspace');
    $('action-open-workspace').addEventListener('click', () => input.click());
    input.addEventListener('change', async () => {
      const file = input.files[0];
      input.value = '';
      if (file) await this.openWorkspace(await file.text(), file.name);
    });
    window.addEventListener('hashchange', (e) => this.openLink(new URL(e.newURL).hash)); // (the controller may rewrite the fragment first)
  }

  // The records a link or workspace carries: the loaded, shown ones (a link) or all loaded ones.
  loaded({ shown }) {
    return this.records.files.filter((f) => !f.pending && f.text && f.report && f.report.ok && (!shown || f.visible));
  }

  say(text, value) {
    const s = $('share-notice');
    s.textContent = this.esc(text);
    s.dataset.value = value;
    s.hidden = !text;
  }

  // The link: the state's fragment, then records=… with what fits (LINK_RECORDS_LIMIT), the rest
  // named in it; { url, put, left }.
  async link() {
    this.app.flush();
    const base = location.href.replace(/#.*$/, '');
    const state = this.app.pageState.toFragment(this.app.state);
    const files = this.loaded({ shown: true });
    const put = [];
    const left = [];
    let data = '';
    for (const [i, f] of files.entries()) {
      const entry = { name: f.name, text: f.text };
      if (i < MAX_TRIES) {
        const next = await encodePayload({ records: [...put.map((x) => x.entry), entry], left: [] });
        if (next.length <= LINK_RECORDS_LIMIT) {
          put.push({ f, entry });
          continue;
        }
      }
      left.push(f);
    }
    const leftOut = left.map((f) => ({ name: f.name, id: f.storeId, points: f.report.record.points.length }));
    if (put.length || left.length) data = await encodePayload({ records: put.map((x) => x.entry), left: leftOut });
    const url = data ? `${base}#${[state, `records=${data}`].filter(Boolean).join('&')}` : location.href; // the state's link as it is, when no record
    return { url, put: put.map((x) => x.f), left };
  }

  async copyLink() {
    const { url, put, left } = await this.link();
    const ok = await copyText(url);
    const head = ok ? 'Link copied' : 'Copy this link';
    const what = put.length ? ` with ${plural(put.length, 'record')} in it (${url.length.toLocaleString('en-US')} characters)` : '';
    const leftText = left.length
      ? ` Left out (over the link’s ${LINK_RECORDS_LIMIT.toLocaleString('en-US')}-character limit for records): ${left.map((f) => `${f.name} (${plural(f.report.record.points.length, 'point')})`).join(', ')} — send the workspace file (Save workspace) for those.`
      : '';
    const s = $('link-status');
    s.textContent = this.esc(`${head}${what}.${leftText}${ok ? '' : ` ${url}`}`);
    s.dataset.value = url;
    s.dataset.left = String(left.length);
    s.dataset.put = String(put.length);
    $('action-save-workspace').classList.toggle('offered', left.length > 0);
    return { url, put, left };
  }

  // A link's records= part: the records in it queued (core checks each); those it names as left
  // out and this browser does not have are said. A malformed part is said, nothing else changes.
  async openLink(hash) {
    const data = new URLSearchParams(String(hash || '').replace(/^#/, '')).get('records');
    if (!data || data === this.lastLink) return;
    this.lastLink = data;
    let payload;
    try {
      payload = await decodePayload(data, this.limit);
      if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new Error('records: $: expected an object');
      payload = { records: readRecordList(payload.records, 'records: $.records'), left: readLeft(payload.left, 'records: $.left') };
    } catch (e) {
      this.say(`This link’s records could not be read: ${e.message}. Nothing was loaded from it; what was loaded stays.`, 'error');
      return;
    }
    await this.records.restored; // the kept records first: a record the browser has is not "missing"
    await this.addAll(payload.records, 'link');
    const have = new Set(this.records.files.map((f) => f.storeId));
    const missing = payload.left.filter((r) => !have.has(r.id));
    const n = payload.records.length;
    const parts = [n ? `This link carried ${plural(n, 'record')}, loaded below.` : ''];
    if (missing.length) {
      parts.push(`It also referred to ${plural(missing.length, 'record')} too large for a link, not in this browser: ${missing.map((r) => `${r.name} (${plural(r.points, 'point')})`).join(', ')}. Ask the sender for the workspace file.`);
    }
    this.say(parts.filter(Boolean).join(' '), missing.length ? `missing:${missing.length}` : `loaded:${n}`);
  }

  async addAll(list, source) {
    const enc = new TextEncoder();
    await Promise.all(list.map((r) => this.records.queue.enqueue(r.name, source, enc.encode(r.text).buffer)));
  }

  workspaceText() {
    this.app.flush();
    const files = this.loaded({ shown: false });
    return `${JSON.stringify({
      [WORKSPACE_KEY]: WORKSPACE_VERSION,
      rooflab_version: this.model.version,
      saved: new Date().toISOString(),
      state: this.app.pageState.toFragment(this.app.state),
      records: files.map((f) => ({ name: f.name, text: f.text })),
    }, null, 1)}\n`;
  }

  saveWorkspace() {
    const text = this.workspaceText();
    download(new Blob([text], { type: 'application/json' }), 'rooflab-workspace.json');
    const n = this.loaded({ shown: false }).length;
    $('link-status').textContent = `Workspace saved: the state and ${plural(n, 'record')} (${this.model.format(text.length, 'B')}). Open it with Open workspace or drop it on the page.`;
  }

  // A workspace: checked whole first (a bad one is refused naming the JSON path; nothing changes),
  // then the state loaded as a link would be and its records queued (core checks each).
  async openWorkspace(text, name = 'workspace') {
    let ws;
    try {
      ws = readWorkspace(text);
    } catch (e) {
      this.say(`${name}: not opened — ${e.message}. Nothing changed.`, 'error');
      return false;
    }
    const state = this.app.pageState.fromFragment(ws.state);
    this.app.load(state, { fromLink: true });
    this.records.compare.restore(state.compare, state['own-roof']);
    await this.addAll(ws.records, 'workspace');
    this.say(`${name}: opened — the state and ${plural(ws.records.length, 'record')}.`, `workspace:${ws.records.length}`);
    return true;
  }
}
