import { join } from 'node:path';
import { HogaDatabase, SqliteTokenCache } from '@hoga/store';
import { describe, expect, it, vi } from 'vitest';
import { hoga as runHoga, simFlags } from '../../hoga-process.test-helper.js';
import { useCliSimulator } from '../cli-simulator.test-helper.js';

const t = useCliSimulator('hoga-cli-');
const { dir } = t;

/** Runs the real `hoga` as a child process with this file's token file and account settings. */
async function hoga(...args: string[]): Promise<{ out: string; err: string; code: number }> {
  const run = await runHoga(args, {
    env: {
      HOGA_TOKEN_FILE: process.env.HOGA_TOKEN_FILE,
      HOGA_ACCOUNT_SEQ: process.env.HOGA_ACCOUNT_SEQ,
      HOGA_DB: '',
    },
  });
  return { out: run.out.replace(/\n$/, ''), err: run.err, code: run.code ?? -1 };
}

const connection = () => simFlags(t.sim.url);

describe('hoga broker commands', () => {
  it('prints a table of quotes', async () => {
    const { out, code } = await hoga('quote', '005930', 'AAPL', ...connection());
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toMatch(/^symbol\s+last\s+currency\s+time$/);
    expect(out).toMatch(/005930\s+[\d,]+\s+KRW/);
    expect(out).toMatch(/AAPL\s+\$[\d,.]+\s+USD/);
  });

  it('prints JSON with decimals as strings under --json', async () => {
    const { out, code } = await hoga('quote', '005930', '--json', ...connection());
    expect(code).toBe(0);
    const [price] = JSON.parse(out) as { symbol: string; lastPrice: string }[];
    expect(price!.symbol).toBe('005930');
    expect(price!.lastPrice).toMatch(/^\d+$/);
  });

  it.each([
    {
      args: ['orderbook', '005930', '--depth', '3'],
      pattern: /ask\s+[\d,]+\s+[\d,]+[\s\S]*bid\s+[\d,]+\s+[\d,]+/,
    },
    { args: ['candles', '005930', '--interval', '1d', '--count', '3'], pattern: /time\s+open\s+high/ },
    { args: ['stock', '005930'], pattern: /005930\s+\S+\s+KOSPI/ },
    { args: ['fx'], pattern: /USD\/KRW\s+[\d,.]+/ },
    { args: ['calendar', 'KR'], pattern: /today\s+2026-11-23/ },
    // US hours in New York time: the day after Thanksgiving closes early (regular to 13:00)
    {
      args: ['calendar', 'US', '--date', '2026-11-27'],
      pattern:
        /today\s+2026-11-27\s+11-26 20:00–11-27 03:50\s+11-27 04:00–11-27 09:30\s+11-27 09:30–11-27 13:00\s+11-27 13:00–11-27 17:00/,
    },
    { args: ['accounts'], pattern: /1\s+\d+\s+BROKERAGE/ },
    { args: ['holdings'], pattern: /005930[\s\S]*market value/ },
    { args: ['orders', '--status', 'CLOSED'], pattern: /CLOSED|order/ },
    { args: ['buying-power', '--account-seq', '1'], pattern: /KRW\s+[\d,]+[\s\S]*USD/ },
  ])('runs `hoga $args.0`', async ({ args, pattern }) => {
    const { out, err, code } = await hoga(...args, ...connection());
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toMatch(pattern);
    expect(out).not.toContain('sim-secret');
  });

  it('uses --account-seq, else $HOGA_ACCOUNT_SEQ, else the first account', async () => {
    // Account 2 holds KRW 100,000 and USD 50; account 1 (the first) KRW 50,000,000.
    const krw = async (...args: string[]) =>
      (
        JSON.parse((await hoga('buying-power', '--json', ...args, ...connection())).out) as {
          currency: string;
          cashBuyingPower: string;
        }[]
      ).find((b) => b.currency === 'KRW')!.cashBuyingPower;
    expect(await krw()).toBe('50000000');
    expect(await krw('--account-seq', '2')).toBe('100000');
    vi.stubEnv('HOGA_ACCOUNT_SEQ', '2');
    try {
      expect(await krw()).toBe('100000');
      expect(await krw('--account-seq', '1')).toBe('50000000');
    } finally {
      vi.stubEnv('HOGA_ACCOUNT_SEQ', '');
    }
  });

  it('reports refused credentials with exit 1 and never shows the secret', async () => {
    // A fresh token cache: the shared one holds a valid token and would never send the secret.
    vi.stubEnv('HOGA_TOKEN_FILE', join(dir, 'refused-tokens.json'));
    const { out, err, code } = await hoga(
      'quote',
      '005930',
      '--base-url',
      t.sim.url,
      '--client-id',
      'sim-client',
      '--client-secret',
      'wrong-s3cr3t',
    ).finally(() => vi.stubEnv('HOGA_TOKEN_FILE', join(dir, 'tokens.json')));
    expect(code).toBe(1);
    expect(err).toMatch(/^hoga: invalid_client \(HTTP 401\)/);
    expect(out + err).not.toContain('wrong-s3cr3t');
  });

  it('reads every candle of a --from/--to range, oldest first', async () => {
    const { out, code } = await hoga(
      'candles',
      '005930',
      '--interval',
      '1m',
      '--json',
      '--from',
      '2026-11-23T09:30:00.000+09:00',
      '--to',
      '2026-11-23T10:00:00.000+09:00',
      ...connection(),
    );
    expect(code).toBe(0);
    const stamps = (JSON.parse(out) as { timestamp: string }[]).map((c) => c.timestamp);
    expect(stamps).toHaveLength(30);
    expect(stamps[0]).toBe('2026-11-23T09:30:00.000+09:00');
    expect(stamps.at(-1)).toBe('2026-11-23T09:59:00.000+09:00');
  });

  it('prints the error code, message and request id and exits 1', async () => {
    const { err, code } = await hoga('orderbook', 'NOPE99', ...connection());
    expect(code).toBe(1);
    expect(err).toMatch(/^hoga: stock-not-found \(HTTP 404\) from getOrderbook: .+\nrequest id: \S+/);
  });

  it('prints the prettified configuration error, exits 2 and never shows the secret', async () => {
    const { err, code } = await hoga(
      'fx',
      '--base-url',
      'not-a-url',
      '--client-id',
      'x',
      '--client-secret',
      's3cr3t-value',
    );
    expect(code).toBe(2);
    expect(err).toContain('baseUrl');
    expect(err).not.toContain('s3cr3t-value');
  });

  it('shares the token through the store with --db', async () => {
    const db = join(dir, 'hoga.sqlite');
    HogaDatabase.open(db).close(); // broker commands never create a database (issue 13 item 10)
    // A fresh token file: a token already cached there would be used without writing the database.
    vi.stubEnv('HOGA_TOKEN_FILE', join(dir, 'db-tokens.json'));
    const { code } = await hoga('accounts', '--db', db, ...connection()).finally(() =>
      vi.stubEnv('HOGA_TOKEN_FILE', join(dir, 'tokens.json')),
    );
    expect(code).toBe(0);
    const database = HogaDatabase.open(db);
    try {
      const token = await new SqliteTokenCache(database).read(`${t.sim.url}|sim-client`);
      expect(token?.tokenType).toBe('Bearer');
    } finally {
      database.close();
    }
  });
});
