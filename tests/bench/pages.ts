/** Gzip bytes of the JavaScript a page really loads in Chromium (every script response, gzipped here). */
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../support/browser';
import { startServer } from '../support/server';

export async function benchPageJs(paths: string[]): Promise<Record<string, { files: number; gzipBytes: number }>> {
  const server = await startServer({ env: { LOG_LEVEL: 'warn' } });
  const browser = await launchBrowser();
  const out: Record<string, { files: number; gzipBytes: number }> = {};
  try {
    for (const path of paths) {
      const page = await browser.newPage();
      const bodies: Promise<Buffer>[] = [];
      page.on('response', (res) => {
        if (res.url().endsWith('.js')) bodies.push(res.body());
      });
      await page.goto(server.url + path, { waitUntil: 'networkidle' });
      const buffers = await Promise.all(bodies);
      out[path] = { files: buffers.length, gzipBytes: buffers.reduce((sum, b) => sum + gzipSync(b).length, 0) };
      await page.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return out;
}
