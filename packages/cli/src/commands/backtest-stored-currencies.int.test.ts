/**
 * A stored run reads back as its report printed it: the commissions and taxes per currency in the
 * same order (KRW, then USD). A run stores them in the order its fills first met them, so a run
 * whose first fill was a US one printed `9 KRW, $0.47` in its report and `$0.47, 9 KRW` in
 * `hoga db runs --id`, and its `--json` objects' keys the other way round too. The real `hoga`
 * against the embedded simulator: 2026-10-05 is a KRX holiday, so AAPL's bars and its buy come
 * first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { ROOT } from './backtest-runs.test-helper.js';

const BUYS = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'buys-on-bars.ts');

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-bt-stored-currencies-'));
  home = tempHome();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** Two weeks of daily bars of a KR and a US stock; the KR market was closed on the first day. */
const RANGE = ['--symbols', '005930,AAPL', '--interval', '1d', '--from', '2026-10-05', '--to', '2026-10-16'];

describe('a stored backtest whose first fill was in USD', () => {
  it('lists its commissions by currency as its report did, in text and in --json', async () => {
    const db = join(dir, 'runs.sqlite');
    const options = { cwd: dir, env: { HOME: home } };
    const common = [...RANGE, '--usd-krw', '1400', '--db', db];
    const text = await hoga(['backtest', BUYS, ...common], options);
    expect(text.code, text.err).toBe(0);
    const json = await hoga(['backtest', BUYS, ...common, '--json'], options);
    expect(json.code, json.err).toBe(0);
    const run = JSON.parse(json.out) as BacktestJson;
    // the first fill is AAPL's (the KR market was closed on 2026-10-05)
    expect(run.trades[0]?.symbol).toBe('AAPL');
    expect(Object.keys(run.stats.commissions as Record<string, string>)).toEqual(['KRW', 'USD']);
    const line = (out: string, label: string) => new RegExp(`^ *${label} +(.+)$`, 'm').exec(out)?.[1];
    const printed = line(text.out, 'commissions');
    expect(printed).toMatch(/^\d+ KRW, \$\d+\.\d\d$/);

    const textRunId = /^ {2}run +(\S+)$/m.exec(text.out)?.[1] as string;
    const stored = await hoga(['db', 'runs', '--db', db, '--id', textRunId], options);
    expect(stored.code, stored.err).toBe(0);
    // before: `$0.47, 9 KRW`
    expect(line(stored.out, 'commissions')).toBe(printed);
    const storedJson = await hoga(['db', 'runs', '--db', db, '--id', run.runId, '--json'], options);
    expect(storedJson.code, storedJson.err).toBe(0);
    const back = JSON.parse(storedJson.out) as { stats: BacktestJson['stats'] };
    // before: {"USD": …, "KRW": …}
    expect(JSON.stringify(back.stats.commissions)).toBe(JSON.stringify(run.stats.commissions));
    expect(JSON.stringify(back.stats.taxes)).toBe(JSON.stringify(run.stats.taxes));
  }, 120_000);

  it("gives each --json trade its currency, as the stored run's trades read back", async () => {
    const db = join(dir, 'trades.sqlite');
    const options = { cwd: dir, env: { HOME: home } };
    const json = await hoga(['backtest', BUYS, ...RANGE, '--usd-krw', '1400', '--db', db, '--json'], options);
    expect(json.code, json.err).toBe(0);
    const run = JSON.parse(json.out) as BacktestJson;
    // before: no currency, so a trade's `"commission": "1.44"` did not say whether won or dollars
    expect(new Set(run.trades.map((t) => `${t.symbol} ${t.currency}`))).toEqual(
      new Set(['AAPL USD', '005930 KRW']),
    );
    const stored = await hoga(['db', 'runs', '--db', db, '--id', run.runId, '--json'], options);
    expect(stored.code, stored.err).toBe(0);
    // the same trades, field for field, in both documents
    expect((JSON.parse(stored.out) as BacktestJson).trades).toEqual(run.trades);
  }, 120_000);
});
