/**
 * `hoga run --risk-config` whose `strategies` name no strategy of the run says so at the start (the
 * limits a user wrote for a misspelt or differently cased id protect nothing). Before, a file with
 * `{"strategies": {"RestsBelowMarket": {"maxOrderValueKrw": "1000"}}}` for a run of
 * `rests-below-market.ts:rb` ran at the defaults without a word, its 1,000 KRW limit never applied.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, REST_ARGS, restsBelow, setup, start, until } from './run-process.test-helper.js';

afterEach(closeSims);

describe('hoga run --risk-config', () => {
  it('names the strategies entries that match no strategy of the run, and says nothing when all match', async () => {
    const { sim, db } = await setup();
    const dir = dirname(db);
    const typo = join(dir, 'typo.json');
    writeFileSync(
      typo,
      JSON.stringify({ strategies: { RestsBelowMarket: { maxOrderValueKrw: '1000' }, RB: {} } }),
    );
    const matched = join(dir, 'matched.json');
    writeFileSync(matched, JSON.stringify({ strategies: { rb: { maxOrderValueKrw: '1000' } } }));
    const warning = (file: string) =>
      `hoga: risk configuration ${file}: "strategies" has limits for "RestsBelowMarket", "RB", which are ` +
      'no strategies of this run (its strategies: rb; ids are case-sensitive): they apply to none\n';
    for (const [file, warns] of [
      [typo, true],
      [matched, false],
    ] as const) {
      const r = start(
        ['run', `${restsBelow}:rb`, '--mode', 'paper', '--risk-config', file, ...REST_ARGS],
        env(sim, db),
      );
      // the matched limit of 1,000 KRW denies the strategy's buy
      expect(await until(r, warns ? / order / : / denied /, 60_000), r.out.join('')).toBe(true);
      r.child.kill('SIGTERM');
      expect(await r.exited).toBe(0);
      const out = r.out.join('');
      if (warns) expect(out).toContain(warning(file));
      else {
        expect(out).not.toContain('of this run (its strategies');
        expect(out).toMatch(/denied \S+: risk-max-order-value /);
      }
    }
  }, 150_000);
});
