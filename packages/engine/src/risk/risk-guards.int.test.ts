/**
 * The owner's guards against the simulator over HTTP, with the risk module in front of the live
 * order manager: a tight loop of orders is throttled by hoga before the broker's rate limit or its
 * abuse rule, and a strategy that loses past its daily limit is halted and its open orders
 * cancelled at the broker.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrokerApiError, BrokerClient } from '@hoga/connector';
import { type ClientOrderId, Decimal, type OrderEvent } from '@hoga/core';
import type { SimulatorHandle } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { SubmitOrder } from '../commands/order-commands.js';
import { modifyTo, startFrozenSimulator, submitLimit } from '../orders/live-fixture.test-helper.js';
import { OrderManager } from '../orders/order-manager.js';
import { createRiskModule, type RiskModule } from './risk-module.js';

interface Rig {
  readonly sim: SimulatorHandle;
  readonly client: BrokerClient;
  readonly db: HogaDatabase;
  readonly manager: OrderManager;
  readonly risk: RiskModule;
  readonly events: OrderEvent[];
}

const rigs: { rig: Rig; dir: string }[] = [];
afterEach(async () => {
  for (const { rig, dir } of rigs.splice(0)) {
    rig.risk.sender.dispose();
    rig.client.close();
    rig.db.close();
    await rig.sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The simulator (rate limits on, clock frozen at Monday 10:00 KST), a store, the order manager and the risk module. */
async function rig(config: unknown): Promise<Rig> {
  const { sim, clock, client } = await startFrozenSimulator({ rateLimit: true });
  const dir = mkdtempSync(join(tmpdir(), 'hoga-risk-'));
  const db = HogaDatabase.open(join(dir, 'hoga.sqlite'), { clock });
  const manager = new OrderManager(client, db, clock);
  const risk = createRiskModule({ clock, config, db, mode: 'live', broker: client, sink: manager });
  const events: OrderEvent[] = [];
  risk.sender.events$.subscribe((e) => events.push(e));
  const r = { sim, client, db, manager, risk, events };
  rigs.push({ rig: r, dir });
  return r;
}

const limitBuy = (strategy: string, symbol: string, quantity: string, price: string): SubmitOrder =>
  submitLimit(symbol, 'BUY', quantity, price, strategy);

const marketBuy = (strategy: string, symbol: string, quantity: string): SubmitOrder =>
  submitLimit(symbol, 'BUY', quantity, undefined, strategy);

/**
 * What the simulator says to a high-value limit buy of `quantity` 000660 at `price` sent to it
 * directly (not through the risk module): its error's message, or `accepted`.
 */
function brokerSays(client: BrokerClient, quantity: Decimal, price: Decimal): Promise<string> {
  return client
    .createOrder({
      symbol: '000660',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity,
      price,
      confirmHighValueOrder: true,
    })
    .then(
      () => 'accepted',
      (e: BrokerApiError) => e.message,
    );
}

