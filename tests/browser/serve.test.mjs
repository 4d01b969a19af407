// `make run`'s server (scripts/serve.py): started on a free port of 127.0.0.1, it sends the
// headers of scripts/security-headers.json on every answer (404s too), application/wasm and
// text/javascript, and nothing outside the served folder ("..", encoded or not, a symbolic link,
// a folder listing). The browser tests' server (harness.mjs) sends the same headers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtemp, mkdir, writeFile, symlink, rm, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ROOT, WEB, SECURITY_HEADERS, serve } from './harness.mjs';

let tmp;
before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'rooflab-serve-'));
  const web = join(tmp, 'web');
  await mkdir(join(web, 'js'), { recursive: true });
  await mkdir(join(web, 'empty'));
  await writeFile(join(web, 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(join(web, 'm.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  await writeFile(join(web, 'js', 'a.js'), 'export {};');
  await writeFile(join(web, 'js', 'b.mjs'), 'export {};');
  await writeFile(join(tmp, 'secret.txt'), 'outside the served folder');
  await symlink(join(tmp, 'secret.txt'), join(web, 'link.txt'));
});
after(async () => { if (tmp) await rm(tmp, { recursive: true, force: true }); });

// Starts serve.py on port 0 for `dir`; resolves to { port, stop }.
function startServer(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [join(ROOT, 'scripts/serve.py'), '--port', '0', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => reject(new Error(`serve.py exited (${code}): ${err}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) {
        resolve({
          port: Number(m[1]),
          stop: () => new Promise((ok) => { child.removeAllListeners('exit'); child.on('exit', ok); child.kill('SIGTERM'); }),
        });
      }
    });
  });
}

// A raw GET: the path goes out exactly as written (fetch would normalise "..").
function get(port, path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function assertSecurityHeaders(res, what) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(res.headers[name.toLowerCase()], value, `${what}: ${name}`);
}

test('security-headers.json: the policy is self only', () => {
  const csp = SECURITY_HEADERS['Content-Security-Policy'];
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  assert.match(csp, /object-src 'none'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'|\*|https?:/);
  assert.equal(SECURITY_HEADERS['X-Content-Type-Options'], 'nosniff');
  assert.equal(SECURITY_HEADERS['Referrer-Policy'], 'no-referrer');
});

test('serve.py: headers, MIME types, 404 outside the folder', async () => {
  const srv = await startServer(join(tmp, 'web'));
  try {
    const index = await get(srv.port, '/');
    assert.equal(index.status, 200);
    assert.equal(index.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(index.body.toString(), /<title>t<\/title>/);
    assertSecurityHeaders(index, '/');
    const wasm = await get(srv.port, '/m.wasm');
    assert.equal(wasm.status, 200);
    assert.equal(wasm.headers['content-type'], 'application/wasm');
    assert.deepEqual([...wasm.body], [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    assertSecurityHeaders(wasm, '/m.wasm');
    for (const p of ['/js/a.js', '/js/b.mjs']) assert.equal((await get(srv.port, p)).headers['content-type'], 'text/javascript', p);
    for (const p of ['/../secret.txt', '/js/../../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/js/..%2f..%2fsecret.txt',
      '/link.txt', '/empty/', '/js/', '/nothing-here', '/..\\secret.txt', '/%00']) {
      const res = await get(srv.port, p);
      assert.equal(res.status, 404, `${p} answered ${res.status}`);
      assert.doesNotMatch(res.body.toString(), /outside the served folder/, p);
      assertSecurityHeaders(res, p);
    }
  } finally {
    await srv.stop();
  }
});

test('serve.py serves the built page; the browser tests\' server sends the same headers', { skip: !existsSync(join(WEB, 'index.html')) && 'no built page' }, async () => {
  const srv = await startServer(WEB);
  const harness = await serve();
  try {
    const page = await get(srv.port, '/');
    assert.equal(page.status, 200);
    assert.equal(page.body.toString(), await readFile(join(WEB, 'index.html'), 'utf8'));
    assertSecurityHeaders(page, 'serve.py /');
    const wasm = await get(srv.port, '/wasm/rooflab.wasm');
    assert.equal(wasm.status, 200);
    assert.equal(wasm.headers['content-type'], 'application/wasm');
    assert.equal((await get(srv.port, '/js/main.js')).headers['content-type'], 'text/javascript');
    const port = Number(new URL(harness.url).port);
    assertSecurityHeaders(await get(port, '/'), 'harness /');
    assertSecurityHeaders(await get(port, '/../x'), 'harness 404');
  } finally {
    await srv.stop();
    await harness.close();
  }
});
