/**
 * Rough edges a strategy author met, as `hoga backtest` in a child process over the
 * simulator's candles says them:
 * - a file whose default export is not a strategy class (an object, a function, a class not
 *   extending `Strategy`) but which also exports one by name exits 2 naming the file and what its
 *   default export is. Before, the named class ran without a word; and a file of two named strategy
 *   classes and no default said "exports 2 strategy classes" without naming them;
 * - `ctx.modify(id, {})` (or `{price: undefined}`, or no change at all) throws an error naming the
 *   call and what is missing, and the run stops as for any wrong call to the context. Before, a
 *   modify of nothing went to the venue (the broker) as one at the order's own price; a modify at
 *   the order's own price is still sent (the broker's API has no rule against it);
 * - `--config` given to a strategy without a `configSchema` is passed on, with a warning naming the
 *   strategy and that its config is not checked. Before, taken unchecked without a word.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import { hogaBacktest as hoga } from './backtest-runs.test-helper.js';
import { useCliSimulator } from './cli-simulator.test-helper.js';

const scratch = useCliSimulator('hoga-backtest-author-');
const db = join(scratch.dir, 'hoga.sqlite');
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

/** A strategy class exported by name, saying that it runs and what config it got. */
const NAMED = `import { Strategy } from '@hoga/engine';
export class Named extends Strategy {
  override onStart(): void {
    this.ctx.log.info('Named runs with config ' + JSON.stringify(this.config));
  }
}
`;

/** Writes `source` as `name.ts` in the scratch folder. */
function strategyFile(name: string, source: string): string {
  const file = join(scratch.dir, `${name}.ts`);
  writeFileSync(file, source);
  return file;
}

/** `hoga backtest <file> …` over 005930's daily bars of three days. */
function backtest(file: string, ...more: string[]) {
  return hoga([
    file,
    ...['--symbols', '005930', '--interval', '1d', '--from', '2026-11-03', '--to', '2026-11-05'],
    ...simFlags(scratch.sim.url),
    ...['--db', db, ...more],
  ]);
}

/**
 * `hoga backtest` as a user runs it (the bundle): through tsx, which compiled the CLI's sources in
 * each child, seconds each on a busy machine; the limit kept for a loaded machine.
 */
const TSX_CHILD = { timeout: 180_000 };

describe("hoga backtest: a strategy file's exports", TSX_CHILD, () => {
  it('exits 2 when the default export is not a strategy class, naming the file, what it is and the named class', async () => {
    const cases: [string, string][] = [
      ['export default { foo: 1 };', 'an object, not a strategy class'],
      ['export default function () {}', 'a function, not a strategy class'],
      [
        'export default class NotAStrategy { onBar(): void {} }',
        'class NotAStrategy, which does not extend Strategy',
      ],
    ];
    for (const [i, [line, what]] of cases.entries()) {
      const file = strategyFile(`default-${i}`, `${NAMED}${line}\n`);
      const result = await backtest(file);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`strategy file ${file}: its default export is ${what};`);
      expect(result.stderr).toContain('it also exports the strategy class Named: export it as the default');
      expect(result.stderr).not.toContain('Named runs');
    }
  });

  it('exits 2 for two named strategy classes and no default, naming both', async () => {
    const file = strategyFile('two', `${NAMED}export class Other extends Named {}\n`);
    const result = await backtest(file);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `strategy file ${file} exports 2 strategy classes, Named and Other, and none as the default: export the one to run as the default (export default class Other …)`,
    );
  });

  it('runs the concrete strategy class of a file that also exports its abstract base, with no default', async () => {
    const file = strategyFile(
      'abstract-base',
      `import { Strategy } from '@hoga/engine';
export abstract class Base extends Strategy {
  protected abstract label(): string;
  override onStart(): void {
    this.ctx.log.info(this.label() + ' runs');
  }
}
// a comment does not make a class abstract: an abstract class Mine would not run, this one does
export class Mine extends Base {
  protected label(): string {
    return 'Mine';
  }
}
`,
    );
    const result = await backtest(file);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Mine runs');
  });

  it('exits 2 for two concrete classes of one abstract base and no default, naming the concrete ones only', async () => {
    const file = strategyFile(
      'abstract-two',
      `import { Strategy } from '@hoga/engine';
export abstract class Base extends Strategy {}
export class Fast extends Base {}
export class Slow extends Base {}
`,
    );
    const result = await backtest(file);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `strategy file ${file} exports 2 strategy classes, Fast and Slow, and none as the default: export the one to run as the default (export default class Fast …)`,
    );
  });

  it('exits 2 when the default export is an abstract class, naming the concrete one to export instead', async () => {
    const file = strategyFile(
      'abstract-default',
      `import { Strategy } from '@hoga/engine';
export default abstract class Base extends Strategy {
  protected abstract label(): string;
  override onStart(): void {
    this.ctx.log.info(this.label() + ' runs');
  }
}
export class Mine extends Base {
  protected label(): string {
    return 'Mine';
  }
}
`,
    );
    const result = await backtest(file);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `strategy file ${file}: its default export is the abstract class Base, which cannot run; it also exports the strategy class Mine: export it as the default (export default class Mine …)`,
    );
  });

  it('exits 2 for a file exporting only an abstract strategy class, naming it', async () => {
    const file = strategyFile(
      'abstract-only',
      `import { Strategy } from '@hoga/engine';\nexport abstract class Base extends Strategy {}\n`,
    );
    const result = await backtest(file);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `strategy file ${file} exports only the abstract strategy class Base: export a class extending it that can run`,
    );
  });

  it('still runs the only named strategy class of a file without a default export', async () => {
    const result = await backtest(strategyFile('named', NAMED));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Named runs with config {}');
  });
});

