/**
 * Seeds and sizes of the randomized API tests (crash safety, the payment and ledger fuzz, hostile input), read from
 * the environment. CI runs each file's default size; `npm run test:deep` (tests/deep.ts) runs deeper sizes with fresh
 * seeds. Each file prints its seed and the variables that replay it before it runs, and a failure repeats them (in the
 * ledger fuzz, fast-check's report names the seed).
 */
import fc from 'fast-check';

const INT32 = 2 ** 31;

/** `name` from the environment as an integer of at least `min`, or `fallback` when unset or empty. */
export function envInteger(name: string, fallback: number, min: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name}=${raw}: expected an integer ≥ ${min}`);
  return value;
}

/** `name` from the environment as a seed (0 to 2^31 - 1), or `fallback`, or, without one, a fresh random seed. */
export function envSeed(name: string, fallback?: number): number {
  const seed = envInteger(name, fallback ?? Math.floor(Math.random() * INT32), 0);
  if (seed >= INT32) throw new Error(`${name}=${seed}: expected a seed below 2^31`);
  return seed;
}

/**
 * Prints `<label> seed=<seed> (replay: NAME=<seed> SIZE=<n>)` and returns the replay variables, for assertion
 * messages. `vars` holds the seed's variable first, then the sizes the run used (a seed replays one size).
 */
export function announceSeed(label: string, vars: Record<string, number>): string {
  const replay = Object.entries(vars)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  console.log(`${label} seed=${Object.values(vars)[0]} (replay: ${replay})`);
  return replay;
}

/** Runs `body`; a failure's message ends with the variables that replay the run. */
export async function replayable<T>(replay: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof Error) error.message += `\n(replay: ${replay})`;
    throw error;
  }
}

/** Random choices drawn from fast-check's generator: the same seed gives the same sequence of choices. */
export interface Choices {
  /** An integer from min to max, both included. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
}

/**
 * `count` independent sources of choices from one seed, one per concurrent actor, so that what each actor chooses
 * does not depend on how the actors happen to interleave. Uniform (fast-check's bias towards edge values is off).
 */
export function seededChoices(seed: number, count: number): Choices[] {
  const streams = fc.sample(fc.infiniteStream(fc.noBias(fc.nat({ max: INT32 - 1 })), { noHistory: true }), {
    seed,
    numRuns: count,
  });
  return streams.map((stream) => {
    const unit = () => (stream.next().value as number) / INT32;
    return {
      int: (min, max) => min + Math.floor(unit() * (max - min + 1)),
      chance: (p) => unit() < p,
    };
  });
}
