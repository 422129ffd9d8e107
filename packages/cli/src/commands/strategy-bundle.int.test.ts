/**
 * The `hoga` command as users run it (bin/hoga.js, which runs the bundled dist/hoga.mjs): it loads
 * a strategy's `.ts` file with no build step, from the repository or from a directory of the
 * user's own, and `hoga start` (what `pnpm start` runs) finds the reference strategy. The other CLI
 * tests of strategies run the sources through tsx; these go through the bundle.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureText, hoga, simFlags } from '../hoga-process.test-helper.js';

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-strategy-bundle-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A strategy of the user's own, outside the repository, importing a sibling file by its `.js` name. */
function writeUserStrategy(): string {
  writeFileSync(
    join(dir, 'sizing.ts'),
    'export function lot(quantity: number): number {\n  return Math.max(1, Math.floor(quantity));\n}\n',
  );
  const file = join(dir, 'buy-once.ts');
  writeFileSync(
    file,
    `import type { Bar } from '@hoga/core';
import { Strategy, z } from '@hoga/engine';
import { lot } from './sizing.js';

const Config = z.strictObject({ quantity: z.number().positive().default(3) });

export default class BuyOnce extends Strategy<z.infer<typeof Config>> {
  static readonly configSchema = Config;
  private bought = false;

  override onBar(bar: Bar): void {
    if (this.bought) return;
    this.bought = true;
    this.ctx.buy(bar.symbol, lot(this.config.quantity));
  }
}
`,
  );
  return file;
}

/** `hoga backtest <file> --json` on 005930's daily bars of March 2025, from the user's directory. */
async function backtestMarch(file: string, env: Readonly<Record<string, string>> = {}) {
  const run = await hoga(
    [
      'backtest',
      file,
      '--symbols',
      '005930',
      '--interval',
      '1d',
      '--from',
      '2025-03-03',
      '--to',
      '2025-03-31',
      '--json',
      ...simFlags(sim.url),
      '--db',
      join(dir, 'hoga.sqlite'),
    ],
    { cwd: dir, env },
  );
  const trades = () =>
    (JSON.parse(run.out) as { trades: { symbol: string; side: string; quantity: string }[] }).trades;
  return { run, trades };
}

