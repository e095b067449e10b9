// A worker thread that runs a TypeScript module: tsx's `--import` hook does not reach worker threads on Node 20,
// so the worker registers it itself, then imports `workerData.module` (which reads the rest of workerData).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
