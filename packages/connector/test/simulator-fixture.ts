/**
 * Starts the simulator on 127.0.0.1:0 and builds a connector client against it.
 */
import { type Clock, Decimal, ScaledClock } from '@hoga/core';
import { type SimulatorHandle, type SimulatorOptions, startSimulator } from '@hoga/simulator';
import { filter } from 'rxjs';
import { afterEach, beforeEach, vi } from 'vitest';
import { BrokerClient, type BrokerClientOptions, BrokerStreams, type CandleUpdate } from '../src/index.js';

/** A KR trading day, 10:00 KST: KR regular session open, US closed. */
export const KR_MORNING = '2026-11-23T10:00:00.000+09:00';

/** A running simulator and a client connected to it. */
export interface SimFixture {
  readonly sim: SimulatorHandle;
  readonly client: BrokerClient;
  readonly clock: Clock;
  close(): Promise<void>;
}

/**
 * Starts a simulator and a client whose clock follows the simulator's.
 *
 * @param sim - simulator options (defaults: KR morning, speed 1, limits on, control on)
 * @param client - client option overrides
 */
export async function startFixture(
  sim: SimulatorOptions = {},
  client: Omit<Partial<BrokerClientOptions>, 'config'> & { config?: Record<string, unknown> } = {},
): Promise<SimFixture> {
  const options: SimulatorOptions = { start: KR_MORNING, speed: 1, control: true, ...sim };
  const handle = await startSimulator(options);
  const clock = new ScaledClock({ start: handle.now(), speed: options.speed ?? 1 });
  const broker = new BrokerClient({
    clock,
    ...client,
    config: {
      baseUrl: handle.url,
      clientId: options.clientId ?? 'sim-client',
      clientSecret: options.clientSecret ?? 'sim-secret',
      backoffBaseMs: 50,
      backoffMaxMs: 400,
      ...client.config,
    },
  });
  return {
    sim: handle,
    client: broker,
    clock,
    async close() {
      broker.close();
      await handle.close();
    },
  };
}

/**
 * Registers hooks that start a fixture before each test of the file, with the market frozen (an
 * order resting at the lowest bid never fills), and close it after; answers the current one.
 */
export function frozenMarketFixture(): () => SimFixture {
  let fx: SimFixture | undefined;
  beforeEach(async () => {
    fx = await startFixture({ speed: 1 });
    fx.sim.setSpeed(0);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await fx?.close();
  });
  return () => {
    if (fx === undefined) throw new Error('the fixture starts before each test');
    return fx;
  };
}

/**
 * Places a limit buy of 2 shares of `symbol` at its lowest bid (it rests in a frozen market);
 * answers its broker order id, its price and the bid one step up (a price to modify it to).
 */
export async function placeRestingBuy(
  fx: SimFixture,
  symbol: string,
  clientOrderId: string,
): Promise<{ orderId: string; low: Decimal; nextUp: Decimal }> {
  const book = await fx.client.getOrderbook(symbol);
  const low = book.bids.at(-1)!.price;
  const nextUp = book.bids.at(-2)!.price;
  const created = await fx.client.createOrder({
    symbol,
    side: 'BUY',
    orderType: 'LIMIT',
    quantity: new Decimal(2),
    price: low,
    clientOrderId,
  });
  return { orderId: created.orderId, low, nextUp };
}

/** Resolves once `check()` holds (looked at every 50 ms); fails after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A frozen simulator's minute candles of 005930, polled every 100 ms, and the complete ones handed over. */
export interface CompleteCandles {
  readonly fixture: SimFixture;
  /** The client's clock (moved by hand with the simulator's). */
  readonly clock: ScaledClock;
  /** The complete candles handed over so far, in order. */
  readonly complete: CandleUpdate[];
  /** Unsubscribes and disposes of the streams (the fixture is closed by its owner). */
  stop(): void;
}

/**
 * Starts a simulator frozen at `start` (no rate limits) and a minute-candle stream of 005930 over
 * it, polled every 100 ms with the market taken as open, collecting the complete candles.
 *
 * @param start - the simulator's clock (ISO)
 */
export async function completeCandlesFrom(start: string): Promise<CompleteCandles> {
  const fixture = await startFixture({ speed: 0, start, rateLimit: false });
  const streams = new BrokerStreams(fixture.client, {
    intervals: { candles1m: 100 },
    marketHours: { isOpen: () => true },
  });
  const complete: CandleUpdate[] = [];
  const sub = streams
    .candles$('005930', '1m')
    .pipe(filter((u) => u.complete))
    .subscribe((u) => complete.push(u));
  return {
    fixture,
    clock: fixture.clock as ScaledClock,
    complete,
    stop() {
      sub.unsubscribe();
      streams.dispose();
    },
  };
}
