/**
 * The broker model's rule-case table over HTTP: each row on a fresh simulator whose account holds
 * the row's cash, holdings and open orders (a state file, then real order requests), whose clock
 * stands at the row's moment and whose last price is the row's. The simulator must answer the
 * same verdict as the model (`rule-cases.test.ts` in broker-model runs the same rows).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROKER_RULE_CASES, type RuleCase } from '@hoga/broker-model';
import { brokerErrorStatus } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../src/index.js';
import { type Json, outcome, type SimResponse, startTestSimulator, TestClient } from './sim-client.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A state file holding account 1 with the row's cash and holdings (account 2 empty). */
async function stateFileOf(row: RuleCase): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hoga-rule-case-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const holdings = Object.fromEntries(
    Object.entries(row.account.holdings).map(([symbol, quantity]) => [
      symbol,
      { quantity, averagePrice: symbol === row.instrument.symbol ? row.moment.lastPrice : '1' },
    ]),
  );
  const state = {
    version: 1,
    sequence: 0,
    lastAdvancedMs: null,
    accounts: [
      { accountSeq: 1, accountNo: '12345678901', cash: row.account.cash, holdings },
      { accountSeq: 2, accountNo: '12345678902', cash: { KRW: '0', USD: '0' }, holdings: {} },
    ],
    orders: [],
    idempotency: [],
    counters: { ordersCreated: 0, ordersPerClientOrderId: {} },
  };
  const path = join(dir, 'state.json');
  await writeFile(path, JSON.stringify(state));
  return path;
}

async function startFor(row: RuleCase): Promise<{ sim: SimulatorHandle; client: TestClient }> {
  const statePath = await stateFileOf(row);
  const sim = await startTestSimulator({ start: row.setupAt ?? row.moment.at, statePath });
  cleanups.push(() => sim.close());
  return { sim, client: new TestClient(sim.url) };
}

async function setLastPrice(client: TestClient, row: RuleCase): Promise<void> {
  if (row.instrument.flags.krxSuspended) return; // a suspended stock's price is frozen
  await client.control('POST', '/_sim/prices', {
    symbol: row.instrument.symbol,
    price: row.moment.lastPrice,
  });
}

/** The simulator's reference data agrees with the row's trading flags. */
async function expectFlags(client: TestClient, row: RuleCase): Promise<void> {
  const res = await client.get('/api/v1/stocks', { symbols: row.instrument.symbol });
  expect(res.status).toBe(200);
  const info: Json = res.body.result[0];
  expect(info.currency).toBe(row.instrument.currency);
  expect(info.securityType).toBe(row.instrument.securityType);
  if (row.instrument.market === 'KR') {
    expect(info.koreanMarketDetail.nxtSupported).toBe(row.instrument.flags.nxtSupported);
    expect(info.koreanMarketDetail.krxTradingSuspended).toBe(row.instrument.flags.krxSuspended);
    expect(info.koreanMarketDetail.nxtTradingSuspended).toBe(row.instrument.flags.nxtSuspended);
  } else {
    expect(info.koreanMarketDetail).toBeNull();
  }
}

/** Places the row's open orders; answers their ids. */
async function placeOpenOrders(client: TestClient, row: RuleCase): Promise<string[]> {
  const ids: string[] = [];
  for (const order of row.account.openOrders) {
    const res = await client.post('/api/v1/orders', { ...order, confirmHighValueOrder: true });
    expect(outcome(res), `open order ${JSON.stringify(order)}`).toBe('200');
    ids.push(res.body.result.orderId as string);
  }
  return ids;
}

function modifyBody(row: RuleCase): Record<string, unknown> {
  if (row.action.kind !== 'modify') throw new Error(`${row.id} is not a modify`);
  return { ...row.action.request };
}

/** Brings the target to the row's state: cancelled or modified once, or checked filled or pending. */
async function prepareTarget(client: TestClient, row: RuleCase, id: string): Promise<void> {
  if (row.action.kind === 'create') return;
  const status = row.action.targetStatus;
  if (status === 'CANCELED') expect(outcome(await client.post(`/api/v1/orders/${id}/cancel`))).toBe('200');
  if (status === 'REPLACED') {
    expect(outcome(await client.post(`/api/v1/orders/${id}/modify`, modifyBody(row)))).toBe('200');
  }
  const detail = await client.get(`/api/v1/orders/${id}`);
  expect(detail.status).toBe(200);
  expect(detail.body.result.status).toBe(status);
}

async function send(client: TestClient, row: RuleCase, targetId: string | undefined): Promise<SimResponse> {
  const action = row.action;
  if (action.kind === 'create') return client.post('/api/v1/orders', action.order);
  if (targetId === undefined) throw new Error(`${row.id}: a ${action.kind} needs an open order`);
  if (action.kind === 'cancel') return client.post(`/api/v1/orders/${targetId}/cancel`);
  return client.post(`/api/v1/orders/${targetId}/modify`, modifyBody(row));
}

describe('the broker rule-case table over HTTP', () => {
  it.each(BROKER_RULE_CASES.map((c) => ({ ...c, label: `${c.id} ${c.description}` })))(
    '$label: $expected',
    async (row) => {
      const { client } = await startFor(row);
      await expectFlags(client, row);
      await setLastPrice(client, row);
      const ids = await placeOpenOrders(client, row);
      if (row.setupAt !== undefined) {
        await client.control('POST', '/_sim/clock', { at: row.moment.at });
        await setLastPrice(client, row);
      }
      const target = ids[0];
      if (target !== undefined) await prepareTarget(client, row, target);
      const res = await send(client, row, target);
      if (row.expected === 'accepted') {
        expect(outcome(res)).toBe('200');
        return;
      }
      expect(outcome(res)).toBe(`${brokerErrorStatus(row.expected)} ${row.expected}`);
    },
  );
});
