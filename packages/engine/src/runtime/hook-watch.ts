/**
 * Says when a hook's promise has not settled for a while. The engine waits for a hook's promise
 * before it routes the next event, so a hook that awaits an event of the run (the fill of the
 * order it just placed, resolved in `onFill`) waits forever: the run hangs without a word, a
 * backtest too. The watch logs one warning on the strategy's logger per wait, naming the hook and
 * the likely cause; the run goes on waiting (a hook may well wait on the network).
 *
 * @module
 */
import type { StrategyHost } from './strategy-host.js';

/** How long (real ms) a hook's promise may stay unsettled before the warning (tests shorten it). */
export const HOOK_WAIT_WARNING_MS = { value: 30_000 };

/** See the module description. */
export class HookWatch {
  private host: StrategyHost | null = null;
  private hook = '';
  private since = 0;
  private warned = false;
  private timer: ReturnType<typeof setInterval> | null = null;

  /** @param waiting - whether the run still waits for a hook's promise */
  constructor(private readonly waiting: () => boolean) {}

  /** A hook's promise began a wait (the run waited for none before it). */
  started(host: StrategyHost, hook: string): void {
    this.host = host;
    this.hook = hook;
    this.since = performance.now();
    this.warned = false;
    if (this.timer === null) {
      const every = Math.max(10, Math.min(5_000, HOOK_WAIT_WARNING_MS.value / 2));
      this.timer = setInterval(() => this.check(), every);
      this.timer.unref();
    }
  }

  /** Stops watching (the run ended). */
  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private check(): void {
    const host = this.host;
    if (host === null || this.warned || !this.waiting()) return;
    const waited = performance.now() - this.since;
    if (waited < HOOK_WAIT_WARNING_MS.value) return;
    this.warned = true;
    host.log.warn(
      `${this.hook} has not settled after ${Math.round(waited / 1000)} s: the engine waits for a hook's promise before the next event, so a hook that awaits an event of the run (its own order's fill) waits forever; place the order and go on in onFill or onOrderEvent`,
    );
  }
}
