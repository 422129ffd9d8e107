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
});
