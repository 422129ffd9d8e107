/**
 * `hoga run` over many symbols (40 here, 200 in use) says what its start is doing and how late its
 * bars can come: its first reads and its warm-up take one request per symbol at the broker's rate
 * limits (40 s and more each with 200 symbols), and its symbols' candle polls share the chart
 * group's 5 requests a second. Before, the run printed its first line and then nothing for as long
 * as its start took, and never said that each symbol's candles were read only every 40 s. A child
 * process against the simulator (rate limits on) on 127.0.0.1.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, root, simWithSymbols, start, until } from './run-process.test-helper.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await closeSims();
});

describe('hoga run with many symbols', () => {
  it('says how long its first reads and warm-up take, and how often each symbol’s candles are read', async () => {
    const sim = await simWithSymbols(40);
    const symbols = Array.from({ length: 40 }, (_, i) => String(400_001 + i)).join(',');
    const db = join(mkdtempSync(join(tmpdir(), 'hoga-many-')), 'hoga.sqlite');
    const r = start(
      ['run', join(root, 'strategies/rsi-pullback.ts'), '--mode', 'paper', '--symbols', symbols],
      env(sim, db),
    );
    closers.push(async () => {
      if (r.child.exitCode === null) {
        r.child.kill('SIGKILL');
        await r.exited;
      }
    });
    expect(await until(r, /each symbol's candles are read about every \d+ s/, 120_000)).toBe(true);
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    const out = r.out.join('');
    expect(out).toMatch(
      /reading the broker's data of 40 symbols before the start \(.*\): about 8 s at its rate limits/,
    );
    expect(out).toMatch(
      /warm-up: reading the 50 bars before the start of 40 symbols \(one candle request each\): about 8 s/,
    );
    expect(out).toContain("40 symbols share the broker's 5 candle requests a second");
    // said in the order it happens
    expect(out.indexOf('reading the broker')).toBeLessThan(out.indexOf('warm-up: reading'));
  }, 180_000);
});