describe('risk module against the simulator', () => {
  it('throttles a tight loop of orders at 30 actions a minute per symbol, before any 429 or abuse', async () => {
    const r = await rig({ defaults: { maxOpenOrders: 100 } });
    const verdicts: string[] = [];
    for (let i = 0; i < 60; i++) {
      // far below the market: nothing fills, every order stays open
      const verdict = await r.risk.sender.send(limitBuy('looper', '005930', '1', String(50_000 + i * 100)));
      verdicts.push(verdict.accepted ? 'accepted' : verdict.code);
    }
    expect(verdicts.filter((v) => v === 'accepted')).toHaveLength(30);
    expect(verdicts.slice(30).every((v) => v === 'risk-throttle-symbol')).toBe(true);
    const denial = r.events.find((e) => e.type === 'OrderDenied');
    expect(denial).toMatchObject({ code: 'risk-throttle-symbol', strategyId: 'looper' });
    expect(denial?.type === 'OrderDenied' ? denial.reason : '').toMatch(
      /30 order actions per 60 s reached; frees at 2026-11-23 10:01:00 KST \(Mon\), in \d+ s$/,
    );
    const counters = r.sim.counters();
    expect(counters.ordersCreated).toBe(30);
    expect(counters.rateLimited).toBe(0);
    // denied orders are stored with their denial, nothing was sent for them
    const stored = r.db.orders.list({}).filter((o) => o.state === 'DENIED');
    expect(stored).toHaveLength(30);
    expect(stored[0]?.rejectReason).toMatch(/^risk-throttle-symbol: /);
    // a minute later the window has room again
    r.sim.advanceClock(60_000);
    expect((await r.risk.sender.send(limitBuy('looper', '005930', '1', '50000'))).accepted).toBe(true);
  }, 60_000);

  it('stops the 11th modify of the same order within a minute (cancel/replace loop guard)', async () => {
    const r = await rig({});
    const order = limitBuy('fidget', '005930', '1', '50000');
    expect((await r.risk.sender.send(order)).accepted).toBe(true);
    const verdicts: string[] = [];
    for (let i = 1; i <= 11; i++) {
      const verdict = await r.risk.sender.send(modifyTo(order, String(50_000 + i * 100), '1'));
      verdicts.push(verdict.accepted ? 'accepted' : verdict.code);
      await r.manager.idle();
    }
    expect(verdicts.slice(0, 10).every((v) => v === 'accepted')).toBe(true);
    expect(verdicts[10]).toBe('risk-cancel-replace-loop');
    expect(r.sim.counters().rateLimited).toBe(0);
    // the refusal says the modify never reached the broker
    const refused = r.events.filter((e) => e.type === 'OrderModifyRejected');
    expect(refused.map((e) => [e.code, 'sent' in e ? e.sent : '-'])).toEqual([
      ['risk-cancel-replace-loop', false],
    ]);
  }, 60_000);

  it('refuses a cancel of an order it does not know before the broker, and says it was not sent', async () => {
    const r = await rig({});
    const verdict = await r.risk.sender.send({
      type: 'CancelOrder',
      commandId: 'cancel-unknown',
      strategyId: 'fidget' as SubmitOrder['strategyId'],
      tsInit: Date.parse('2026-11-23T10:00:00+09:00'),
      clientOrderId: 'never-placed' as ClientOrderId,
    });
    expect(verdict.accepted ? 'accepted' : verdict.code).toBe('order-not-found');
    const refused = r.events.filter((e) => e.type === 'OrderCancelRejected');
    expect(refused.map((e) => [e.clientOrderId, e.code, 'sent' in e ? e.sent : '-'])).toEqual([
      ['never-placed', 'order-not-found', false],
    ]);
    // journalled as it was told, sent false with it
    const journalled = r.db.journal.readFrom(1).filter((e) => e.type === 'OrderCancelRejected');
    expect(journalled.map((e) => (e.payload as { sent?: unknown }).sent)).toEqual([false]);
  }, 60_000);

  it('names the valid prices when it denies a KR price off the tick grid or past the day’s limits, as the broker then says', async () => {
    const r = await rig({});
    const limits = await r.client.getPriceLimits('005930');
    const upper = limits.upperLimitPrice as Decimal;
    const lower = limits.lowerLimitPrice as Decimal;
    const reasons: string[] = [];
    for (const price of [upper.minus(1), upper.plus(100), lower.minus(100)]) {
      const order = limitBuy('picky', '005930', '1', price.toFixed());
      const verdict = await r.risk.sender.send(order);
      reasons.push(verdict.accepted ? 'accepted' : `${verdict.code}: ${verdict.reason}`);
      // the broker, asked directly, refuses it in the same words
      const broker = await r.client
        .createOrder({
          symbol: '005930',
          side: 'BUY',
          orderType: 'LIMIT',
          quantity: new Decimal(1),
          price,
        })
        .then(
          () => 'accepted',
          (e: BrokerApiError) => `${e.code}: ${e.message}`,
        );
      expect(broker).toContain(reasons.at(-1)?.split(': ').slice(1).join(': '));
    }
    // 005930 ticks by 100 won above 50,000 and by 50 below it (KRX)
    const limitsText = `${lower.toFixed()} to ${upper.toFixed()}`;
    expect(reasons).toEqual([
      `invalid-request: price ${upper.minus(1).toFixed()} is off the tick grid (tick 100 at this price): the nearest prices are ${upper.minus(100).toFixed()} and ${upper.toFixed()}`,
      `price-out-of-range: price ${upper.plus(100).toFixed()} is outside the daily limits, ${limitsText}`,
      `price-out-of-range: price ${lower.minus(100).toFixed()} is outside the daily limits, ${limitsText}`,
    ]);
    expect(r.sim.counters().ordersCreated).toBe(0);
  }, 60_000);

  it('names the value and the maximum when it denies an order of 3,000,000,000 KRW or more, as the broker then says', async () => {
    const r = await rig({});
    const price = (await r.client.getPriceLimits('000660')).lowerLimitPrice as Decimal;
    const quantity = new Decimal(3_000_000_000).dividedBy(price).ceil();
    const value = quantity.times(price).toFixed();
    const big = limitBuy('whale', '000660', quantity.toFixed(), price.toFixed());
    const order: SubmitOrder = { ...big, intent: { ...big.intent, confirmHighValue: true } };
    const verdict = await r.risk.sender.send(order);
    const reason = `An order worth ${value} KRW is at or over the maximum order amount of 3000000000 KRW`;
    expect(verdict).toMatchObject({ accepted: false, code: 'max-order-amount-exceeded', reason });
    expect(await brokerSays(r.client, quantity, price)).toContain(reason);
  }, 60_000);

  it('names the buying power when it denies a buy it does not cover, as the broker then says', async () => {
    const r = await rig({
      defaults: {
        maxOrderValueKrw: '1000000000',
        maxPositionValuePerSymbolKrw: '1000000000',
        maxTotalPositionValueKrw: '1000000000',
      },
    });
    const price = (await r.client.getPriceLimits('000660')).lowerLimitPrice as Decimal;
    const power = (await r.client.getBuyingPower('KRW')).cashBuyingPower;
    const quantity = power.dividedBy(price).floor().plus(1);
    const big = limitBuy('spender', '000660', quantity.toFixed(), price.toFixed());
    const order: SubmitOrder = { ...big, intent: { ...big.intent, confirmHighValue: true } };
    const verdict = await r.risk.sender.send(order);
    expect(verdict).toMatchObject({ accepted: false, code: 'insufficient-buying-power' });
    const reason = verdict.accepted ? '' : verdict.reason;
    expect(reason).toMatch(
      new RegExp(
        `^The order needs \\d+ KRW with its commission, more than the cash buying power of ${power.toFixed()} KRW$`,
      ),
    );
    expect(await brokerSays(r.client, quantity, price)).toContain(reason);
  }, 60_000);

  it('tells an amount order of a KR stock (hoga order buy 005930 --amount) in the intent’s words', async () => {
    const r = await rig({});
    const base = limitBuy('cli', '005930', '1', '60000');
    // as the CLI builds it: the broker's rules judge its shape
    const { quantity: _q, price: _p, ...rest } = base.intent as unknown as Record<string, unknown>;
    const intent = { ...rest, sizing: 'AMOUNT', orderType: 'MARKET', amount: new Decimal(100_000) };
    const verdict = await r.risk.sender.send({ ...base, intent: intent as unknown as SubmitOrder['intent'] });
    // before: 'orderAmount is only for US market orders'
    expect(verdict).toMatchObject({
      accepted: false,
      code: 'invalid-request',
      reason: 'amount is only for US market buys, found 100000 for 005930 (KR): give a quantity',
    });
    expect(r.sim.counters().ordersCreated).toBe(0);
  }, 60_000);

  it('halts a strategy that loses past its daily limit and cancels its open orders at the broker', async () => {
    const r = await rig({ strategies: { loser: { dailyLossLimitKrw: '300000' } } });
    const entry = marketBuy('loser', '005930', '100');
    expect((await r.risk.sender.send(entry)).accepted).toBe(true);
    for (let i = 0; i < 20 && !r.events.some((e) => e.type === 'OrderFilled'); i++) {
      r.sim.advanceClock(1_000);
      await r.manager.pollOnce();
    }
    const fill = r.events.find((e) => e.type === 'OrderFilled');
    expect(fill).toBeDefined();
    const fillPrice = fill?.type === 'OrderFilled' ? fill.fill.price : new Decimal(0);
    const resting = limitBuy('loser', '005930', '1', fillPrice.minus(10_000).toFixed());
    expect((await r.risk.sender.send(resting)).accepted).toBe(true);
    const bystander = limitBuy('other', '000660', '1', '150000');
    expect((await r.risk.sender.send(bystander)).accepted).toBe(true);

    // the price falls 4,000 won: 100 shares lose 400,000 KRW, past the 300,000 limit
    r.sim.setPrice('005930', fillPrice.minus(4_000).toFixed());
    const [price] = await r.client.getPrices(['005930']);
    r.risk.book.notePrice('005930', price!.lastPrice, price!.timestamp.toMillis());
    r.risk.engine.evaluate();

    expect(r.risk.gateway.entry({ kind: 'strategy', strategyId: 'loser' })).toMatchObject({
      state: 'HALTED',
      source: 'daily-loss',
      untilMs: Date.parse('2026-11-24T08:00:00+09:00'),
    });
    await r.manager.idle();
    await r.manager.pollOnce();
    const open = await r.client.listOrders({ status: 'OPEN' });
    const restingId = r.db.orders.get(resting.intent.clientOrderId as ClientOrderId)?.brokerOrderId;
    expect(open.orders.map((o) => o.symbol)).toEqual(['000660']);
    expect(restingId).toBeDefined();
    const denied = await r.risk.sender.send(limitBuy('loser', '005930', '1', '60000'));
    expect(denied).toMatchObject({ accepted: false, code: 'risk-daily-loss-strategy' });
    expect(denied.accepted ? '' : denied.reason).toContain(
      'frees at 2026-11-24 08:00 KST (Tue) or on hoga risk reset --strategy loser',
    );
    expect((await r.risk.sender.send(limitBuy('other', '000660', '1', '150000'))).accepted).toBe(true);

    // the price comes back: the loss is under the limit, but the kill switch holds for the day, and
    // the denial says by what, since and until when, and how to lift it
    r.sim.setPrice('005930', fillPrice.toFixed());
    const [back] = await r.client.getPrices(['005930']);
    r.risk.book.notePrice('005930', back!.lastPrice, back!.timestamp.toMillis());
    const halted = await r.risk.sender.send(limitBuy('loser', '005930', '1', '60000'));
    expect(halted).toMatchObject({ accepted: false, code: 'risk-halted' });
    const text = halted.accepted ? '' : halted.reason;
    expect(text).toContain('Trading is halted for strategy loser');
    expect(text).toContain('Set by the daily loss limit');
    expect(text).toMatch(/since 2026-11-23 \d\d:\d\d KST \(Mon\)/);
    expect(text).toContain('until 2026-11-24 08:00 KST (Tue)');
    expect(text).toContain('hoga risk reset --strategy loser');
    // live's states are live's: no word of paper's
    expect(text).not.toContain('paper');
    const journal = r.db.journal.readFrom(1).filter((e) => e.type === 'TradingStateChanged');
    expect(journal.at(-1)).toMatchObject({
      strategyId: 'loser',
      payload: { to: 'HALTED', source: 'daily-loss' },
    });

    // hoga risk reset lets it trade again
    r.risk.gateway.reset('hoga risk reset');
    expect((await r.risk.sender.send(limitBuy('loser', '005930', '1', '60000'))).accepted).toBe(true);
  }, 60_000);

  it('with dailyLossAction "reduce" sets the strategy REDUCING: its buy is canceled at the broker, its exit sell goes on', async () => {
    const r = await rig({
      strategies: { loser: { dailyLossLimitKrw: '300000', dailyLossAction: 'reduce' } },
    });
    const entry = marketBuy('loser', '005930', '100');
    expect((await r.risk.sender.send(entry)).accepted).toBe(true);
    for (let i = 0; i < 20 && !r.events.some((e) => e.type === 'OrderFilled'); i++) {
      r.sim.advanceClock(1_000);
      await r.manager.pollOnce();
    }
    const fill = r.events.find((e) => e.type === 'OrderFilled');
    const fillPrice = fill?.type === 'OrderFilled' ? fill.fill.price : new Decimal(0);
    expect(
      await r.risk.sender.send(limitBuy('loser', '005930', '1', fillPrice.minus(10_000).toFixed())),
    ).toMatchObject({ accepted: true });

    // 100 shares lose 400,000 KRW, past the 300,000 limit
    r.sim.setPrice('005930', fillPrice.minus(4_000).toFixed());
    const [price] = await r.client.getPrices(['005930']);
    r.risk.book.notePrice('005930', price!.lastPrice, price!.timestamp.toMillis());
    r.risk.engine.evaluate();
    expect(r.risk.gateway.entry({ kind: 'strategy', strategyId: 'loser' })).toMatchObject({
      state: 'REDUCING',
      source: 'daily-loss',
      untilMs: Date.parse('2026-11-24T08:00:00+09:00'),
    });
    await r.manager.idle();
    await r.manager.pollOnce();
    expect((await r.client.listOrders({ status: 'OPEN' })).orders).toEqual([]);

    const buy = await r.risk.sender.send(limitBuy('loser', '005930', '1', '60000'));
    expect(buy).toMatchObject({ accepted: false, code: 'risk-reducing' });
    expect(buy.accepted ? '' : buy.reason).toContain(
      'only orders that reduce a position are accepted; frees at 2026-11-24 08:00 KST (Tue) or on hoga risk reset --strategy loser',
    );
    const exit = submitLimit('005930', 'SELL', '100', price!.lastPrice.toFixed(), 'loser');
    expect(await r.risk.sender.send(exit)).toMatchObject({ accepted: true });
    await r.manager.idle();
    for (
      let i = 0;
      i < 20 &&
      !r.events.some((e) => e.type === 'OrderFilled' && e.clientOrderId === exit.intent.clientOrderId);
      i++
    ) {
      r.sim.advanceClock(1_000);
      await r.manager.pollOnce();
    }
    expect(r.db.orders.get(exit.intent.clientOrderId as ClientOrderId)?.state).toBe('FILLED');
    const journal = r.db.journal.readFrom(1).filter((e) => e.type === 'TradingStateChanged');
    expect(journal.at(-1)).toMatchObject({
      strategyId: 'loser',
      payload: { to: 'REDUCING', source: 'daily-loss' },
    });
  }, 60_000);
});
