/**
 * An uploaded xlsx read off the event loop (decision 031): read-excel-file inflates and parses on a worker thread with a
 * memory cap and a time limit, so a zip bomb whose headers lie about its sizes costs that thread, not every other
 * request. A bank's statement of a day or a week reads in well under a second; anything that needs more than the
 * limits is refused like an unreadable file.
 */
import { Worker } from 'node:worker_threads';

export const SHEET_READ_LIMIT_MS = 15_000;
export const SHEET_READ_HEAP_MB = 256;

const workerFile = new URL('./read-sheet-worker.mjs', import.meta.url);

/** The first sheet's rows, or null when the file cannot be read within the limits. */
export function readSheetOffLoop<Cell>(bytes: Buffer): Promise<Cell[][] | null> {
  return new Promise((resolve) => {
    const copy = new Uint8Array(bytes);
    const worker = new Worker(workerFile, {
      workerData: copy,
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: SHEET_READ_HEAP_MB },
    });
    let settled = false;
    const settle = (rows: Cell[][] | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(rows);
    };
    const timer = setTimeout(() => settle(null), SHEET_READ_LIMIT_MS);
    worker.on('message', (answer: { ok: boolean; rows?: Cell[][] }) => settle(answer.ok ? answer.rows! : null));
    // ERR_WORKER_OUT_OF_MEMORY and any other failure of the thread: the file is refused, the server goes on.
    worker.on('error', () => settle(null));
    worker.on('exit', () => settle(null));
  });
}
