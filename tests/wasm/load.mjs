// Loads the WASM build of core for node tests and benchmarks, through the page's own model.js
// (the same code path the page uses), and finds the native CLI to compare against.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadModel } from '../../web/js/model.js';

export const ROOT = resolve(new URL('../..', import.meta.url).pathname);
export const WASM_DIR = process.env.ROOFLAB_WASM_DIR || join(ROOT, 'build/wasm/wasm');

export async function loadWasmModel() {
  const { default: createRooflab } = await import(pathToFileURL(join(WASM_DIR, 'rooflab.mjs')).href);
  const wasmBinary = await readFile(join(WASM_DIR, 'rooflab.wasm'));
  return loadModel(createRooflab, { wasmBinary });
}

export function nativeCli() {
  const candidates = [process.env.ROOFLAB, join(ROOT, 'build/native/cli/rooflab'), join(ROOT, 'build/native/rooflab')];
  const found = candidates.find((p) => p && existsSync(p));
  if (!found) throw new Error(`native rooflab not found (tried ${candidates.filter(Boolean).join(', ')}); run 'make native' or set ROOFLAB`);
  return resolve(found); // absolute: callers run it from other folders (cwd of an import)
}

// Runs `rooflab eval --json` with CLI flags; returns the parsed object.
export function nativeEval(flags) {
  const out = execFileSync(nativeCli(), ['eval', ...flags, '--json'], { encoding: 'utf8' });
  return JSON.parse(out);
}

// Runs the native CLI expecting failure; returns { status, stderr }.
export function nativeFail(args) {
  try {
    execFileSync(nativeCli(), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { status: 0, stderr: '' };
  } catch (e) {
    return { status: e.status, stderr: String(e.stderr) };
  }
}
