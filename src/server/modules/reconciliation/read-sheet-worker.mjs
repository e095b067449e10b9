// Reads an uploaded xlsx's first sheet on a worker thread (decision 031): a file whose zip lies about its sizes inflates
// here, under the thread's own memory cap and the caller's time limit, never on the server's event loop.
// Plain JavaScript because a worker thread does not inherit the TypeScript loader of the process (tsx or vitest).
import { parentPort, workerData } from 'node:worker_threads';
import { readSheet } from 'read-excel-file/node';

try {
  parentPort.postMessage({ ok: true, rows: await readSheet(Buffer.from(workerData)) });
} catch {
  parentPort.postMessage({ ok: false });
}
