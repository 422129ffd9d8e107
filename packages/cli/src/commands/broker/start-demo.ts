/**
 * The `pnpm start` demo, until the engine exists: a simulated broker in-process, and through the
 * connector what a user of this API wants to see first — the account and its holdings, live
 * quotes and best orderbook levels, then one small marketable limit order and its fill arriving
 * through `orderUpdates$`.
 *
 * @module
 */
import { BrokerClient, BrokerStreams, MemoryTokenCache, type Orderbook, type Price } from '@hoga/connector';
import { Decimal, newClientOrderId, type OrderEvent, ScaledClock } from '@hoga/core';
import { startSimulator } from '@hoga/simulator';
import {
  asyncScheduler,
  combineLatest,
  filter,
  firstValueFrom,
  map,
  type Subscription,
  take,
  throttleTime,
  timeout,
} from 'rxjs';
import { demoTradingDay } from './demo-day.js';

/** Options of {@link runStartDemo}. */
export interface StartDemoOptions {
  /** How long to watch quotes (default 15 s). */
  readonly watchMs?: number;
  /** Simulated seconds per real second (default 60). */
  readonly speed?: number;
  /** Where lines go (default `console.log`). */
  readonly print?: (line: string) => void;
  /** Where the simulator's clock starts before the demo moves it to a trading day (default now). */
  readonly simStart?: string;
  /**
   * Stops the demo early once aborted (Ctrl-C): the watching ends, no order is placed (or its fill
   * is not waited for), and the connector and the simulator close as at its end.
   */
  readonly signal?: AbortSignal;
}

/** Thrown inside {@link runStartDemo} to skip to its end once its signal is aborted. */
class StoppedEarly extends Error {}

const SYMBOLS = ['005930', '000660', '035420'] as const;

function fmt(d: Decimal): string {
  return d.toNumber().toLocaleString('en-US', { maximumFractionDigits: 4 });
}

/**
 * Runs the demo and resolves when everything is closed again.
 *
 * @param options - duration, speed and output
 */
