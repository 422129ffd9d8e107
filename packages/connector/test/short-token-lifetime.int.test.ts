/**
 * A broker whose tokens live shorter than the connector's renewal margin (`tokenRenewBeforeMs`,
 * 5 minutes): `hoga sim --token-ttl 120`, or a broker that changes its lifetime.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimFixture, startFixture } from './simulator-fixture.js';

let fx: SimFixture;

beforeAll(async () => {
  fx = await startFixture({ rateLimit: false, tokenTtlSeconds: 120 });
});
afterAll(async () => {
  await fx.close();
});

describe('tokens that live 2 minutes', () => {
  it('are used for many calls, not issued anew for every call (each issue revokes the last)', async () => {
    const before = fx.sim.counters().tokensIssued;
    for (let i = 0; i < 5; i++) await fx.client.getPrices(['005930']);
    expect(fx.sim.counters().tokensIssued - before).toBe(1);
    expect(fx.client.tokens.issuedCount).toBe(1);
  });
});
