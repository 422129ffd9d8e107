/**
 * Issue 13, items 2, 5, 6 and 11 over the real `hoga` and the simulator: long candle reads stream,
 * dates and any case are accepted, messages name the one problem, numbers are grouped per currency,
 * colour only on a terminal without NO_COLOR, and `--csv` beside `--json`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envWithoutHoga, HOGA_BIN, hoga, simFlags } from './hoga-process.test-helper.js';

let sim: SimulatorHandle;
const home = mkdtempSync(join(tmpdir(), 'hoga-output-'));

beforeAll(async () => {
  sim = await startSimulator({ start: '2026-11-23T10:00:00.000+09:00', rateLimit: false });
});
afterAll(async () => {
  await sim.close();
});

const run = (...args: string[]) => hoga([...args, ...simFlags(sim.url)], { env: { HOME: home } });

describe('long candle reads (item 2)', () => {
  it('prints every minute candle of a week-long range as a table, oldest first', async () => {
    const { out, err, code } = await run(
      'candles',
      '005930',
      '--interval',
      '1m',
      '--from',
      '2026-11-16',
      '--to',
      '2026-11-20',
    );
    expect(err).toBe('');
    expect(code).toBe(0);
    const rows = out.trimEnd().split('\n').slice(2);
    expect(rows.length).toBeGreaterThan(1500);
    expect(rows[0]).toMatch(/^2026-11-16 /);
    expect(rows.at(-1)).toMatch(/^2026-11-20 /);
  });
});

describe('dates and case (item 5)', () => {
  it('accepts a date: KST midnight for KR daily candles, the New York trading date for US', async () => {
    const kr = await run(
      'candles',
      '005930',
      '--interval',
      '1d',
      '--from',
      '2026-11-18',
      '--to',
      '2026-11-20',
      '--json',
    );
    expect(kr.code).toBe(0);
    expect((JSON.parse(kr.out) as { timestamp: string }[]).map((c) => c.timestamp)).toEqual([
      '2026-11-18T00:00:00.000+09:00',
      '2026-11-19T00:00:00.000+09:00',
      '2026-11-20T00:00:00.000+09:00',
    ]);
    const us = await run(
      'candles',
      'aapl',
      '--interval',
      '1d',
      '--from',
      '2026-11-19',
      '--to',
      '2026-11-20',
      '--json',
    );
    expect(us.code).toBe(0);
    expect((JSON.parse(us.out) as { timestamp: string }[]).map((c) => c.timestamp)).toEqual([
      '2026-11-19T00:00:00.000+09:00',
      '2026-11-20T00:00:00.000+09:00',
    ]);
  });

  it('refuses --from after --to (exit 2) instead of printing an empty table', async () => {
    const { err, code, out } = await run(
      'candles',
      '005930',
      '--interval',
      '1d',
      '--from',
      '2026-11-20',
      '--to',
      '2026-11-01',
    );
    expect(out).toBe('');
    expect(err).toBe('hoga: --from 2026-11-20 is not before --to 2026-11-01\nsee hoga candles --help\n');
    expect(code).toBe(2);
  });

  it.each([
    [['calendar', 'kr'], /today\s+2026-11-23/],
    [['orders', '--status', 'closed'], /CLOSED|order/],
    [['quote', 'aapl'], /^AAPL\s+\$/m],
  ])('accepts any case: hoga %j', async (args, pattern) => {
    const { out, code } = await run(...args);
    expect(code).toBe(0);
    expect(out).toMatch(pattern);
  });
});

describe('messages (item 6)', () => {
  it('marks --interval as required in the help', async () => {
    const { out } = await hoga(['candles', '--help']);
    expect(out).toMatch(/--interval <interval>\s+candle interval, 1m or 1d \(required\)/);
  });

  it('--json honours --depth and names the symbol', async () => {
    const { out, code } = await run('orderbook', '005930', '--depth', '2', '--json');
    expect(code).toBe(0);
    const book = JSON.parse(out) as { symbol: string; asks: unknown[]; bids: unknown[] };
    expect(book.symbol).toBe('005930');
    expect(book.asks).toHaveLength(2);
    expect(book.bids).toHaveLength(2);
  });

  it('an unknown stock is an error naming it (exit 1), not an empty table', async () => {
    const { out, err, code } = await run('stock', 'XXXXXX');
    expect(out).toBe('');
    expect(err).toMatch(/^hoga: unknown symbol XXXXXX: /);
    expect(code).toBe(1);
  });

  it('missing variables are named (HOGA_CLIENT_ID …), not zod paths', async () => {
    const { err, code } = await hoga(['quote', '005930', '--base-url', sim.url], { env: { HOME: home } });
    expect(err).toMatch(/^hoga: HOGA_CLIENT_ID, HOGA_CLIENT_SECRET are not set/);
    expect(err).not.toContain('received undefined');
    expect(code).toBe(2);
  });
});

describe('output (item 11)', () => {
  it('groups numbers per currency: 66,800 and $226.02', async () => {
    const { out } = await run('quote', '005930', 'AAPL');
    expect(out).toMatch(/^005930\s+\d{1,3}(,\d{3})+\s+KRW/m);
    expect(out).toMatch(/^AAPL\s+\$\d{1,3}(,\d{3})*\.\d{2}\s+USD/m);
  });

  it('--csv prints comma-separated values with plain numbers', async () => {
    const { out, code } = await run('quote', '005930', '--csv');
    expect(code).toBe(0);
    const [header, row] = out.trimEnd().split('\n');
    expect(header).toBe('symbol,last,currency,time');
    expect(row).toMatch(/^005930,\d+,KRW,2026-/);
  });

  it('colours gains and losses on a terminal only, and not with NO_COLOR', async () => {
    // Asynchronously: the simulator answers from this process.
    const exec = async (file: string, args: string[], env: NodeJS.ProcessEnv) =>
      (await promisify(execFile)(file, args, { env })).stdout;
    const env = { ...envWithoutHoga(), HOME: home, TERM: 'xterm' };
    const command = `${process.execPath} ${HOGA_BIN} holdings ${simFlags(sim.url).join(' ')}`;
    const tty = await exec('script', ['-qec', command, '/dev/null'], { ...env, NO_COLOR: '' });
    expect(tty).toContain('\x1b[32m');
    const noColour = await exec('script', ['-qec', command, '/dev/null'], { ...env, NO_COLOR: '1' });
    expect(noColour).not.toContain('\x1b[3');
    const piped = await exec(process.execPath, [HOGA_BIN, 'holdings', ...simFlags(sim.url)], {
      ...env,
      NO_COLOR: '',
    });
    expect(piped).not.toContain('\x1b[');
  });
});
