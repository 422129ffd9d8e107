/**
 * What the `ctx.marketOrderAllowed`, `ctx.amountOrderAllowed` and `ctx.regularSession` tests share (`market-order-hours.test.ts`,
 * `calendar-order-hours.test.ts`, `regular-session.test.ts`): a strategy's host whose clock the test
 * sets, asked at an instant.
 *
 * @module
 */
import { createLogger, Decimal, strategyId, VirtualClock } from '@hoga/core';
import type { TradingMode } from '@hoga/store';
import { StrategyBook } from '../portfolio/strategy-book.js';
import type { StrategyClass } from '../strategy/strategy.js';
import type { HostServices } from './host-services.js';
import type { OrderHours, RegularSession } from './market-order-hours.js';
import { StrategyHost } from './strategy-host.js';

/** The run the host is in: its mode, its bars, and the hours it asks (the broker model's when absent). */
export interface AskerRun {
  readonly mode: TradingMode;
  readonly interval: '1m' | '1d';
  readonly orderHours?: OrderHours;
}

/** A host of the run's mode on its bars (symbols 005930 and AAPL) over a clock the test sets. */
function askingHost({ mode, interval, orderHours }: AskerRun): { host: StrategyHost; clock: VirtualClock } {
  const clock = new VirtualClock(0);
  const services = {
    mode,
    clock,
    universe: { symbols: ['005930', 'AAPL'], interval },
    orderHours,
  } as unknown as HostServices;
  const state = { get: () => undefined, set: () => undefined, delete: () => false };
  const host = new StrategyHost(
    strategyId('S'),
    class {} as unknown as StrategyClass,
    services,
    createLogger({ level: 'silent' }),
    state,
    new StrategyBook({ KRW: new Decimal(1_000_000) }),
    {},
  );
  return { host, clock };
}

/**
 * The question of a host of the run's mode (see {@link askingHost}) at an instant: `ask(symbol,
 * iso)` sets the clock to `iso` and answers `marketOrderAllowed(symbol)`.
 */
export function marketOrderAsker(run: AskerRun): (symbol: string, iso: string) => boolean {
  const { host, clock } = askingHost(run);
  return (symbol, iso) => {
    clock.set(Date.parse(iso));
    return host.marketOrderAllowed(symbol);
  };
}

/** As {@link marketOrderAsker}, for `amountOrderAllowed(symbol)`. */
export function amountOrderAsker(run: AskerRun): (symbol: string, iso: string) => boolean {
  const { host, clock } = askingHost(run);
  return (symbol, iso) => {
    clock.set(Date.parse(iso));
    return host.amountOrderAllowed(symbol);
  };
}

/** As {@link marketOrderAsker}, for `regularSession(symbol)`. */
export function regularSessionAsker(
  run: AskerRun,
): (symbol: string, iso: string) => RegularSession | null | undefined {
  const { host, clock } = askingHost(run);
  return (symbol, iso) => {
    clock.set(Date.parse(iso));
    return host.regularSession(symbol);
  };
}
