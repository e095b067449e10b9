/**
 * One process per data directory. The embedded database (PGlite) is a folder of PostgreSQL files that a single
 * process owns: two processes on one folder each lose the other's writes. The lock is a directory created
 * atomically by proper-lockfile, whose time stamp the holder refreshes; a lock left by a killed process goes
 * stale after STALE_SECONDS and is then taken over, so a crash never needs a manual clean-up.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';

export const STALE_SECONDS = 10;
export const LOCK_NAME = 'arzpay.lock';

export class DataDirLockedError extends Error {}

/**
 * Takes the lock on `dataDir` (created when missing) and returns its release. `onLost` runs when another
 * process took the lock over (this one was stalled past the stale time) or it was removed: stop writing then.
 */
export async function lockDataDir(dataDir: string, onLost: (error: Error) => void): Promise<() => Promise<void>> {
  const dir = path.resolve(dataDir);
  await mkdir(dir, { recursive: true });
  try {
    return await lockfile.lock(dir, {
      lockfilePath: path.join(dir, LOCK_NAME),
      stale: STALE_SECONDS * 1000,
      onCompromised: onLost,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new DataDirLockedError(
      `the data directory ${dir} is in use by another arzpay process (stop it, or set DATA_DIR to another ` +
        `directory; a lock left by a killed process expires ${STALE_SECONDS} seconds after it stopped)`,
    );
  }
}
