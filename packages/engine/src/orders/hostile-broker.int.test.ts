/**
 * The order manager against a broker that misbehaves where the simulator's fault knobs cannot: a
 * proxy on 127.0.0.1 in front of the simulator (`hostile-broker.test-helper.ts`) answers a create
 * the broker committed with a 500, a modify with a 429 and `Retry-After` then holds its retry while
 * the order fills, holds a cancel while a partly filled order fills its rest, and repeats the
 * history's rows (twice on a page, an older copy of a row after the newer one). Each test asserts
 * the rows the SQLite file holds afterwards: one order per create at the broker, each fill stored
 * once, the order's state and its commands settled.
 */
import { describe, expect, it } from 'vitest';
import { internalError, type ProxiedAnswer } from './hostile-broker.test-helper.js';
import { CREATE, eventsOf, gate, hostile, pollUntil, storedRows } from './hostile-fixture.test-helper.js';
import { cancelOf, modifyTo, priceLimits, submitLimit, US_OPEN } from './live-fixture.test-helper.js';

describe('OrderManager against a hostile broker (a proxy in front of the simulator, real HTTP, SQLite file)', () => {
  it('adopts once an order whose create the broker committed but answered 500 to, every retry included', async () => {
    const h = await hostile();
    const { upper } = await priceLimits(h.client, '005930');
    // every POST of a create goes to the broker (the first makes the order, the retries under its
    // key are replays) and is answered 500, as a gateway does after the broker committed
    let posts = 0;
    const stop = h.proxy.use((req, forward) =>
      req.method === 'POST' && req.path === CREATE
        ? forward().then((): ProxiedAnswer => {
            posts++;
            return internalError();
          })
        : undefined,
    );
    const order = submitLimit('005930', 'BUY', '3', upper); // marketable: fills whole at once
    const id = order.intent.clientOrderId;
    await h.manager.execute(order);
    stop();
    expect(posts).toBe(3); // the first send and the connector's two retries
    expect(h.sim.counters().ordersPerClientOrderId[id]).toBe(1);
    expect(storedRows(h.db, id).commands).toEqual([
      { kind: 'create', status: 'ambiguous', target: null, result: null, error: 'internal-error' },
    ]);

    await pollUntil(h, () => storedRows(h.db, id).order?.state === 'FILLED');
    const rows = storedRows(h.db, id);
    const broker = rows.links[0] as { id: string };
    expect(h.sim.counters().ordersCreated).toBe(1);
    expect(h.sim.counters().ordersPerClientOrderId[id]).toBe(1);
    expect(rows).toEqual({
      order: { state: 'FILLED', filled_quantity: '3', price: upper, quantity: '3' },
      links: [{ id: broker.id, kind: 'create' }],
      // the error is the first send's: what was lost before the order was found
      commands: [
        { kind: 'create', status: 'done', target: null, result: broker.id, error: 'internal-error' },
      ],
      executions: [{ id: broker.id, status: 'FILLED', closed: 1, filled: '3' }],
      fills: [
        {
          id: broker.id,
          quantity: '3',
          price: (await h.client.getOrder(broker.id)).execution.averageFilledPrice?.toString(),
          cumulative: '3',
        },
      ],
    });
    expect(eventsOf(h.events, id)).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
  });

  it('refuses a modify already-filled when the order filled while its retry after a 429 waited', async () => {
    const h = await hostile();
    const { lower } = await priceLimits(h.client, '005930');
    const order = submitLimit('005930', 'BUY', '4', lower);
    const id = order.intent.clientOrderId;
    await h.manager.execute(order);
    const original = h.manager.currentExecution(id)?.brokerOrderId ?? '';
    // the modify's first POST: 429 with Retry-After (not passed on); its retry held until the
    // order has filled and a poll counted the fill, then passed on
    const retry = gate();
    const retried = gate();
    let modifyPosts = 0;
    h.proxy.use((req, forward) => {
      if (req.method !== 'POST' || !req.path.endsWith('/modify')) return undefined;
      modifyPosts++;
      if (modifyPosts === 1)
        return Promise.resolve({
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '1' },
          body: JSON.stringify({
            error: { requestId: 'proxy', code: 'rate-limit-exceeded', message: 'rate limit exceeded' },
          }),
        });
      retried.open();
      return retry.opened.then(forward);
    });
    const modifying = h.manager.execute(modifyTo(order, lower, '2'));
    await retried.opened;
    expect(storedRows(h.db, id).order).toMatchObject({ state: 'PENDING_MODIFY' });
    h.sim.setPrice('005930', lower);
    h.sim.advanceClock(60_000);
    await pollUntil(h, () => storedRows(h.db, id).order?.state === 'FILLED');
    retry.open();
    await modifying;

    const rows = storedRows(h.db, id);
    expect(rows.order).toEqual({ state: 'FILLED', filled_quantity: '4', price: lower, quantity: '4' });
    expect(rows.links).toEqual([{ id: original, kind: 'create' }]);
    expect(rows.commands).toEqual([
      { kind: 'create', status: 'done', target: null, result: original, error: null },
      {
        kind: 'modify',
        status: 'rejected',
        target: original,
        result: null,
        error: expect.stringMatching(/^already-filled: /),
      },
    ]);
    expect(rows.executions).toEqual([{ id: original, status: 'FILLED', closed: 1, filled: '4' }]);
    expect(rows.fills).toEqual([{ id: original, quantity: '4', price: lower, cumulative: '4' }]);
    expect(eventsOf(h.events, id)).toEqual([
      'OrderSubmitted',
      'OrderAccepted',
      'OrderModifyRequested',
      'OrderFilled',
      'OrderModifyRejected already-filled',
    ]);
    expect(h.sim.counters().ordersModified).toBe(0);
  });

  it('counts each fill once when the history repeats rows and lists an older copy after the newer', async () => {
    const h = await hostile();
    const { lower } = await priceLimits(h.client, '005930');
    const orders = [submitLimit('005930', 'BUY', '2', lower), submitLimit('005930', 'BUY', '5', lower)];
    for (const o of orders) await h.manager.execute(o);
    // the working reports, as the OPEN list shows them now: replayed later as older copies
    let working: unknown[] = [];
    const recording = h.proxy.use((req, forward) =>
      req.method === 'GET' && req.path === CREATE && req.query.get('status') === 'OPEN'
        ? forward().then((a) => {
            working = (JSON.parse(a.body) as { result: { orders: unknown[] } }).result.orders;
            return a;
          })
        : undefined,
    );
    await h.manager.pollOnce();
    recording();
    expect(working).toHaveLength(2);
    h.proxy.use((req, forward) => {
      if (req.method !== 'GET' || req.path !== CREATE || req.query.get('status') !== 'CLOSED')
        return undefined;
      return forward().then((a) => {
        const page = JSON.parse(a.body) as { result: { orders: unknown[] } };
        const rows = page.result.orders;
        page.result.orders = [...rows, ...rows, ...working];
        return { ...a, body: JSON.stringify(page) };
      });
    });
    h.sim.setPrice('005930', lower);
    h.sim.advanceClock(1_000); // the orders placed since the last poll: on the closed pages it reads
    for (const o of orders) {
      const broker = h.manager.currentExecution(o.intent.clientOrderId)?.brokerOrderId ?? '';
      expect((await h.client.getOrder(broker)).status).toBe('FILLED');
    }
    await h.manager.pollOnce();
    // the fills are counted by this one poll, from the newer copies
    expect(orders.map((o) => storedRows(h.db, o.intent.clientOrderId).order)).toMatchObject([
      { state: 'FILLED' },
      { state: 'FILLED' },
    ]);
    for (let i = 0; i < 3; i++) await h.manager.pollOnce();

    for (const o of orders) {
      const id = o.intent.clientOrderId;
      const quantity = o.intent.sizing === 'QUANTITY' ? o.intent.quantity.toString() : '';
      const rows = storedRows(h.db, id);
      const broker = (rows.links[0] as { id: string }).id;
      expect(rows).toEqual({
        order: { state: 'FILLED', filled_quantity: quantity, price: lower, quantity },
        links: [{ id: broker, kind: 'create' }],
        commands: [{ kind: 'create', status: 'done', target: null, result: broker, error: null }],
        executions: [{ id: broker, status: 'FILLED', closed: 1, filled: quantity }],
        fills: [{ id: broker, quantity, price: lower, cumulative: quantity }],
      });
      expect(eventsOf(h.events, id)).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
    }
  });

  it.each([
    ['a poll counted the last fill before the refusal', true],
    ['the refusal came before a poll counted the last fill', false],
  ])(
    'refuses a cancel already-filled when the rest of a partly filled order fills while the cancel is on its way: %s',
    async (_, countedFirst) => {
      const h = await hostile(US_OPEN);
      // ZOM's book is thin: a buy resting under the market fills in parts once it is reached
      const price = (await h.client.getOrderbook('ZOM')).bids[2]?.price.toString() ?? '';
      const order = submitLimit('ZOM', 'BUY', QUANTITY, price);
      const id = order.intent.clientOrderId;
      await h.manager.execute(order);
      const broker = h.manager.currentExecution(id)?.brokerOrderId ?? '';
      h.sim.setPrice('ZOM', price);
      h.sim.advanceClock(60_000);
      await h.manager.pollOnce();
      expect(storedRows(h.db, id).order).toMatchObject({ state: 'PARTIALLY_FILLED' });
      // the cancel held at the proxy until the broker has filled the rest (and a poll counted it)
      const held = gate();
      const release = gate();
      h.proxy.use((req, forward) => {
        if (req.method !== 'POST' || !req.path.endsWith('/cancel')) return undefined;
        held.open();
        return release.opened.then(forward);
      });
      const cancelling = h.manager.execute(cancelOf(order));
      await held.opened;
      for (let i = 0; i < 60 && (await h.client.getOrder(broker)).status !== 'FILLED'; i++) {
        h.sim.advanceClock(60_000);
        if (countedFirst) await h.manager.pollOnce();
      }
      const filled = () => storedRows(h.db, id).order?.state === 'FILLED';
      if (countedFirst) await pollUntil(h, filled);
      release.open();
      await cancelling;
      if (!countedFirst) {
        // refused: the order works on as far as the store knows, until the poll reads its end
        expect(storedRows(h.db, id).order?.state).toBe('PARTIALLY_FILLED');
        await pollUntil(h, filled);
      }

      const rows = storedRows(h.db, id);
      expect(rows.order).toEqual({ state: 'FILLED', filled_quantity: QUANTITY, price, quantity: QUANTITY });
      expect(rows.links).toEqual([{ id: broker, kind: 'create' }]);
      expect(rows.commands).toEqual([
        { kind: 'create', status: 'done', target: null, result: broker, error: null },
        {
          kind: 'cancel',
          status: 'rejected',
          target: broker,
          result: null,
          error: expect.stringMatching(/^already-filled: /),
        },
      ]);
      expect(rows.executions).toEqual([{ id: broker, status: 'FILLED', closed: 1, filled: QUANTITY }]);
      // one row per counted increase, each on the broker order, adding up to the order
      const fills = rows.fills as { id: string; quantity: string; cumulative: string }[];
      let sum = 0;
      for (const f of fills) {
        sum += Number(f.quantity);
        expect(f).toMatchObject({ id: broker, cumulative: String(sum) });
      }
      expect(String(sum)).toBe(QUANTITY);
      const seen = eventsOf(h.events, id);
      expect(seen.filter((t) => t === 'OrderPartiallyFilled')).toHaveLength(fills.length - 1);
      const ends = ['OrderFilled', 'OrderCancelRejected already-filled'];
      expect(seen.filter((t) => !t.startsWith('OrderPartiallyFilled'))).toEqual([
        'OrderSubmitted',
        'OrderAccepted',
        'OrderCancelRequested',
        ...(countedFirst ? ends : ends.reverse()),
      ]);
      expect(seen.indexOf('OrderPartiallyFilled')).toBe(2); // a part filled before the cancel was asked
      expect(h.sim.counters().ordersCanceled).toBe(0);
    },
  );
});

const QUANTITY = '100000';
