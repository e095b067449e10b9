/**
 * A step of a story that later tests build on (log in, then fill the profile, then approve it). It runs once, in
 * whichever test needs it first, and a test awaits the steps it needs: the tests pass in any order
 * (`vitest --sequence.shuffle`) and each one says what it builds on.
 */
export function step<T>(run: () => Promise<T>): () => Promise<T> {
  let done: Promise<T> | undefined;
  return () => (done ??= run());
}
