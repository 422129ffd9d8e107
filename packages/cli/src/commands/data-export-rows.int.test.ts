/**
 * `hoga data export` row for row against the candle cache: minute candles of 005930 and AAPL for
 * the trading dates 2025-03-07 to 2025-03-10 (New York changes to daylight saving time on the
 * 9th, London not until the 30th), in KST, in each exchange's time and in Europe/London. The CSV
 * holds exactly the stored candles of those trading dates (a US date's day market from 20:00 New
 * York the evening before), each with its stored prices and volume as stored, its time the stored
 * instant written with the zone's offset at that instant. The real `hoga` in child processes (the
 * embedded simulator fills the cache), a real SQLite file; the Parquet file read back with hyparquet.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../hoga-process.test-helper.js';

interface Stored {
  symbol: string;
  ts: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

let dir: string;
let home: string;
let file: string;
let stored: Stored[];

const run = (args: string[]) => hoga(args, { cwd: dir, env: { HOME: home } });

/** A stored minute's trading date: KR its KST date; US its New York date, the day market from 20:00 the evening before. */
function tradingDate(c: Stored): string {
  return c.symbol === 'AAPL'
    ? (DateTime.fromMillis(c.ts + 4 * 3_600_000, { zone: 'America/New_York' }).toISODate() as string)
    : (DateTime.fromMillis(c.ts, { zone: 'Asia/Seoul' }).toISODate() as string);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-export-rows-'));
  home = tempHome();
  file = join(dir, 'candles.sqlite');
  // a day more on each side: the export must leave them out
  const download = await run(
    `data download --symbols 005930,AAPL --interval 1m --from 2025-03-06 --to 2025-03-11 --db ${file}`.split(
      ' ',
    ),
  );
  expect(download.code, download.err).toBe(0);
  const db = HogaDatabase.open(file, { migrate: false, readonly: true });
  try {
    stored = db.connection
      .prepare(
        "SELECT symbol, ts, open, high, low, close, volume FROM candles WHERE interval = '1m' ORDER BY symbol, ts",
      )
      .all() as Stored[];
  } finally {
    db.close();
  }
}, 180_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('hoga data export of minute candles, row for row', () => {
  it.each([
    ['KST', () => 'Asia/Seoul'],
    ['exchange', (symbol: string) => (symbol === 'AAPL' ? 'America/New_York' : 'Asia/Seoul')],
    ['Europe/London', () => 'Europe/London'],
  ] as const)(
    '--tz %s: the stored candles of the trading dates asked, times in that zone',
    async (tz, zoneOf) => {
      const out = await run(
        `data export --db ${file} --symbols 005930,AAPL --interval 1m --from 2025-03-07 --to 2025-03-10 --tz ${tz}`.split(
          ' ',
        ),
      );
      expect(out.code, out.err).toBe(0);
      const [header, ...lines] = out.out.trimEnd().split('\n');
      expect(header).toBe('symbol,interval,time,open,high,low,close,volume');

      const wanted = stored.filter((c) => tradingDate(c) >= '2025-03-07' && tradingDate(c) <= '2025-03-10');
      // both symbols, each of the two trading dates (the 8th and 9th are a weekend), and days left out
      expect(new Set(wanted.map((c) => `${c.symbol} ${tradingDate(c)}`)).size).toBe(4);
      expect(wanted.length).toBeLessThan(stored.length);
      const expected = wanted.map((c) => {
        const time = DateTime.fromMillis(c.ts, { zone: zoneOf(c.symbol) }).toISO({ includeOffset: true });
        return [c.symbol, '1m', time, c.open, c.high, c.low, c.close, c.volume].join(',');
      });
      expect(lines).toEqual(expected);
      // the offsets written: New York's change on the 9th shows, London's and Seoul's do not
      const offsets = new Set(lines.map((l) => `${l.split(',')[0]} ${l.split(',')[2]?.slice(-6)}`));
      if (tz === 'exchange')
        expect(offsets).toEqual(new Set(['AAPL -05:00', 'AAPL -04:00', '005930 +09:00']));
      if (tz === 'Europe/London') expect(offsets).toEqual(new Set(['AAPL +00:00', '005930 +00:00']));
    },
    60_000,
  );

  it('--format parquet holds the same rows as the CSV, every one (--tz exchange)', async () => {
    const args = `data export --db ${file} --symbols 005930,AAPL --interval 1m --from 2025-03-07 --to 2025-03-10 --tz exchange`;
    const csv = await run(args.split(' '));
    expect(csv.code, csv.err).toBe(0);
    const out = join(dir, 'minutes.parquet');
    const parquet = await run([...args.split(' '), '--out', out]);
    expect(parquet.code, parquet.err).toBe(0);
    const [header, ...lines] = csv.out.trimEnd().split('\n');
    expect(parquet.err).toContain(`wrote ${lines.length.toLocaleString('en-US')} candles to ${out}`);
    const read = await parquetReadObjects({ file: await asyncBufferFromFile(out) });
    expect(Object.keys(read[0] ?? {}).join(',')).toBe(header);
    expect(read.map((r) => Object.values(r).join(','))).toEqual(lines);
  }, 60_000);
});
