/**
 * A paper or live session that starts with a position its earlier sessions bought values it at the
 * broker's last price read at the start, not at its average price: the session's first equity
 * point, `ctx.equity` and `ctx.unrealizedPnl` in `onStart`. And a candle that closed before that
 * read does not put its older close back. Before, the run's last prices were empty until its first
 * bar or fill: `onStart` read an unrealized PnL of 0 for 10 shares bought at 55,000 and now at
 * 57,000, and the session's equity curve began at the average price, so the 20,000 KRW its
 * earlier session had gained counted as this session's return. Over the simulator on 127.0.0.1
 * and a SQLite file, two sessions on one file, the simulator's clock stopped between them.
 */
import { RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { type BooksRead, carriedPosition, freezeAt, Holds } from './carried-position.test-helper.js';
import { Closers } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

describe('a position restored at the start of a session', () => {
  it.each(['paper', 'live'] as const)(
    "%s: is valued at the broker's last price read at the start, not at its average price",
    async (mode) => {
      const { s, db, bought, second } = await carriedPosition(closers, mode, '005930', (sim, _db, fill) =>
        freezeAt(sim, '005930', fill.price.plus(2_000)),
      );
      expect(bought.quantity.toString()).toBe('10');
      const price = bought.price.toNumber() + 2_000;
      const atStart = Holds.atStart as BooksRead | null;
      if (atStart === null) throw new Error('onStart did not run');
      expect(atStart.shares).toBe('10');
      expect(atStart.unrealized).toBe('20000');
      expect(atStart.equity).toBe(atStart.cash + 10 * price);

      // the candles the run reads closed before the price was read: they do not value it again
      await new Promise((r) => setTimeout(r, 1_500));
      // the stop's equity point a second after the start's (the engine clock alone moves)
      s.clock.advance(1_000);
      await second.handle.stop();
      const equity = new RunRepository(db.connection).equity('second');
      expect(equity.length).toBe(2);
      for (const point of equity) expect(point.equity).toBe(atStart.cash + 10 * price);
      for (const read of Holds.atBars) expect(read.unrealized).toBe('20000');
    },
    60_000,
  );
});
