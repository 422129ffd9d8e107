/**
 * Failures of strategy code outside the engine's calls of its hooks ({@link StrayFailure}): a
 * promise it left rejected with no handler, an exception thrown from a callback it scheduled. Node
 * reports them on the process (`unhandledRejection`, `uncaughtException`) and, when nothing listens,
 * ends the process there and then: the run stopped mid-way with no `onStop`, its stored run left
 * `running` without statistics, its orders half recorded. While a run watches them, each is the
 * failure of the strategy whose own code is deepest on the error's stack (found as a hook's failure
 * finds its place), or of every watching run when no strategy's code is on it (the message says it
 * is not traced to a strategy); the run then stops as at a hook's throw.
 *
 * Node reports a rejection once the promise callbacks of the current turn of its event loop have
 * run, so a run learns of it at its next turn: paper and live at once (every bar, poll and timer is
 * a turn of its own); a backtest, whose hooks need not wait for any timer or I/O, takes one before
 * each trading day's first bar (at least every 16,384 bars) and one at its end, and stops before
 * the next day's bars.
 *
 * @module
 */
import { StrategyHookError, type StrayFailure } from '../engine-error.js';
import { strategyFrameDepth } from '../strategy/throw-place.js';
import type { EngineRuntime } from './engine-runtime.js';
import type { StrategyHost } from './strategy-host.js';

/** The runs watching (the process's listeners are on while there is one). */
const watching = new Set<EngineRuntime>();

function onRejection(reason: unknown): void {
  strayFailure('unhandled promise rejection', reason);
}

/** `origin` is `unhandledRejection` for a rejection Node raises as an exception (`--unhandled-rejections=strict`). */
function onException(error: unknown, origin: string): void {
  strayFailure(origin === 'unhandledRejection' ? 'unhandled promise rejection' : 'uncaught exception', error);
}

/** Fails the run of the strategy whose code is deepest on the error's stack, else every watching run. */
function strayFailure(kind: StrayFailure, error: unknown): void {
  let owner: { readonly runtime: EngineRuntime; readonly host: StrategyHost } | null = null;
  let depth = Number.POSITIVE_INFINITY;
  for (const runtime of watching) {
    for (const host of runtime.hosts) {
      const d = strategyFrameDepth(error, host.strategyClass);
      if (d >= 0 && d < depth) {
        depth = d;
        owner = { runtime, host };
      }
    }
  }
  if (owner !== null) owner.runtime.fail(owner.host, kind, error);
  else for (const runtime of watching) runtime.failWith(new StrategyHookError(null, kind, error));
}

/** Lets the event loop take one turn: Node reports what the promise callbacks so far left unhandled. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Takes the stray failures of the process for failures of `runtime`'s strategies (see the module's
 * description) until the returned function is called.
 *
 * @param runtime - the run's runtime
 * @returns the release: it waits for one turn of the event loop (so what the run's last promise
 *   callbacks left unhandled is still the run's), then stops watching; once no run watches, Node
 *   handles them as it does by default again
 */
export function watchStrayFailures(runtime: EngineRuntime): () => Promise<void> {
  if (watching.size === 0) {
    process.on('unhandledRejection', onRejection);
    process.on('uncaughtException', onException);
  }
  watching.add(runtime);
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await turn();
    watching.delete(runtime);
    if (watching.size === 0) {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
    }
  };
}
