/**
 * `hoga run --mode paper` left running from one trading day into the next, as a user leaves it: the
 * real `hoga` against the simulator over HTTP (its clock moved through the control API, which the
 * run follows), a SQLite file read as another process. Strategy `a` buys 50 shares on Monday
 * evening and its loss trips the daily loss limit: it is halted for the rest of Monday, and trades
 * again on Tuesday (its kill switch lapses at the trading day's start, 08:00 KST), in the same
 * process. Strategy `b`, halted by hand before the start, stays halted on Tuesday. The end of
 * Monday's trading day is said with the session's equity and change, and the first line of Tuesday
 * leads with its date.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase, type JournalEntry } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { env, hogaToEnd as hoga, root, start, until } from './run-process.test-helper.js';

const fixture = join(root, 'packages/cli/test/fixtures/buys-then-rests.ts');
/** Monday 2026-11-23 19:00 KST: the KR after-market (NXT), an hour before it ends. */
const MONDAY_EVENING = '2026-11-23T19:00:00+09:00';
/** Tuesday's trading day begins (`tradingDayStartHourKst` 8). */
const TUESDAY_START = Date.parse('2026-11-24T08:00:00+09:00');
/** A few minutes before the KR open on Tuesday. */
const TUESDAY_BEFORE_OPEN = Date.parse('2026-11-24T08:57:00+09:00');

let sim: SimulatorHandle | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** The journal of the store `file` (read while the engine runs, as another process). */
function journal(file: string): JournalEntry[] {
  const db = HogaDatabase.open(file, { readonly: true, migrate: false });
  try {
    return db.journal.readFrom(1);
  } finally {
    db.close();
  }
}

/** Polls the journal of `file` every 200 ms for up to `timeoutMs` until `found` holds. */
async function journalShows(
  file: string,
  found: (entries: JournalEntry[]) => boolean,
  timeoutMs: number,
): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (found(journal(file))) return true;
    await new Promise((x) => setTimeout(x, 200));
  }
  return false;
}

const of =
  (strategyId: string, type: string, from = 0) =>
  (e: JournalEntry) =>
    e.strategyId === strategyId && e.type === type && e.tsEvent >= from;

describe('hoga run --mode paper across two trading days', () => {
  it("a strategy halted by Monday's daily loss trades again on Tuesday; one halted by hand does not", async () => {
    sim = await startSimulator({ port: 0, seed: 7, start: MONDAY_EVENING, speed: 30, control: true });
    const dir = mkdtempSync(join(tmpdir(), 'hoga-run-days-'));
    const db = join(dir, 'hoga.sqlite');
    const environment = env(sim, db);
    const riskConfig = join(dir, 'risk.json');
    writeFileSync(
      riskConfig,
      JSON.stringify({
        strategies: { a: { dailyLossLimitKrw: '200000' }, b: { dailyLossLimitKrw: '200000' } },
      }),
    );
    expect((await hoga(['db', 'migrate'], environment)).code).toBe(0);
    const manual = await hoga(
      ['risk', 'set', 'HALTED', '--strategy', 'b', '--mode', 'paper', '--reason', 'operator: paused'],
      environment,
    );
    expect(manual.code).toBe(0);

    const r = start(
      [
        'run',
        `${fixture}:a`,
        `${fixture}:b`,
        '--mode',
        'paper',
        '--symbols',
        '005930',
        '--interval',
        '1m',
        '--status-every',
        '2',
        '--candle-poll-ms',
        '250',
        '--risk-config',
        riskConfig,
      ],
      environment,
    );
    try {
      // Monday: a buys 50 shares, and the price falls 10 % under what it paid
      expect(await journalShows(db, (j) => j.some(of('a', 'OrderFilled')), 90_000)).toBe(true);
      const filled = journal(db).find(of('a', 'OrderFilled'))?.payload as { fill: { price: string } };
      const paid = new Decimal(filled.fill.price);
      sim.setPrice('005930', paid.mul(0.9).div(100).floor().mul(100));
      expect(await until(r, /status [^\n]*strategy:a HALTED \(daily-loss: daily loss/, 90_000)).toBe(true);
      expect(await journalShows(db, (j) => j.some(of('a', 'OrderDenied')), 90_000)).toBe(true);

      // Tuesday, in the same process: a trades again, b is still halted by hand
      sim.advanceClock(TUESDAY_BEFORE_OPEN - sim.now().toMillis());
      expect(
        await journalShows(
          db,
          (j) =>
            j.some(of('a', 'OrderAccepted', TUESDAY_START)) && j.some(of('b', 'OrderDenied', TUESDAY_START)),
          90_000,
        ),
      ).toBe(true);
      const entries = journal(db);
      expect(entries.filter(of('b', 'OrderAccepted'))).toEqual([]);
      const lapsed = entries.filter(
        (e) => e.type === 'TradingStateChanged' && (e.payload as { scope: string }).scope === 'strategy:a',
      );
      expect(lapsed.at(-1)?.payload).toMatchObject({
        from: 'HALTED',
        to: 'ACTIVE',
        source: 'new-trading-day',
      });
      // Monday's result is said when its trading day ends (looked for once a second): a's loss
      expect(
        await until(
          r,
          /hoga: trading day 2026-11-23 \(Mon\) ended: equity [\d,]+ KRW, -[\d,]+ KRW, -\d+\.\d\d % since the session started/,
          30_000,
        ),
      ).toBe(true);
      // the first line of Tuesday says its date (the lines before, the time alone)
      expect(r.out.join('')).toMatch(/\n2026-11-24 \d\d:\d\d:\d\d /);
      expect(r.out.join('')).not.toMatch(/\n2026-11-23 \d\d:\d\d:\d\d /);
      // the next status line no longer names a's halt, and still names b's
      const seen = r.out.join('').length;
      const nextStatus = () => /\d status [^\n]*\n/.exec(r.out.join('').slice(seen))?.[0];
      const end = performance.now() + 30_000;
      while (nextStatus() === undefined && performance.now() < end)
        await new Promise((x) => setTimeout(x, 200));
      expect(nextStatus()).toMatch(/risk: strategy:b HALTED \(manual: operator: paused\)\n$/);
    } finally {
      r.child.kill('SIGINT');
      await r.exited;
    }
  }, 240_000);
});
