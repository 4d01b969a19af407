// gunzip.js — an upload compressed with gzip (a PyTorch profiler trace saved as .json.gz) made
// into the bytes of its text with the browser's DecompressionStream('gzip'), so that core reads
// text only (the CLI does the same with zlib). Used where the page's C calls run: the worker
// (records-worker.js) and check-pool.js's main-thread fallback.
//
//   isGzip(bytes)                 → the gzip magic bytes 1f 8b at the start
//   await plainBytes(bytes, limits) → bytes unchanged, or the decompressed bytes (an ArrayBuffer);
//     limits: core's record limits (model.recordLimits: max_file_bytes, max_file_mib);
//     throws Error('file: …') for a broken gzip stream or one larger than max_file_bytes decompressed
//     (checked while it decompresses: a small file that inflates without end is stopped).

export function isGzip(bytes) {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return u8.length >= 2 && u8[0] === 0x1f && u8[1] === 0x8b;
}

export async function plainBytes(bytes, limits) {
  const limit = limits.max_file_bytes;
  if (!isGzip(bytes)) return bytes;
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  const parts = [];
  let n = 0;
  for (;;) {
    let r;
    try {
      r = await reader.read();
    } catch (e) {
      throw new Error(`file: not a valid gzip file (${(e && e.message) || e}); cut short?`);
    }
    if (r.done) break;
    n += r.value.byteLength;
    if (n > limit) {
      reader.cancel().catch(() => {});
      throw new Error(`file: decompressed, the file is larger than the limit of ${limit} bytes (${limits.max_file_mib} MiB)`);
    }
    parts.push(r.value);
  }
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.byteLength;
  }
  return out.buffer;
}
