import { describe, expect, it } from 'vitest';
import { runStartDemo } from './start-demo.js';

describe('runStartDemo', () => {
  it('shows the account, quotes of three symbols and one order filling through orderUpdates$', async () => {
    const lines: string[] = [];
    await runStartDemo({ watchMs: 2_500, print: (line) => lines.push(line) });
    const text = lines.join('\n');
    expect(text).toMatch(/^account 1 \(\d+, BROKERAGE\)$/m);
    expect(text).toMatch(/^ {2}005930 +100 @ /m);
    for (const symbol of ['005930', '000660', '035420']) {
      expect(text).toMatch(
        new RegExp(
          `^\\d\\d:\\d\\d:\\d\\d  ${symbol}  last +[\\d,]+  bid [\\d,]+ × [\\d,]+  ask [\\d,]+ × [\\d,]+$`,
          'm',
        ),
      );
    }
    expect(text).toMatch(/placing BUY 1 000660 LIMIT @ [\d,]+ \(the best ask\), clientOrderId demo-/);
    expect(text).toMatch(/order accepted/);
    expect(text).toMatch(/filled 1 @ [\d,]+ KRW \(commission [\d,]+\), 1 of 1 filled/);
    expect(lines.at(-1)).toBe('done: closing the connector and the simulator.');
  });

  it("runs on the last trading day of the simulator's calendars when today is outside them (2028)", async () => {
    // before: it stopped at once on the calendar's 400 unsupported-date
    const lines: string[] = [];
    await runStartDemo({
      watchMs: 1_500,
      simStart: '2028-03-02T10:00:00+09:00',
      print: (l) => lines.push(l),
    });
    expect(lines).toContain(
      "hoga: today is outside the simulator's market calendars (2026-01-01 to 2027-12-31): the demo runs on 2027-12-30, the last trading day they hold",
    );
    expect(lines.join('\n')).toMatch(/clock 2027-12-30 10:0\d KST/);
    expect(lines.at(-1)).toBe('done: closing the connector and the simulator.');
  });
});
