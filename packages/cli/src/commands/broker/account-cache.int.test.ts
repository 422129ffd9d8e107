/**
 * The account a broker command picks when none is configured (the first of `GET /api/v1/accounts`)
 * is remembered beside the shared token, so commands run back to back ask the broker once: before,
 * each process asked again, and the second within the same second met the ACCOUNT group's limit
 * (1/s), printed "getAccounts: retrying in 1 s … rate-limit-exceeded" and waited.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hoga as runHoga, simFlags } from '../../hoga-process.test-helper.js';
import { useSimulatorAndFolder } from './token-cache.test-helper.js';

const t = useSimulatorAndFolder('hoga-account-cache-');

/** Runs the real `hoga` with a token file in the test's folder and no account configured. */
function hoga(...args: string[]) {
  return runHoga([...args, ...simFlags(t.sim.url)], {
    env: { HOGA_TOKEN_FILE: join(t.dir, 'tokens.json'), HOGA_DB: '' },
  });
}

/** `GET /api/v1/accounts` requests the simulator received (the only ACCOUNT-group endpoint). */
const accountLookups = (): number => t.sim.counters().requestsByGroup.ACCOUNT ?? 0;

describe('the account resolved when none is configured', () => {
  it('is asked of the broker once for commands run back to back, with no retry line', async () => {
    const first = await hoga('buying-power');
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/KRW\s+[\d,]+/);
    expect(accountLookups()).toBe(1);

    const second = await hoga('holdings');
    expect(second.code, second.err).toBe(0);
    expect(second.out).toContain('005930');
    expect(second.err).not.toMatch(/retrying|rate-limit/);
    expect(accountLookups()).toBe(1);
    expect(t.sim.counters().rateLimited).toBe(0);

    // the account seq sits beside the token; the file stays private and holds no secret
    const file = join(t.dir, 'tokens.json');
    const text = readFileSync(file, 'utf8');
    expect(Object.values(JSON.parse(text) as Record<string, { accountSeq?: number }>)[0]?.accountSeq).toBe(1);
    expect(text).not.toContain('sim-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }, 120_000);

  it('is looked up again, once, when the broker no longer knows the remembered one', async () => {
    // a token in the cache (a quote needs no account), then a remembered account the broker lacks
    expect((await hoga('quote', '005930')).code).toBe(0);
    const file = join(t.dir, 'tokens.json');
    const store = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { accountSeq?: number }>;
    for (const entry of Object.values(store)) entry.accountSeq = 999;
    writeFileSync(file, JSON.stringify(store), { mode: 0o600 });

    const run = await hoga('holdings');
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('005930');
    expect(run.err).toBe('');
    expect(accountLookups()).toBe(1);
    // the fresh answer replaced the stale one: the next command asks no more
    expect(Object.values(JSON.parse(readFileSync(file, 'utf8')))[0]).toMatchObject({ accountSeq: 1 });
    expect((await hoga('buying-power')).code).toBe(0);
    expect(accountLookups()).toBe(1);
  }, 120_000);

  it('gives way to --account-seq, which asks nothing and leaves the remembered account alone', async () => {
    expect((await hoga('holdings')).code).toBe(0);
    const run = await hoga('holdings', '--account-seq', '2');
    expect(run.code, run.err).toBe(0);
    expect(accountLookups()).toBe(1);
    const file = join(t.dir, 'tokens.json');
    expect(Object.values(JSON.parse(readFileSync(file, 'utf8')))[0]).toMatchObject({ accountSeq: 1 });
  }, 120_000);
});
