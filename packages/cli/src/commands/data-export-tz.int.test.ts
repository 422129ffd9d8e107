/**
 * `hoga data export --tz`: the time column in KST (the default, as before), in each symbol's
 * exchange time (`exchange`: New York for a US symbol), or in any IANA zone. Before, times were in
 * KST only: a US symbol's regular session read as 23:30–06:00 of two KST dates. A daily candle is
 * its trading date: midnight of that date in the zone asked for (never the day before, as the
 * instant of KST midnight is in New York). Real `hoga` against the simulator over HTTP, a real
 * SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags, tempHome } from '../hoga-process.test-helper.js';

let sim: SimulatorHandle;
let dir: string;
let db: string;
const env = { HOME: tempHome() };

async function download(symbols: string, interval: string, from: string, to: string): Promise<void> {
  const run = await hoga(
    [
      'data',
      'download',
      '--symbols',
      symbols,
      '--interval',
      interval,
      '--from',
      from,
      '--to',
      to,
      '--db',
      db,
    ].concat(simFlags(sim.url)),
    { env, cwd: dir },
  );
  expect(run.code, run.err).toBe(0);
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-data-export-tz-'));
  db = join(dir, 'hoga.sqlite');
  // a Tuesday of each: New York on winter time (UTC-5)
  await download('AAPL', '1m', '2025-03-04', '2025-03-04');
  await download('AAPL,005930', '1d', '2025-03-04', '2025-03-05');
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `hoga data export <args>`: the time column of each symbol's rows. */
async function times(args: readonly string[]): Promise<Record<string, string[]>> {
  const run = await hoga(['data', 'export', ...args, '--db', db], { env, cwd: dir });
  expect(run.code, run.err).toBe(0);
  const bySymbol: Record<string, string[]> = {};
  for (const line of run.out.trim().split('\n').slice(1)) {
    const [symbol = '', , time = ''] = line.split(',');
    bySymbol[symbol] = [...(bySymbol[symbol] ?? []), time];
  }
  return bySymbol;
}

describe('hoga data export --tz', () => {
  it('shows a US symbol’s minute candles in New York time with exchange or the zone’s name', async () => {
    const kst = (await times(['--interval', '1m', '--symbols', 'AAPL'])).AAPL ?? [];
    expect(kst.length).toBeGreaterThan(0);
    expect(kst.every((t) => t.endsWith('+09:00'))).toBe(true);
    const exchange = (await times(['--interval', '1m', '--symbols', 'AAPL', '--tz', 'exchange'])).AAPL ?? [];
    const named =
      (await times(['--interval', '1m', '--symbols', 'AAPL', '--tz', 'America/New_York'])).AAPL ?? [];
    expect(named).toEqual(exchange);
    expect(exchange).toHaveLength(kst.length);
    // New York's winter offset on every row (KST has none to change)
    expect(exchange.every((t) => t.endsWith('-05:00'))).toBe(true);
    // the same instants: 09:31 New York is 23:31 KST
    expect(exchange.map((t) => Date.parse(t))).toEqual(kst.map((t) => Date.parse(t)));
    expect(exchange).toContain('2025-03-04T09:31:00.000-05:00');
    expect(kst).toContain('2025-03-04T23:31:00.000+09:00');
  });

  it('keeps each daily candle on its trading date, in each symbol’s own zone with exchange', async () => {
    const kst = await times(['--interval', '1d']);
    expect(kst.AAPL).toEqual(['2025-03-04T00:00:00.000+09:00', '2025-03-05T00:00:00.000+09:00']);
    const exchange = await times(['--interval', '1d', '--tz', 'exchange']);
    expect(exchange.AAPL).toEqual(['2025-03-04T00:00:00.000-05:00', '2025-03-05T00:00:00.000-05:00']);
    expect(exchange['005930']).toEqual(kst['005930']);
    const utc = await times(['--interval', '1d', '--tz', 'UTC', '--symbols', '005930']);
    expect(utc['005930']).toEqual(['2025-03-04T00:00:00.000Z', '2025-03-05T00:00:00.000Z']);
  });

  it('refuses a zone it does not know (exit 2), naming what it takes', async () => {
    const run = await hoga(['data', 'export', '--interval', '1d', '--tz', 'Mars/Olympus', '--db', db], {
      env,
      cwd: dir,
    });
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(run.err).toContain(
      '--tz: expected KST, exchange or an IANA time zone (America/New_York), found "Mars/Olympus"',
    );
  });
});
