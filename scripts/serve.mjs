#!/usr/bin/env node
// Serves the built page (build/web) on 127.0.0.1 for `make run` (node's http, no dependency).
//
//   node scripts/serve.mjs [--port PORT] [--dir DIR]   PORT 0 picks a free port; default $PORT or 8000
//
// - Every answer carries the headers of scripts/security-headers.json (Content-Security-Policy,
//   X-Content-Type-Options, Referrer-Policy; the browser tests' server sends the same) and
//   Cache-Control: no-cache; .wasm goes out as application/wasm, .js/.mjs as text/javascript.
// - Precompressed assets: when FILE.br sits beside FILE (scripts/build-web.sh writes them) and the
//   request names br, FILE.br is sent with Content-Encoding: br; else when FILE.gz is there and the
//   request accepts gzip, FILE.gz with Content-Encoding: gzip; both with FILE's Content-Type;
//   otherwise FILE as it is. Vary: Accept-Encoding on all three.
// - Nothing outside the served folder: a path with a ".." segment (encoded or not), a backslash or
//   a NUL, one that resolves (through a symbolic link) outside it, a folder without index.html and
//   anything that is not a plain file answer 404. GET and HEAD only (405 otherwise).
// - Logs errors only (a file that cannot be read, a port in use), never a line per request; the
//   URL is the last line it prints.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const HEADERS = JSON.parse(readFileSync(join(HERE, 'security-headers.json'), 'utf8')).headers;
export const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.map': 'application/json', '.gz': 'application/gzip',
  '.br': 'application/octet-stream',
};

// The q of each coding an Accept-Encoding header names (RFC 9110 §12.5.3), lower case.
function codings(header) {
  const out = new Map();
  for (const part of String(header || '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim());
    const qp = params.find((p) => p.startsWith('q='));
    if (name) out.set(name === 'x-gzip' ? 'gzip' : name, qp ? Number(qp.slice(2)) : 1);
  }
  return out;
}

// Whether an Accept-Encoding header takes gzip ("gzip" or "*", q above 0).
export function acceptsGzip(header) {
  const c = codings(header);
  const q = c.get('gzip') ?? c.get('*') ?? null;
  return q !== null && q > 0;
}

// Whether it takes brotli: only when it names br (q above 0; "*" is not taken for br: a client
// that does not name it gets the gzip copy, which every browser decodes).
export function acceptsBrotli(header) {
  const q = codings(header).get('br');
  return q !== undefined && q > 0;
}

// The request handler for `root` (an absolute, real path). onError(message) hears failures.
export function pageHandler(root, { onError = (m) => process.stderr.write(`serve: ${m}\n`) } = {}) {
  const base = (status, extra = {}) => ({ ...HEADERS, 'Cache-Control': 'no-cache', ...extra });
  const fail = (res, status, text) => {
    const body = Buffer.from(`${text}\n`);
    res.writeHead(status, base(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length }));
    res.end(res.req.method === 'HEAD' ? undefined : body);
  };
  const plainFile = async (p) => {
    try { return (await stat(p)).isFile(); } catch { return false; }
  };
  return async (req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD');
        fail(res, 405, 'method not allowed');
        return;
      }
      let raw;
      try {
        raw = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      } catch {
        fail(res, 404, 'not found');
        return;
      }
      if (raw.split('/').includes('..') || raw.includes('\\') || raw.includes('\0')) {
        fail(res, 404, 'not found');
        return;
      }
      let path = resolve(root, `.${raw}`);
      let info = null;
      try { info = await stat(path); } catch { /* missing: 404 below */ }
      if (info?.isDirectory()) {
        if (!raw.endsWith('/')) { // /dir → /dir/ (relative URLs in its index.html resolve inside it)
          res.writeHead(301, base(301, { Location: `${new URL(req.url, 'http://x').pathname}/`, 'Content-Length': 0 }));
          res.end();
          return;
        }
        path = join(path, 'index.html');
      }
      let real;
      try { real = await realpath(path); } catch { real = null; }
      if (!real || !(real === root || real.startsWith(root + sep)) || !(await plainFile(real))) {
        fail(res, 404, 'not found');
        return;
      }
      const type = TYPES[extname(real)] || 'application/octet-stream';
      let send = real;
      const headers = { 'Content-Type': type };
      if (extname(real) !== '.gz' && extname(real) !== '.br') {
        headers.Vary = 'Accept-Encoding';
        const ae = req.headers['accept-encoding'];
        for (const [ext, coding, ok] of [['.br', 'br', acceptsBrotli], ['.gz', 'gzip', acceptsGzip]]) {
          if (!ok(ae) || !(await plainFile(real + ext))) continue;
          const copy = await realpath(real + ext);
          if (!copy.startsWith(root + sep)) continue; // a copy that links out of the folder is not sent
          send = copy;
          headers['Content-Encoding'] = coding;
          break;
        }
      }
      const fh = await open(send, 'r');
      try {
        const size = (await fh.stat()).size;
        res.writeHead(200, base(200, { ...headers, 'Content-Length': size }));
        if (req.method === 'HEAD') { res.end(); return; }
        const stream = fh.createReadStream({ autoClose: false });
        await new Promise((done, failed) => {
          stream.on('error', failed);
          res.on('close', done);
          stream.pipe(res);
        });
      } finally {
        await fh.close();
      }
    } catch (e) {
      onError(`${req.method} ${req.url}: ${e.message}`);
      if (!res.headersSent) fail(res, 500, 'server error');
      else res.destroy();
    }
  };
}

function parseArgs(argv) {
  const args = { port: process.env.PORT ?? '8000', dir: join(HERE, '..', 'build', 'web') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if ((a === '--port' || a === '--dir') && i + 1 < argv.length) args[a.slice(2)] = argv[++i];
    else throw new Error(`unknown argument "${a}" (expected --port PORT, --dir DIR)`);
  }
  if (!/^\d+$/.test(String(args.port)) || Number(args.port) > 65535) {
    throw new Error(`--port (or PORT): expected a port number 0..65535, got "${args.port}"`);
  }
  args.port = Number(args.port);
  return args;
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`serve: ${e.message}\n`);
    process.exit(2);
  }
  let root;
  try {
    root = await realpath(args.dir);
    if (!(await stat(join(root, 'index.html'))).isFile()) throw new Error('not a file');
  } catch {
    process.stderr.write(`serve: ${resolve(args.dir)}/index.html is missing; run 'make web' first\n`);
    process.exit(1);
  }
  const server = createServer(pageHandler(root));
  server.on('error', (e) => {
    const why = e.code === 'EADDRINUSE' ? `port ${args.port} on 127.0.0.1 is in use; PORT=${args.port + 1} make run picks another` : e.message;
    process.stderr.write(`serve: ${why}\n`);
    process.exit(1);
  });
  server.on('clientError', (e, socket) => { socket.destroy(); }); // malformed requests: dropped, not logged
  server.listen(args.port, '127.0.0.1', () => {
    const { port } = server.address();
    process.stdout.write(`rooflab: serving the page at http://127.0.0.1:${port}/  (Ctrl-C stops)\n`);
  });
  const stop = () => { server.close(() => process.exit(0)); server.closeAllConnections(); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
