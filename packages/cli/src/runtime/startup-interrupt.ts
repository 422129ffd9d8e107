/**
 * The hand-over of Ctrl-C from bin/hoga.js, which says "interrupted during start-up" and exits 130
 * while the command's code loads, to the command: each takes the signal back before its action
 * runs (program.ts), `hoga run` once its own start-up handler is in place (run-start-interrupt.ts).
 * Run in-process (tests), there is nothing to take back.
 *
 * @module
 */

/** What bin/hoga.js leaves on `globalThis` under this key. */
const KEY = Symbol.for('hoga.startupInterrupt');

interface LoadingInterrupt {
  readonly release: () => void;
}

/** Removes bin/hoga.js's handler of Ctrl-C while loading (idempotent; nothing when there is none). */
export function releaseStartupInterrupt(): void {
  const held = (globalThis as Record<symbol, LoadingInterrupt | undefined>)[KEY];
  held?.release();
}

/**
 * {@link releaseStartupInterrupt} after one turn of the event loop: a Ctrl-C that came while the
 * code was read and compiled (JavaScript does not run meanwhile, so the signal waits) is handled
 * first, by bin/hoga.js's handler, rather than after it is gone (then nothing would handle it).
 */
export async function releaseStartupInterruptSoon(): Promise<void> {
  await new Promise<void>((done) => setImmediate(done));
  releaseStartupInterrupt();
}