describe('the bundled hoga command', () => {
  // through the sources too (tsx, as on a Node without type stripping): the engine's sources need
  // the repository's compiler options (inversify's parameter decorators) wherever it is started
  it.each([
    ['the bundle', {}],
    ['the sources through tsx (HOGA_NO_BUNDLE=1)', { HOGA_NO_BUNDLE: '1' }],
  ])(
    'backtests a strategy file of the user’s own, outside the repository, from %s',
    async (_, env) => {
      const { run, trades } = await backtestMarch(writeUserStrategy(), env);
      expect(run.code, run.err).toBe(0);
      expect(trades()).toHaveLength(1);
      expect(trades()[0]).toMatchObject({ symbol: '005930', side: 'BUY', quantity: '3' });
    },
    120_000,
  );

  it('lets a strategy outside the repository import the libraries hoga ships (trading-signals, decimal.js, luxon, zod)', async () => {
    // a user's directory has no node_modules: these resolve to hoga's own copies
    const file = join(dir, 'rsi-once.ts');
    writeFileSync(
      file,
      `import type { Bar } from '@hoga/core';
import { Strategy } from '@hoga/engine';
import { Decimal } from 'decimal.js';
import { DateTime } from 'luxon';
import { RSI } from 'trading-signals';
import { z } from 'zod';

export default class RsiOnce extends Strategy<{ period: number }> {
  // a config schema with zod, as strategies write it (zod's names include reserved words: enum, catch)
  static override configSchema = z.object({ period: z.number().int().min(2).default(3), mode: z.enum(['a', 'b']).catch('a') });
  private readonly rsi = new RSI(this.config.period);
  private bought = false;

  override onBar(bar: Bar): void {
    this.rsi.add(bar.close);
    if (this.bought || !this.rsi.isStable || !DateTime.fromMillis(bar.ts).isValid) return;
    this.bought = true;
    this.ctx.buy(bar.symbol, new Decimal(2));
  }
}
`,
    );
    const { run, trades } = await backtestMarch(file);
    expect(run.code, run.err).toBe(0);
    expect(trades().map((t) => [t.side, t.quantity])).toEqual([['BUY', '2']]);
  }, 120_000);

  it('names the line and column of a syntax error in a strategy file or a file it imports (exit 2)', async () => {
    // Node strips the types itself here: its error's message ("Expression expected") names no place
    const broken = join(dir, 'broken.ts');
    writeFileSync(
      broken,
      `import { Strategy } from '@hoga/engine';
export default class Broken extends Strategy {
  override onBar(bar: { close: number; symbol: string }): void {
    if (bar.close > ) this.ctx.buy(bar.symbol, 1);
  }
}
`,
    );
    const first = await backtestMarch(broken);
    expect(first.run.code).toBe(2);
    expect(failureText(first.run.err)).toContain(
      `strategy file ${broken} failed to load: Expression expected at ${broken}:4:21`,
    );
    // the line itself and a caret under the place, as Node shows them (the run is --json: the
    // failure is its stderr's last line, as JSON)
    expect(failureText(first.run.err)).toContain('    if (bar.close > ) this.ctx.buy(bar.symbol, 1);\n');
    expect(failureText(first.run.err)).toMatch(/\n {20}\^\n/);

    writeFileSync(join(dir, 'bad-sizing.ts'), 'export function lot(q: number): number {\n  return q +;\n}\n');
    const importer = join(dir, 'uses-bad-sizing.ts');
    writeFileSync(
      importer,
      `import { Strategy } from '@hoga/engine';
import { lot } from './bad-sizing.js';
export default class UsesBadSizing extends Strategy {
  size = lot(1);
}
`,
    );
    const second = await backtestMarch(importer);
    expect(second.run.code).toBe(2);
    expect(failureText(second.run.err)).toContain(
      `failed to load: Expression expected at ${join(dir, 'bad-sizing.ts')}:2:`,
    );
  }, 120_000);

  it('says how to write TypeScript that Node cannot strip (an enum, a parameter property), exit 2', async () => {
    // before: only Node's "TypeScript enum is not supported in strip-only mode", which names a mode
    // the user never chose (the same file runs through tsx, in the user's own tests)
    const withEnum = join(dir, 'with-enum.ts');
    writeFileSync(
      withEnum,
      `import { Strategy } from '@hoga/engine';
enum Side { Buy, Sell }
export default class WithEnum extends Strategy {
  side = Side.Buy;
}
`,
    );
    const first = await backtestMarch(withEnum);
    expect(first.run.code).toBe(2);
    expect(first.run.err).toContain(
      `strategy file ${withEnum} failed to load: TypeScript enum is not supported in strip-only mode at ${withEnum}:2:1`,
    );
    expect(first.run.err).toContain(
      "hoga loads a strategy with Node's type stripping, which takes only TypeScript that erases to JavaScript: for an enum, write an object `as const`",
    );
    const withParameter = join(dir, 'with-parameter.ts');
    writeFileSync(
      withParameter,
      `import { Strategy } from '@hoga/engine';
class Lot { constructor(private readonly size: number) {} }
export default class WithParameter extends Strategy {
  lot = new Lot(3);
}
`,
    );
    const second = await backtestMarch(withParameter);
    expect(second.run.code).toBe(2);
    expect(second.run.err).toContain('TypeScript parameter property is not supported in strip-only mode');
    expect(second.run.err).toContain(
      'for a parameter property (constructor(private x: T)), declare the field and assign it in the constructor',
    );
  }, 120_000);

  it("says that a directory or a file that is not a module is not a strategy's .ts file (exit 2)", async () => {
    // before: "Directory import '…' is not supported resolving ES modules imported from
    // …/dist/b-…/chunk-….mjs", and for a JSON file "needs an import attribute of \"type: json\""
    const config = join(dir, 'my.json');
    writeFileSync(config, '{"fast": 3}\n');
    const folder = await backtestMarch(dir);
    expect(folder.run.code).toBe(2);
    expect(folder.run.err).toContain(`strategy file ${dir} is a directory: give the strategy's .ts file`);
    expect(folder.run.err).not.toContain('chunk-');
    const json = await backtestMarch(config);
    expect(json.run.code).toBe(2);
    expect(json.run.err).toContain(
      `strategy file ${config} is not a TypeScript or JavaScript file: give the strategy's .ts file`,
    );
  }, 120_000);

  it('runs `hoga start` (pnpm start) with the repository’s reference strategy and exits 0', async () => {
    const run = await hoga(['start', '--seconds', '4'], { cwd: dir, killAfterMs: 90_000 });
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/hoga start: SMA crossover/);
    expect(run.out).toMatch(/^summary: \d+ orders, \d+ fills, \d+ bars$/m);
  }, 120_000);
});
