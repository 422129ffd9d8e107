/**
 * A position a paper or live session carries in a symbol outside its `--symbols` (bought by an
 * earlier session that traded it) is valued at the broker's last price: read after the run's own
 * symbols' at the start and every few seconds, not only by a bar, a tick or a fill of it, which
 * this session may never have. Before, such a position was valued at its average price all
 * session long: `onStart` saw an unrealized PnL of 0 with the price 3,000 KRW above the fill, and
 * the equity curve counted it at cost. A symbol the broker no longer lists keeps its average
 * price, said once, and fails nothing else. Over the simulator on 127.0.0.1 and a SQLite file, two
 * sessions on one file, the simulator's clock stopped between them.
 */
import { RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLogger } from '../backtest/backtest-fixture.test-helper.js';
import { type BooksRead, carriedPosition, freezeAt, Holds } from './carried-position.test-helper.js';
import { Closers } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

describe("a position outside the run's symbols, carried from an earlier session", () => {
  it.each(['paper', 'live'] as const)(
    "%s: is valued at the broker's last price, read at the start",
    async (mode) => {
      // the first session (symbols 005930) bought 000660; the market then stops 3,000 KRW above the fill
      const { s, db, bought, second } = await carriedPosition(closers, mode, '000660', (sim, _db, fill) =>
        freezeAt(sim, '000660', fill.price.plus(3_000)),
      );
      const price = bought.price.toNumber() + 3_000;
      const atStart = Holds.atStart as BooksRead | null;
      if (atStart === null) throw new Error('onStart did not run');
      expect(atStart.shares).toBe('10');
      expect(atStart.unrealized).toBe('30000');
      expect(atStart.equity).toBe(atStart.cash + 10 * price);

      // the stop's equity point a second after the start's (the engine clock alone moves)
      s.clock.advance(1_000);
      await second.handle.stop();
      const equity = new RunRepository(db.connection).equity('second');
      expect(equity.length).toBe(2);
      for (const point of equity) expect(point.equity).toBe(atStart.cash + 10 * price);
    },
    60_000,
  );

  it('paper: a held symbol the broker no longer lists keeps its average price, said once, and the run goes on', async () => {
    const { logger, records } = recordingLogger();
    await carriedPosition(
      closers,
      'paper',
      '000660',
      (_s, db) => {
        // the stored position's symbol, one the broker does not list (delisted since)
        db.connection.prepare("UPDATE fills SET symbol = '999990'").run();
        db.connection.prepare("UPDATE orders SET symbol = '999990'").run();
      },
      { logger, risk: { accountInfoMaxAgeMs: 1_000 } },
    );
    expect(Holds.atStart).toMatchObject({ shares: undefined, unrealized: '0' });
    // the reads every second fail too: said once all the same
    await new Promise((r) => setTimeout(r, 2_500));
    const said = records.filter((r) => String(r.msg).includes('999990'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: 40, symbols: ['999990'] });
    expect(String(said[0]?.msg)).toMatch(/could not be read: those positions keep their last known prices$/);
  }, 60_000);
});
