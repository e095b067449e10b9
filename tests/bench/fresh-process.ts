/**
 * Runs one bench script (`*-only.ts`, which prints its figures as JSON) in a Node process of its own and returns what
 * it printed. The HTTP figures are ratios to a bare Fastify route measured in the same process; run after the
 * Lighthouse and build steps, that process was several times slower for both routes (bare Fastify 7,289 answers a
 * second against ~40,000 in a fresh one), which flattered the ratio. A fresh process measures both as a server
 * would run them.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export function inFreshProcess<T>(script: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, script)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited with ${code}`));
      try {
        resolve(JSON.parse(out.slice(out.indexOf('{'))) as T);
      } catch (error) {
        reject(new Error(`${script} printed no JSON: ${(error as Error).message}`));
      }
    });
  });
}
