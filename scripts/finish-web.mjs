#!/usr/bin/env node
// The last steps of scripts/build-web.sh on the assembled page (DIR, default build/web), before the
// gzip copies are made; run at build time only, on copies (web/ is never changed):
//
// 1. Comments out of the page's own JavaScript (DIR/js/*.js, DIR/wasm/*.mjs; vendor/ is left as
//    shipped, licence comments included). A comment is replaced by the newlines it held (and a
//    block comment by one space more), so every line keeps its number: stack traces and console
//    messages point at the same lines as in web/js. Comments are found by a JavaScript parser
//    (acorn, Debian's node-acorn, which emscripten's emcc needs anyway), never by a pattern, and
//    the result is checked: the token sequence after must equal the one before, or the build fails.
// 2. Preloads in DIR/index.html, so that the browser asks for everything the first number needs at
//    once instead of in waves (the module graph is three imports deep, and rooflab.wasm is only
//    asked for once rooflab.mjs has run): one <link rel="modulepreload"> per module of js/main.js's
//    static import graph (found by parsing the imports) and a <link rel="preload" as="fetch"> for
//    wasm/rooflab.wasm (crossorigin: the same request as emscripten's fetch, credentials
//    same-origin, so the browser reuses the response). Inserted before the first <script> of <head>.
//
//   node scripts/finish-web.mjs [DIR]
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ACORN = process.env.ROOFLAB_ACORN || '/usr/share/nodejs/acorn';

function loadAcorn() {
  try {
    return createRequire(import.meta.url)(ACORN);
  } catch {
    throw new Error(`finish-web: acorn is missing at ${ACORN} (Debian package node-acorn; scripts/setup.sh installs it)`);
  }
}

const parseOptions = { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true };

// The tokens of `src` as [type, value] pairs (comments are not tokens).
function tokens(acorn, src) {
  const out = [];
  for (const t of acorn.tokenizer(src, parseOptions)) out.push([t.type.label, t.value === undefined ? null : String(t.value)]);
  return out;
}

// `src` without comments, every line at its line number, trailing blanks trimmed (unless that
// changes a template literal: then kept); throws when the tokens would differ from the source's.
export function stripComments(src, acorn = loadAcorn(), name = 'source') {
  const cuts = [];
  acorn.parse(src, {
    ...parseOptions,
    onComment: (block, text, start, end) => cuts.push({ block, start, end, lines: src.slice(start, end).split('\n').length - 1 }),
  });
  let bare = '';
  let at = 0;
  for (const c of cuts) {
    bare += src.slice(at, c.start) + '\n'.repeat(c.lines) + (c.block && c.lines === 0 ? ' ' : '');
    at = c.end;
  }
  bare += src.slice(at);
  const want = JSON.stringify(tokens(acorn, src));
  const trimmed = bare.replace(/[ \t]+$/gm, '');
  if (JSON.stringify(tokens(acorn, trimmed)) === want) return trimmed;
  if (JSON.stringify(tokens(acorn, bare)) === want) return bare;
  throw new Error(`finish-web: ${name}: removing its comments changed its tokens`);
}

// The static import graph of `entry` (a file under root): module paths relative to root, entry first.
export function importGraph(root, entry, acorn = loadAcorn()) {
  const seen = new Set();
  const order = [];
  const visit = (file) => {
    const rel = relative(root, file).split('\\').join('/');
    if (seen.has(rel)) return;
    seen.add(rel);
    order.push(rel);
    const ast = acorn.parse(readFileSync(file, 'utf8'), parseOptions);
    for (const node of ast.body) {
      const from = (node.type === 'ImportDeclaration' || node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') && node.source?.value;
      if (!from || !(from.startsWith('./') || from.startsWith('../'))) continue;
      const next = resolve(dirname(file), from);
      if (!existsSync(next)) throw new Error(`finish-web: ${rel} imports ${from}, which is missing`);
      visit(next);
    }
  };
  visit(entry);
  return order;
}

// index.html with the preload links before the first <script> of its <head>.
export function withPreloads(html, modules, fetches) {
  const at = html.search(/<script[\s>]/i);
  const head = html.search(/<\/head>/i);
  if (at < 0 || (head >= 0 && at > head)) throw new Error('finish-web: index.html has no <script> in its <head> to put the preloads before');
  const indent = /[ \t]*$/.exec(html.slice(0, at))[0];
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const links = [
    ...fetches.map((f) => `<link rel="preload" href="${esc(f)}" as="fetch" crossorigin>`),
    ...modules.map((m) => `<link rel="modulepreload" href="${esc(m)}">`),
  ];
  return html.slice(0, at) + links.map((l) => `${l}\n${indent}`).join('') + html.slice(at);
}

function main() {
  const dir = resolve(process.argv[2] || 'build/web');
  const acorn = loadAcorn();
  const own = [
    ...readdirSync(join(dir, 'js')).filter((f) => f.endsWith('.js')).map((f) => join(dir, 'js', f)),
    ...readdirSync(join(dir, 'wasm')).filter((f) => f.endsWith('.mjs')).map((f) => join(dir, 'wasm', f)),
  ];
  for (const f of own) writeFileSync(f, stripComments(readFileSync(f, 'utf8'), acorn, relative(dir, f)));
  const html = join(dir, 'index.html');
  const modules = importGraph(dir, join(dir, 'js', 'main.js'), acorn).map((m) => posix.normalize(m));
  const fetches = existsSync(join(dir, 'wasm', 'rooflab.wasm')) ? ['wasm/rooflab.wasm'] : [];
  writeFileSync(html, withPreloads(readFileSync(html, 'utf8'), modules, fetches));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
}