/** On its first bar, a limit buy at the close, then the modify its config's `change` names. */
const MODIFY = `
import type { Bar, OrderEvent } from '@hoga/core';
import { Strategy, z } from '@hoga/engine';

const Config = z.object({ change: z.string() });

export default class Modifier extends Strategy<z.infer<typeof Config>> {
  static readonly configSchema = Config;
  private done = false;
  override onBar(bar: Bar): void {
    if (this.done) return;
    this.done = true;
    const id = this.ctx.buy(bar.symbol, 1, bar.close);
    if (this.config.change === 'empty') this.ctx.modify(id, {});
    if (this.config.change === 'undefined-price') this.ctx.modify(id, { price: undefined });
    if (this.config.change === 'confirm-only') this.ctx.modify(id, { confirmHighValue: true });
    if (this.config.change === 'none') this.ctx.modify(id, undefined as never);
    if (this.config.change === 'same-price') this.ctx.modify(id, { price: bar.close });
  }
  override onOrderEvent(event: OrderEvent): void {
    this.ctx.log.info('event ' + event.type + ('code' in event ? ' ' + event.code : ''));
  }
}
`;

describe('hoga backtest: ctx.modify without a change', TSX_CHILD, () => {
  const file = strategyFile('modifier', MODIFY);
  const run = (change: string) => {
    const config = join(scratch.dir, `modify-${change}.json`);
    writeFileSync(config, JSON.stringify({ change }));
    return backtest(file, '--config', config);
  };

  it('stops the run on ctx.modify(id, {}), naming the call and that neither a price nor a quantity was given', async () => {
    const cases: [string, string][] = [
      ['empty', 'found {}'],
      ['undefined-price', 'found {price: undefined}'],
      ['confirm-only', 'found {confirmHighValue: true}'],
    ];
    for (const [change, found] of cases) {
      const result = await run(change);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `strategy Modifier threw in onBar: modify of order \\S+: expected a new price or quantity, ${found.replace(/[{}]/g, '\\$&')}`,
        ),
      );
      expect(result.stderr).not.toContain('event OrderModified');
    }
  });

  it('stops the run on ctx.modify(id) with no change at all, naming the call', async () => {
    const result = await run('none');
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(
      /strategy Modifier threw in onBar: modify of order \S+: expected a change \({price\?, quantity\?}\), found undefined/,
    );
    expect(result.stderr).not.toContain('Cannot read properties');
  });

  it("sends a modify at the order's own price, as the broker's API takes it", async () => {
    const result = await run('same-price');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('event OrderModified');
  });
});

describe('hoga backtest: --config for a strategy without a configSchema', TSX_CHILD, () => {
  it('passes the config on unchecked and says so on stderr, naming the strategy and the file', async () => {
    const file = strategyFile('schemaless', `${NAMED}export default Named;\n`);
    const config = join(scratch.dir, 'schemaless.json');
    writeFileSync(config, JSON.stringify({ quantity: 5 }));
    const result = await backtest(file, '--config', config);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Named runs with config {"quantity":5}');
    expect(result.stderr).toContain(
      `hoga: warning: strategy Named declares no configSchema: the config of ${config} is passed on as this.config unchecked`,
    );
    // without --config: no warning
    const bare = await backtest(file);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stderr).not.toContain('declares no configSchema');
  });
});

