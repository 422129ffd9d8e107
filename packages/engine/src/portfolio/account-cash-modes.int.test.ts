/**
 * `ctx.account.cash` while a limit buy rests, in paper and live: both the cash a new order can
 * use, the account's cash less what its open buys hold back (live, the broker's cash buying power).
 * Before, paper (and backtests) answered the ledger's whole cash, the resting buy's cash included,
 * where live answered the buying power: the same strategy saw 127,620 KRW more in paper. Over the
 * simulator (HTTP) and a real SQLite file.
 */
import type { Bar, Decimal, OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  openTempDb,
  startRunOf005930,
  startSimulatedBroker,
  until,
} from '../live/live-run.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Rests a limit buy of 2 005930 at 60,000 on its first bar; records its account's KRW cash. */
class RestsAndLooks extends Strategy {
  static before: Decimal | null = null;
  static resting: Decimal[] = [];
  static accepted = false;
  /** The cash `onStart` saw. */
  static seen(): Decimal | null {
    return RestsAndLooks.before;
  }
  private placed = false;
  override onStart(): void {
    RestsAndLooks.before = this.ctx.account.cash('KRW');
    this.ctx.setTimer('look', { every: 200 });
  }
  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    this.ctx.buy('005930', 2, 60_000);
  }
  override onOrderEvent(event: OrderEvent): void {
    if (event.type === 'OrderAccepted') RestsAndLooks.accepted = true;
  }
  override onTimer(): void {
    if (RestsAndLooks.accepted) RestsAndLooks.resting.push(this.ctx.account.cash('KRW'));
  }
}

async function heldBack(mode: 'live' | 'paper'): Promise<string> {
  RestsAndLooks.before = null;
  RestsAndLooks.resting = [];
  RestsAndLooks.accepted = false;
  const s = await startSimulatedBroker(closers, { speed: 1, control: true, rateLimit: false });
  s.sim.setPrice('005930', '66000');
  const db = openTempDb(closers, `hoga-account-cash-${mode}-`, s.clock);
  const { handle } = await startRunOf005930({ ...s, db }, mode, { strategyClass: RestsAndLooks });
  closers.add(() => handle.stop());
  // live reads the broker every 10 s: a look after a read that saw the order
  await until(() => RestsAndLooks.resting.length > (mode === 'live' ? 60 : 5), 90_000);
  await handle.stop();
  const last = RestsAndLooks.resting.at(-1) as Decimal;
  const before: Decimal | null = RestsAndLooks.seen();
  if (before === null) throw new Error('onStart did not run');
  return before.minus(last).toFixed();
}

describe('ctx.account.cash while a limit buy rests', () => {
  it('is net of what the buy holds back, in paper as in live', async () => {
    // 2 × 60,000 and the commission on it, rounded up (the broker's rule)
    const live = await heldBack('live');
    const paper = await heldBack('paper');
    expect({ live, paper }).toEqual({ live: '120018', paper: '120018' });
  }, 180_000);
});
