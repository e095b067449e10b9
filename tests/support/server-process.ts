/**
 * The real process entry (`src/server/start.ts`) as a child process, for what only a whole process shows: its
 * refusals on stderr, its exit codes, its data-folder lock, its shutdown on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export type ServerProcess = ChildProcess & {
  output(): { stdout: string; stderr: string };
  /** The exit code, once the process has ended. */
  exited: Promise<number | null>;
};

/**
 * Starts `start.ts` with this process's environment, without the names in `unset`, and with `env` over it. Every
 * process started is also pushed to `started`, when given, for the file to kill what a failed test left running.
 */
export function startServerProcess(
  env: Record<string, string>,
  options: { unset?: string[]; started?: ChildProcess[] } = {},
): ServerProcess {
  const inherited = { ...process.env };
  for (const name of options.unset ?? []) delete inherited[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/start.ts'], {
    cwd: root,
    env: { ...inherited, ...env },
  });
  options.started?.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return Object.assign(child, { output: () => ({ stdout, stderr }), exited });
}

/** The port and host of the JSON log line that says the server listens; rejects if the process ends first. */
export function listening(child: ServerProcess): Promise<{ port: number; host: string }> {
  return new Promise((resolve, reject) => {
    const find = () => {
      const line = child
        .output()
        .stdout.split('\n')
        .find((l) => l.includes('"msg":"listening on'));
      if (line) resolve(JSON.parse(line) as { port: number; host: string });
    };
    child.stdout?.on('data', find);
    find();
    void child.exited.then(() => reject(new Error(`exited before listening: ${JSON.stringify(child.output())}`)));
  });
}

/** Sends SIGTERM and gives the exit code. */
export async function stopProcess(child: ServerProcess): Promise<number | null> {
  child.kill('SIGTERM');
  return child.exited;
}

/** Kills (SIGKILL) whatever of `started` still runs: a test that failed half-way leaves no server behind. */
export function killLeft(started: ChildProcess[]): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
