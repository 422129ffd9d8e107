/**
 * A run whose symbol's market is closed says so once, with when it opens next: before, a run
 * started on a Saturday (or at 20:00 KST with a US symbol) got no bars and nothing said why. Over
 * the simulator on 127.0.0.1, its clock and the engine's frozen at the start.
 */
import { createLogger, Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

class Idle extends Strategy {}

/** A paper run on `symbols` at `start` (both clocks frozen), its info log lines kept. */
async function runAt(start: string, symbols: string[]) {
  const s = await startSimulatedBroker(closers, { start, speed: 0 });
  const db = openTempDb(closers, 'hoga-closed-notice-', s.clock);
  const lines: { msg: string; market?: string }[] = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  const run = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: 'closed-notice',
      mode: 'paper',
      symbols,
      interval: '1m',
      cashKrw: new Decimal(10_000_000),
      strategies: [{ strategyClass: Idle }],
    },
    { pollIntervalMs: 200, logger },
  );
  closers.add(() => run.handle.stop());
  const closed = () => lines.filter((l) => l.msg.includes('market is closed'));
  return { closed };
}

describe('a run on a closed market', () => {
  it('says once per market that it is closed and when it opens next (Saturday)', async () => {
    // Saturday 2026-11-28 11:00 KST: KR opens Monday 08:00 KST (pre-market); US Sunday 20:00 New York (day market)
    const { closed } = await runAt('2026-11-28T11:00:00+09:00', ['005930', 'AAPL']);
    await until(() => closed().length >= 2);
    await new Promise((r) => setTimeout(r, 1_500));
    const said = closed().map((l) => l.msg);
    expect(said).toHaveLength(2);
    expect(said.find((m) => m.startsWith('KR'))).toContain('005930');
    expect(said.find((m) => m.startsWith('KR'))).toContain('2026-11-30 08:00 KST');
    expect(said.find((m) => m.startsWith('US'))).toContain('AAPL');
    expect(said.find((m) => m.startsWith('US'))).toContain(
      'until it opens at 2026-11-30 10:00 KST (Mon) = 2026-11-29 20:00 New York (Sun), day market',
    );
  }, 90_000);

  it('says nothing of a market that is open (KR regular session); says the closed US one', async () => {
    // Thursday 2026-11-26 10:00 KST: KR regular; US: Thanksgiving, closed until Friday's day market
    const { closed } = await runAt('2026-11-26T10:00:00+09:00', ['005930', 'AAPL']);
    await until(() => closed().length >= 1);
    await new Promise((r) => setTimeout(r, 1_500));
    const said = closed().map((l) => l.msg);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^US market is closed/);
  }, 90_000);
});
