import { describe, expect, it } from 'vitest';
import { runEngineDemo } from './start-demo-engine.js';

describe('runEngineDemo (pnpm start)', () => {
  it('trades the SMA crossover live against the simulator: orders, fills, status lines and a summary', async () => {
    const lines: string[] = [];
    // twenty simulated minutes, as 40 s at ×30 were: the bars come once a second (its candle poll).
    // On a day of its own (the demo trades the next trading day's simulated market from 10:00 KST,
    // whose prices the date draws: a day whose twenty minutes held no crossing would fail this
    // test): Friday 2026-11-20, so Monday 2026-11-23
    const fills = await runEngineDemo({
      durationMs: 20_000,
      speed: 60,
      simStart: '2026-11-20T12:00:00+09:00',
      print: (line) => lines.push(line),
    });
    const text = lines.join('\n');
    expect(lines[0]).toMatch(
      /^hoga start: SMA crossover \(1m bars, fast 3, slow 8\) live on 005930, 000660, 035420 .* clock 2026-11-23 10:00 KST /,
    );
    expect(text).toMatch(/ order {2}(BUY|SELL) 10 \d{6} MARKET/);
    expect(text).toMatch(/ accepted .* as broker order /);
    expect(text).toMatch(/ fill {3}(BUY|SELL) 10 \d{6} @ [\d,]+ KRW \(commission [\d,]+/);
    expect(text).toMatch(/ status {2}holdings: .* \| open orders \d+ \| fills \d+/);
    expect(fills).toBeGreaterThan(0);
    expect(text).toMatch(new RegExp(`^summary: \\d+ orders, ${fills} fills, \\d+ bars$`, 'm'));
    // to the won, as the status lines print it (before: 'realized -28000.00, charges 12485.00')
    // and the positions still held at the last prices: net = realized + unrealized − charges
    const summary = text.match(
      /^ {2}KRW: realized (-?[\d,]+), unrealized (-?[\d,]+) \(the strategy's positions at the last prices\), charges ([\d,]+), net (-?[\d,]+)$/m,
    );
    expect(summary).not.toBeNull();
    const [realized, unrealized, charges, net] = (summary as RegExpMatchArray)
      .slice(1)
      .map((n) => Number(n.replaceAll(',', '')));
    expect(net).toBe((realized as number) + (unrealized as number) - (charges as number));
    // the account's holdings on one line, said to be the account's (before: `position 005930 110`
    // lines beside the strategy's PnL, the 100 held before the run included)
    expect(text).toMatch(/^ {2}account holdings: \S+ [\d.]+(, \S+ [\d.]+)*$/m);
    expect(text).not.toMatch(/^ {2}position /m);
    expect(lines.at(-1)).toBe('done: closing the connector and the simulator.');
  }, 120_000);

  it("runs on the last trading day of the simulator's calendars when today is outside them (2028)", async () => {
    // before: it stopped at once on the calendar's 400 unsupported-date
    const lines: string[] = [];
    await runEngineDemo({
      durationMs: 8_000,
      simStart: '2028-03-02T10:00:00+09:00',
      print: (line) => lines.push(line),
    });
    expect(lines[0]).toMatch(/the demo runs on 2027-12-30, the last trading day they hold$/);
    expect(lines[1]).toMatch(/ clock 2027-12-30 10:00 KST /);
    expect(lines.join('\n')).not.toMatch(/risk-market-data-missing/);
    expect(lines.at(-1)).toBe('done: closing the connector and the simulator.');
  }, 120_000);
});