describe("hoga backtest --json: a strategy's console output", TSX_CHILD, () => {
  it('goes to stderr, leaving stdout one JSON document', async () => {
    // before: console.log of a strategy (at its import or in a hook) came first on stdout, and
    // `hoga backtest … --json | jq` failed to parse it
    const file = strategyFile(
      'console-talker',
      `import { Strategy } from '@hoga/engine';
console.log('loaded');
export default class ConsoleTalker extends Strategy {
  override onStart(): void {
    console.log('started');
    console.info('info too');
  }
}
`,
    );
    const result = await backtest(file, '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(() => JSON.parse(result.stdout)).not.toThrow();
    expect(result.stderr).toContain('loaded\n');
    expect(result.stderr).toContain('started\n');
    expect(result.stderr).toContain('info too\n');
  });
});

describe('hoga backtest: a bad config of one of two instances of a class', TSX_CHILD, () => {
  it('names the instance by its id and says it had no --config', async () => {
    // before: "invalid config for strategy Sized:" for the second of `sized.ts sized.ts:small`
    // given one --config: which of the two was not said, nor that it got no file
    const file = strategyFile(
      'sized',
      `import { Strategy, z } from '@hoga/engine';
const Config = z.object({ qty: z.number().int().positive() });
export default class Sized extends Strategy<z.infer<typeof Config>> {
  static readonly configSchema = Config;
}
`,
    );
    const config = join(scratch.dir, 'sized.json');
    writeFileSync(config, '{"qty": 2}\n');
    const result = await backtest(file, `${file}:small`, '--config', config);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      'invalid config for strategy small (class Sized; no --config given):\n  qty: found nothing, expected number',
    );
  });

  it('says a lone strategy had no --config when its schema needs one, and keeps a JSON error on one line', async () => {
    // before: "invalid config for strategy Needs:" with no word of the missing --config
    const file = strategyFile(
      'needs',
      `import { Strategy, z } from '@hoga/engine';
export default class Needs extends Strategy<{ qty: number }> {
  static readonly configSchema = z.object({ qty: z.number().int().positive() });
}
`,
    );
    const bare = await backtest(file);
    expect(bare.code, bare.stderr).toBe(2);
    expect(bare.stderr).toContain(
      'invalid config for strategy Needs (no --config given):\n  qty: found nothing, expected number',
    );
    // before: Node's message quoted the file's text with its newline, splitting the line in two
    const config = join(scratch.dir, 'not-json.json');
    writeFileSync(config, 'not json\n');
    const broken = await backtest(file, '--config', config);
    expect(broken.code, broken.stderr).toBe(2);
    const line = broken.stderr.split('\n').find((l) => l.includes('is not JSON'));
    expect(line).toContain(`--config: ${config} is not JSON: `);
    expect(line).toContain('"not json\\n"');
  });
});

describe(
  'hoga backtest: a callback the strategy left behind calls the context after the run',
  TSX_CHILD,
  () => {
    it('does nothing, says so on stderr, and the report is printed (exit 0)', async () => {
      // a setTimeout set in onStop, firing while hoga prints the report. For a while ctx.buy threw
      // there: no run catches a callback's exception any more, and the process died (exit 1, a stack
      // trace) before the report. Before that, the buy went nowhere without a word.
      const file = strategyFile(
        'late-caller',
        `import { Strategy } from '@hoga/engine';
export default class LateCaller extends Strategy {
  override onStop(): void {
    setTimeout(() => {
      this.ctx.buy('005930', 1);
      this.ctx.buy('005930', 2);
    }, 0);
  }
}
`,
      );
      const result = await backtest(file, '--json');
      expect(result.code, result.stderr).toBe(0);
      expect(() => JSON.parse(result.stdout)).not.toThrow();
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const said = result.stderr.split('\n').filter((l) => l.includes('ctx.buy after the run ended'));
      expect(said, result.stderr).toHaveLength(1);
      expect(said[0]).toContain(
        'strategy LateCaller: ctx.buy after the run ended (onStop has run): nothing is placed',
      );
    });
  },
);
