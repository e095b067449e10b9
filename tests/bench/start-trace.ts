/**
 * The long tasks of a page's start, named: the built app loaded in Chromium at a phone's size with the CPU slowed 4×
 * (Lighthouse's mobile setting), a DevTools trace of the main thread (`Tracing.start`) beside a sampling profile of
 * its JavaScript (`Profiler.start`, same clock). For each main-thread task over 50 ms: when it ran, how long, its
 * blocking part (over 50 ms), and the functions (name, file) that took most of its time. Not part of `npm run bench`
 * or CI: a tool for finding what the first screen waits on.
 *
 *   node --import tsx tests/bench/start-trace.ts [--web dirA,dirB] [--runs 3] [--signed-in] /path …
 *
 * With two web folders (say the build before and after a change), each run loads every page from both, one after
 * the other, in the same process: an A/B under the same load.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { type CDPSession, chromium } from 'playwright-core';
import { startServer, type RunningServer } from '../support/server';
import { customerWithRequests } from './lighthouse';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; name?: string };
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
export interface LongTask {
  startMs: number;
  durationMs: number;
  top: string[];
}
export interface StartFigures {
  longTasks: number;
  blockingMs: number;
  scriptMs: number;
  tasks: LongTask[];
}

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

async function collectTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await done;
  return events;
}

function shortUrl(url: string): string {
  return url ? path.basename(url.split('?')[0]!) : '(native)';
}

/** With a build made with `--sourcemap`, a place in a chunk is named by its source file, line and function. */
const maps = new Map<string, TraceMap | null>();
function originalPlace(webDir: string | undefined, url: string, line: number, column: number): string | null {
  if (!webDir || !url) return null;
  const file = path.join(webDir, 'assets', shortUrl(url) + '.map');
  if (!maps.has(file)) maps.set(file, existsSync(file) ? new TraceMap(readFileSync(file, 'utf8')) : null);
  const map = maps.get(file);
  if (!map) return null;
  const at = originalPositionFor(map, { line: line + 1, column });
  if (!at.source) return null;
  const source = at.source.replace(/^(\.\.\/)+/, '').replace(/^node_modules\//, '~');
  return `${at.name ?? ''} ${source}:${at.line}`;
}

/** One load of `url`: its long tasks from the start of navigation to `settleMs` after the load event. */
export async function traceStart(
  browser: import('playwright-core').Browser,
  url: string,
  options: { token?: string; settleMs?: number; webDir?: string } = {},
): Promise<StartFigures> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'fa-IR' });
  if (options.token) {
    const token = options.token;
    await context.addInitScript((t) => localStorage.setItem('token', t), token);
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink.user_timing',
    transferMode: 'ReportEvents',
  });
  await cdp.send('Profiler.start');
  await page.goto(url, { waitUntil: 'load' });
  // The app's own mark that the page is drawn and nothing it asked for is coming (lib/settled-mark.ts), then what
  // runs after it (idle work, the live channel).
  // Watched from inside the page: polling for it from here would run script in the page.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const html = document.documentElement;
        if (html.hasAttribute('data-settled')) return resolve();
        new MutationObserver(() => {
          if (html.hasAttribute('data-settled')) resolve();
        }).observe(html, { attributes: true, attributeFilter: ['data-settled'] });
      }),
  );
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(options.settleMs ?? 2000);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  const events = (await collectTrace(cdp)).sort((a, b) => a.ts - b.ts);
  await context.close();

  // The page's renderer main thread: of the renderers' main threads, the one that ran the most script.
  const scriptNames = new Set(['EvaluateScript', 'FunctionCall', 'v8.compile', 'TimerFire', 'EventDispatch']);
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const scriptOf = (m: TraceEvent) =>
    events
      .filter((e) => e.pid === m.pid && e.tid === m.tid && scriptNames.has(e.name))
      .reduce((sum, e) => sum + (e.dur ?? 0), 0);
  const main = mains.map((m) => ({ m, script: scriptOf(m) })).sort((a, b) => b.script - a.script)[0]?.m;
  if (!main) throw new Error('no renderer main thread in the trace');
  const tasks = events.filter(
    (e) =>
      e.pid === main.pid &&
      e.tid === main.tid &&
      e.ph === 'X' &&
      (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask'),
  );
  const origin =
    events
      .filter((e) => e.pid === main.pid && e.name === 'navigationStart')
      .map((e) => e.ts)
      .sort((a, b) => b - a)[0] ?? Math.min(...tasks.map((t) => t.ts));
  const script = events
    .filter(
      (e) =>
        e.pid === main.pid &&
        e.tid === main.tid &&
        e.ph === 'X' &&
        (e.name === 'EvaluateScript' ||
          e.name === 'v8.compile' ||
          e.name === 'FunctionCall' ||
          e.name === 'EventDispatch' ||
          e.name === 'TimerFire' ||
          e.name === 'FireIdleCallback' ||
          e.name === 'FireAnimationFrame' ||
          e.name === 'v8.run' ||
          e.name === 'RunMicrotasks'),
    )
    .filter((e) => e.ts >= origin);

  // Samples on the same clock: which function each sample was in (its leaf; ours if the leaf is a library's).
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const sampleTimes: number[] = [];
  let t = profile.startTime;
  for (const delta of profile.timeDeltas) sampleTimes.push((t += delta));

  const long = tasks.filter((e) => e.ts >= origin && (e.dur ?? 0) > 50_000).sort((a, b) => a.ts - b.ts);
  const named: LongTask[] = long.map((task) => {
    const end = task.ts + (task.dur ?? 0);
    const weight = new Map<string, number>();
    for (let i = 0; i < profile.samples.length; i++) {
      const at = sampleTimes[i]!;
      if (at < task.ts || at > end) continue;
      const node = byId.get(profile.samples[i]!)!;
      const { functionName, url: file, lineNumber, columnNumber } = node.callFrame;
      const key =
        originalPlace(options.webDir, file, lineNumber, columnNumber) ??
        `${functionName || '(anonymous)'} ${shortUrl(file)}:${lineNumber + 1}:${columnNumber + 1}`;
      weight.set(key, (weight.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 200));
    }
    // What the browser did in the task, by trace event (Layout, style, parsing, script…): its direct children.
    const kinds = new Map<string, number>();
    let until = 0;
    for (const e of events) {
      if (e.pid !== main.pid || e.tid !== main.tid || e === task) continue;
      if (e.ts < task.ts || e.ts >= end || e.ts < until) continue;
      if (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') continue;
      if (e.ph !== 'X') {
        if (e.ph === 'B' || e.ph === 'I' || e.ph === 'i') kinds.set(`${e.name}(${e.ph})`, kinds.get(e.name) ?? 0);
        continue;
      }
      kinds.set(e.name, (kinds.get(e.name) ?? 0) + (e.dur ?? 0));
      until = e.ts + (e.dur ?? 0);
    }
    const byKind = [...kinds.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, us]) => `${k} ${(us / 1000).toFixed(0)}`)
      .join(', ');
    const top = [...weight.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, us]) => `${(us / 1000).toFixed(0)} ms ${k}`);
    return {
      startMs: Math.round((task.ts - origin) / 1000),
      durationMs: Math.round((task.dur ?? 0) / 1000),
      top: [byKind, ...top],
    };
  });
  // Script time: top-level script events only (nested ones are inside their parent).
  let scriptUs = 0;
  let coveredUntil = 0;
  for (const e of script.sort((a, b) => a.ts - b.ts)) {
    const end = e.ts + (e.dur ?? 0);
    if (end <= coveredUntil) continue;
    scriptUs += end - Math.max(e.ts, coveredUntil);
    coveredUntil = end;
  }
  return {
    longTasks: named.length,
    blockingMs: Math.round(named.reduce((sum, task) => sum + task.durationMs - 50, 0)),
    scriptMs: Math.round(scriptUs / 1000),
    tasks: named,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const webDirs = (arg('--web') ?? 'dist/web').split(',').map((d) => path.resolve(d));
  const runs = Number(arg('--runs') ?? 3);
  const signedIn = process.argv.includes('--signed-in');
  const paths = process.argv
    .slice(2)
    .filter((a, i, all) => a.startsWith('/') && !['--web', '--runs'].includes(all[i - 1] ?? ''));
  const servers: RunningServer[] = [];
  for (const dir of webDirs)
    servers.push(await startServer({ env: { LOG_LEVEL: signedIn ? 'info' : 'warn', WEB_DIR: dir } }));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  // Signed in as the Lighthouse bench's customer: requests waiting for payment, and the notifications they brought.
  const tokens = signedIn ? await Promise.all(servers.map((s) => customerWithRequests(s))) : [];
  const results: Record<string, Record<string, StartFigures[]>> = {};
  try {
    for (let run = 0; run < runs; run++) {
      for (const p of paths.length ? paths : ['/']) {
        for (const [i, server] of servers.entries()) {
          const figures = await traceStart(browser, server.url + p, { token: tokens[i], webDir: webDirs[i] });
          ((results[p] ??= {})[webDirs[i]!] ??= []).push(figures);
          console.error(
            `run ${run + 1} ${p} ${path.relative(process.cwd(), webDirs[i]!)}: ${figures.longTasks} long tasks, blocking ${figures.blockingMs} ms, script ${figures.scriptMs} ms`,
          );
          if (process.env.TRACE_DETAILS)
            for (const task of figures.tasks)
              console.error(`  @${task.startMs} ms ${task.durationMs} ms\n    ${task.top.join('\n    ')}`);
        }
      }
    }
  } finally {
    await browser.close();
    for (const server of servers) await server.stop();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const [p, byDir] of Object.entries(results))
    for (const [dir, list] of Object.entries(byDir))
      console.log(
        `${p} ${path.relative(process.cwd(), dir)}: median long tasks ${median(list.map((f) => f.longTasks))}, blocking ${median(list.map((f) => f.blockingMs))} ms (runs ${list.map((f) => f.blockingMs).join(', ')}), script ${median(list.map((f) => f.scriptMs))} ms`,
      );
  process.exit(0);
}