export async function runStartDemo(options: StartDemoOptions = {}): Promise<void> {
  const print = options.print ?? ((line: string) => console.log(line));
  const speed = options.speed ?? 60;
  const sim = await startSimulator({
    speed,
    rateLimit: true,
    ...(options.simStart === undefined ? {} : { start: options.simStart }),
  });
  const subscriptions: Subscription[] = [];
  let client: BrokerClient | null = null;
  const signal = options.signal;
  /** Goes to the demo's end once the signal is aborted. */
  const check = (): void => {
    if (signal?.aborted) throw new StoppedEarly();
  };
  try {
    // Move the simulated clock to 10:00 KST of the next KR trading day (regular session).
    const probe = new BrokerClient({
      config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
      tokenCache: new MemoryTokenCache(),
    });
    const day = await demoTradingDay(probe);
    probe.close();
    if (day.note !== null) print(`hoga: ${day.note}`);
    sim.setClock(`${day.date}T10:00:00.000+09:00`);
    const clock = new ScaledClock({ start: sim.now(), speed });
    client = new BrokerClient({
      config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
      clock,
    });
    const at = () => clock.now().toFormat('HH:mm:ss');
    print(
      `hoga demo: simulated broker at ${sim.url}, clock ${clock.now().toFormat('yyyy-MM-dd HH:mm')} KST, ×${speed}`,
    );

    const [account] = await client.getAccounts();
    if (account === undefined) throw new Error('the simulator lists no account');
    print(`account ${account.accountSeq} (${account.accountNo}, ${account.accountType})`);
    const holdings = await client.getHoldings();
    for (const item of holdings.items) {
      const rate = item.profitLoss.rate.times(100).toFixed(2);
      print(
        `  ${item.symbol.padEnd(6)} ${fmt(item.quantity).padStart(6)} @ ${fmt(item.averagePurchasePrice)} ${item.currency}` +
          `  last ${fmt(item.lastPrice)}  P/L ${item.profitLoss.rate.gte(0) ? '+' : ''}${rate}%`,
      );
    }
    const krw = await client.getBuyingPower('KRW');
    const usd = await client.getBuyingPower('USD');
    print(`  cash buying power: ${fmt(krw.cashBuyingPower)} KRW, ${fmt(usd.cashBuyingPower)} USD`);
    check();

    const streams = new BrokerStreams(client, { intervals: { orders: 200 } });
    const watchMs = options.watchMs ?? 15_000;
    print(`watching ${SYMBOLS.join(', ')} for ${Math.round(watchMs / 1000)} s (quotes and best levels)…`);
    const prices$ = streams.prices$([...SYMBOLS]);
    for (const symbol of SYMBOLS) {
      const price$ = prices$.pipe(
        map((batch) => batch.find((p) => p.symbol === symbol)),
        filter((p): p is Price => p !== undefined),
      );
      subscriptions.push(
        combineLatest([price$, streams.orderbook$(symbol)])
          .pipe(throttleTime(3000, asyncScheduler, { leading: true, trailing: true }))
          .subscribe(([price, book]: [Price, Orderbook]) => {
            const bid = book.bids[0];
            const ask = book.asks[0];
            print(
              `${at()}  ${symbol}  last ${fmt(price.lastPrice).padStart(8)}` +
                `  bid ${bid ? `${fmt(bid.price)} × ${fmt(bid.volume)}` : '-'}` +
                `  ask ${ask ? `${fmt(ask.price)} × ${fmt(ask.volume)}` : '-'}`,
            );
          }),
      );
    }
    const events: OrderEvent[] = [];
    subscriptions.push(streams.orderUpdates$().subscribe((event) => events.push(event)));
    await waitFor(watchMs, signal);
    for (const s of subscriptions.splice(0, SYMBOLS.length)) s.unsubscribe();
    check();

    const symbol = '000660';
    const book = await client.getOrderbook(symbol);
    const ask = book.asks[0];
    if (ask === undefined) throw new Error(`no ask in the ${symbol} book`);
    const clientOrderId = newClientOrderId('demo');
    print(`placing BUY 1 ${symbol} LIMIT @ ${fmt(ask.price)} (the best ask), clientOrderId ${clientOrderId}`);
    const fill = firstValueFrom(
      streams.orderUpdates$().pipe(
        filter((e) => e.clientOrderId === clientOrderId),
        filter((e) => {
          if (e.type === 'OrderAccepted')
            print(`${at()}  order accepted, broker id …${e.brokerOrderId.slice(-12)}`);
          return e.type === 'OrderFilled' || e.type === 'OrderRejected' || e.type === 'OrderCanceled';
        }),
        take(1),
        timeout(30_000),
      ),
    );
    await client.createOrder({
      symbol,
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: new Decimal(1),
      price: ask.price,
      clientOrderId,
    });
    const done = await untilAborted(fill, signal);
    if (done.type === 'OrderFilled') {
      const f = done.fill;
      print(
        `${at()}  filled ${fmt(f.quantity)} @ ${fmt(f.price)} ${f.commission.currency}` +
          ` (commission ${fmt(f.commission.amount)}), ${fmt(f.cumulativeQuantity)} of 1 filled`,
      );
    } else {
      print(`${at()}  order ended ${done.type}`);
    }
    print('done: closing the connector and the simulator.');
  } catch (error) {
    if (!(error instanceof StoppedEarly)) throw error;
    print('interrupted: stopping early…');
    print('done: closing the connector and the simulator.');
  } finally {
    for (const s of subscriptions) s.unsubscribe();
    client?.close();
    await sim.close();
  }
}

/** Waits `ms`, or less once `signal` is aborted. */
function waitFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** `promise`, or {@link StoppedEarly} once `signal` is aborted first (`promise`'s failure then ignored). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  promise.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new StoppedEarly());
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
