/**
 * Shared pieces of the conformance suite: a simulator per test, the
 * envelope-header check, order helpers, and the error-case table runner.
 * @module
 */
import { Decimal } from '@hoga/core';
import { afterEach, expect, it } from 'vitest';
import type { SimulatorHandle, SimulatorOptions } from '../src/index.js';
import { outcome, type SimResponse, startTestSimulator, TestClient } from './sim-client.js';

/** A UUID as `X-Request-Id` carries it. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A running simulator and a client of account 1. */
export interface Ctx {
  readonly sim: SimulatorHandle;
  readonly client: TestClient;
}

/** Registers the cleanup and returns a starter of simulators that are closed after each test. */
export function useSimulators(): (options?: SimulatorOptions) => Promise<Ctx> {
  const running: SimulatorHandle[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.close()));
  });
  return async (options = {}) => {
    const sim = await startTestSimulator(options);
    running.push(sim);
    return { sim, client: new TestClient(sim.url) };
  };
}

/** The daily limits of a KR symbol now. */
export async function limits(
  client: TestClient,
  symbol: string,
): Promise<{ upper: Decimal; lower: Decimal }> {
  const res = await client.get('/api/v1/price-limits', { symbol });
  expect(res.status).toBe(200);
  return {
    upper: new Decimal(res.body.result.upperLimitPrice),
    lower: new Decimal(res.body.result.lowerLimitPrice),
  };
}

/** A KR limit buy resting at the lower limit (it cannot fill unless the price crashes); returns its id. */
export async function restingBuy(client: TestClient, symbol = '005930', quantity = '1'): Promise<string> {
  const { lower } = await limits(client, symbol);
  const res = await client.post('/api/v1/orders', {
    symbol,
    side: 'BUY',
    orderType: 'LIMIT',
    quantity,
    price: lower.toFixed(),
  });
  expect(outcome(res)).toBe('200');
  return res.body.result.orderId as string;
}

/** A market buy. */
export function marketBuy(client: TestClient, symbol: string, quantity: string): Promise<SimResponse> {
  return client.post('/api/v1/orders', { symbol, side: 'BUY', orderType: 'MARKET', quantity });
}

/** Checks `X-Request-Id`, the `X-RateLimit-*` headers and, on errors, `error.requestId`. */
export function expectEnvelopeHeaders(res: SimResponse): void {
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toMatch(UUID);
  expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
  if (res.status !== 200) expect(res.body.error.requestId).toBe(requestId);
}

/** One row of an error table: the expected `status code`, why, how to provoke it, simulator options. */
export type ErrorCase = readonly [
  expected: string,
  why: string,
  run: (ctx: Ctx) => Promise<SimResponse>,
  options?: SimulatorOptions,
];

/** Runs an error table: each row on a fresh simulator, checking the code and the envelope. */
export function itAnswersErrors(
  withSim: (options?: SimulatorOptions) => Promise<Ctx>,
  cases: readonly ErrorCase[],
): void {
  const rows = cases.map(([expected, why, run, options]) => ({ expected, why, run, options }));
  it.each(rows)('answers $expected for $why', async ({ expected, run, options }) => {
    const ctx = await withSim(options);
    const res = await run(ctx);
    expect(outcome(res)).toBe(expected);
    if (!expected.startsWith('404 edge-blocked')) expectEnvelopeHeaders(res);
    else expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
    expect(typeof res.body.error.message).toBe('string');
  });
}
