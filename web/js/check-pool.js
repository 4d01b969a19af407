// check-pool.js — the page's checks of uploaded files, off the main thread, each file on its own:
// a small pool of workers (records-worker.js, each with its own instance of the WASM module), one
// job per worker at a time, so a slow file never blocks the others. A job still running when the
// time limit passes, or cancelled, has its worker terminated (the WASM call cannot be interrupted
// any other way); a new worker replaces it when the next job needs one. Jobs beyond MAX_WORKERS
// wait for a free worker. The time limit counts from the moment the worker starts the job's C
// call; loading a new worker's module (well under a second) has its own limit, LOAD_LIMIT_MS.
//
// Where a worker cannot start (or its module fails to load), the job runs on the main thread
// with the page's own module: the same C code, without the time limit.
//
//   const pool = new CheckPool(model, { limitMs });
//   const job = pool.submit('checkRecord', bytes, args);  // op: a method of model.js the worker runs
//   job.promise → the op's result | rejects with CheckStopped (reason 'timeout' | 'cancelled')
//   job.about   → once settled: record-pack.js's aboutResult (text, rawKey, storeId as the op gives)
//   job.cancel(); job.state → 'waiting' | 'running' | 'done'; job.stage, job.onStage (see stage())

import { unpackResult, aboutResult, unpackAbout } from './record-pack.js';
import { plainBytes } from './gunzip.js';

export const MAX_WORKERS = 4;
export const LOAD_LIMIT_MS = 20000;

export class CheckStopped extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

export class CheckPool {
  constructor(model, { limitMs }) {
    this.model = model;
    this.limitMs = limitMs;
    this.idle = []; // workers with their module loaded (or loading), no job
    this.live = 0; // workers started and not terminated
    this.waiting = [];
    this.seq = 0;
    this.noWorkers = false;
    this.inWorker = 0; // jobs answered by a worker (tests check the checks ran off the main thread)
  }

  submit(op, bytes, args = null) {
    const job = { id: ++this.seq, op, bytes, args, state: 'waiting', worker: null, timer: null };
    job.promise = new Promise((resolve, reject) => { job.resolve = resolve; job.reject = reject; });
    job.cancel = () => this.stop(job, 'cancelled');
    this.waiting.push(job);
    this.dispatch();
    return job;
  }

  dispatch() {
    while (this.waiting.length) {
      const worker = this.idle.pop() || (this.live < MAX_WORKERS ? this.spawn() : undefined);
      if (worker === undefined) return; // every worker busy: the job waits
      const job = this.waiting.shift();
      if (worker === null) this.runHere(job);
      else this.start(job, worker);
    }
  }

  // A new worker, or null when none can start (then jobs run on the main thread).
  spawn() {
    if (this.noWorkers) return null;
    try {
      const w = new Worker(new URL('./records-worker.js', import.meta.url), { type: 'module' });
      this.live++;
      return w;
    } catch (_) {
      this.noWorkers = true;
      return null;
    }
  }

  start(job, worker) {
    job.state = 'running';
    job.worker = worker;
    worker.onmessage = (e) => {
      if (e.data.id !== job.id) return;
      if (e.data.started) { // the module is loaded: the job's own time starts now
        clearTimeout(job.timer);
        job.timer = setTimeout(() => this.stop(job, 'timeout'), this.limitMs);
        this.stage(job, { name: 'checking', bytes: job.size });
        return;
      }
      if (e.data.stage) { // the C call is done (the time limit is met); the result is being copied
        clearTimeout(job.timer);
        this.stage(job, e.data.stage);
        return;
      }
      this.settle(job);
      this.idle.push(worker);
      this.inWorker++;
      if (e.data.error) job.reject(new Error(e.data.error));
      else {
        job.about = unpackAbout(e.data.about);
        job.resolve(unpackResult(e.data.result)); // its points as sent: see record-pack.js
      }
      this.dispatch();
    };
    worker.onerror = (e) => { // the worker's module could not load: this job (and later ones) here
      e.preventDefault();
      const { bytes } = job;
      this.kill(job);
      job.bytes = bytes;
      this.noWorkers = true;
      this.runHere(job);
      this.dispatch();
    };
    job.timer = setTimeout(() => this.stop(job, 'timeout'), Math.max(LOAD_LIMIT_MS, this.limitMs));
    job.size = job.bytes.byteLength;
    const copy = job.bytes.slice(0);
    worker.postMessage({ id: job.id, op: job.op, bytes: copy, args: job.args }, [copy]);
  }

  // Where a job is (job.stage: { name: 'checking', bytes } once the worker's C call starts, then
  // { name: 'sending', points } while its result is copied to the page); job.onStage(stage) if set.
  // Core's check is one C call: no finer progress than these stages exists.
  stage(job, stage) {
    job.stage = stage;
    if (job.onStage) job.onStage(stage);
  }

  runHere(job) {
    job.state = 'running';
    // A macrotask later, so the page can paint the pending file first.
    setTimeout(async () => {
      if (job.state !== 'running') return;
      try {
        // a gzip'd upload decompressed first, as the worker does (gunzip.js)
        const bytes = await plainBytes(job.bytes, this.model.recordLimits);
        if (job.state !== 'running') return;
        job.state = 'done';
        const result = this.model[job.op](bytes, job.args);
        job.about = aboutResult(job.op, bytes, result, job.args);
        job.resolve(result);
      } catch (e) {
        job.state = 'done';
        job.reject(e);
      }
    }, 0);
  }

  settle(job) {
    clearTimeout(job.timer);
    job.state = 'done';
    job.worker = null;
    job.bytes = null;
  }

  kill(job) {
    const w = job.worker;
    if (w) {
      w.onmessage = null;
      w.onerror = null;
      w.terminate();
      this.live--;
    }
    this.settle(job);
  }

  // Timeout or cancel: a waiting job leaves the queue, a running one takes its worker with it.
  stop(job, reason) {
    if (job.state === 'done') return;
    if (job.state === 'waiting') {
      this.waiting = this.waiting.filter((j) => j !== job);
      this.settle(job);
    } else {
      this.kill(job);
    }
    job.reject(new CheckStopped(reason));
    this.dispatch();
  }
}
