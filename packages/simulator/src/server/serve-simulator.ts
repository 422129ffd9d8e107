import type { Decimal, GroupLimit, RateLimitGroup, ScaledClock } from '@hoga/core';
import type { DateTime } from 'luxon';
import { type DeclaredCalendarList, type SimCounters, SimulatorControl } from '../control/control-api.js';
import { ControlRoutes } from '../control/control-routes.js';
import type { CalendarDeclaration, DeclaredCalendar } from '../market/declared-calendar.js';
import { TokenAuthority } from './auth.js';
import type { BrokerageEndpoints, MarketEndpoints } from './backends.js';
import { ServerCounters } from './counters.js';
import { FaultInjector, type FaultSpec } from './faults.js';
import { SimHttpServer } from './http-server.js';
import { RateLimiter } from './rate-limiter.js';
import { apiRoutes } from './routes.js';

/** A running simulator: its address, `close()`, and the control API as methods. */
export interface SimulatorHandle {
  /** Base URL, e.g. `http://127.0.0.1:18080`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (idle keep-alive connections too), the timers, and saves the state file. */
  close(): Promise<void>;
  /** The simulated time now (KST). */
  now(): DateTime;
  /** Jumps the simulated clock; returns the new time. */
  setClock(at: DateTime | string): DateTime;
  /** Moves the simulated clock forward; returns the new time. */
  advanceClock(ms: number): DateTime;
  /** Simulated seconds per real second (0 freezes the clock). */
  setSpeed(speed: number): void;
  /** Jumps a symbol's last price now. */
  setPrice(symbol: string, price: Decimal | string): void;
  /** Adds a fault; returns its id. */
  injectFault(spec: FaultSpec): string;
  /** Removes every fault. */
  clearFaults(): void;
  /** Declares holidays and special sessions (see `SimulatorControl.declareCalendar`); returns every declaration. */
  declareCalendar(input: CalendarDeclaration): DeclaredCalendarList;
  /** Revokes a client's current token (all clients when omitted); returns how many. */
  revokeToken(clientId?: string): number;
  /** Every count the simulator keeps. */
  counters(): SimCounters;
  /**
   * The simulated instant the clock resumed at from the state file (started with `statePath`
   * and no `start`, the file holding a clock); null otherwise.
   */
  readonly resumedAt: DateTime | null;
  /** The control API object itself (also has `faults()`, `removeFault(id)`, `speed()`). */
  readonly control: SimulatorControl;
}

/** The parts {@link serveSimulator} wires together. */
export interface SimulatorParts {
  readonly host: string;
  readonly port: number;
  readonly seed: number;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly tokenTtlSeconds: number;
  readonly rateLimit: boolean;
  /** The limits per group the server enforces and announces (see {@link RateLimiter}). */
  readonly rateLimits?: Readonly<Record<RateLimitGroup, GroupLimit>>;
  readonly control: boolean;
  readonly accountHeader: string;
  readonly matchIntervalMs: number;
  readonly clock: ScaledClock;
  readonly market: MarketEndpoints & {
    setPrice(symbol: string, price: Decimal): void;
    instrument(symbol: string): unknown;
    readonly calendar: { readonly declared: DeclaredCalendar };
  };
  readonly brokerage: BrokerageEndpoints & { save(): Promise<void> };
  readonly onInternalError: ((error: unknown, method: string, path: string) => void) | undefined;
  /** See {@link SimulatorHandle.resumedAt}. */
  readonly resumedAt: DateTime | null;
}

/** Wires the HTTP server to a market and a brokerage and starts listening. */
export async function serveSimulator(parts: SimulatorParts): Promise<SimulatorHandle> {
  const { clock, market, brokerage } = parts;
  const tokens = new TokenAuthority({
    clients: [{ clientId: parts.clientId, clientSecret: parts.clientSecret }],
    ttlSeconds: parts.tokenTtlSeconds,
    clock,
  });
  const faults = new FaultInjector(parts.seed);
  const counters = new ServerCounters();
  const control = new SimulatorControl({
    clock,
    market,
    brokerage,
    tokens,
    faults,
    counters,
    calendar: market.calendar.declared,
  });
  const server = new SimHttpServer({
    routes: apiRoutes({ market, brokerage, tokens }),
    tokens,
    limiter: new RateLimiter({
      enabled: parts.rateLimit,
      ...(parts.rateLimits === undefined ? {} : { limits: parts.rateLimits }),
    }),
    faults,
    brokerage,
    clock,
    counters,
    accountHeader: parts.accountHeader,
    ...(parts.control ? { control: new ControlRoutes(control) } : {}),
    ...(parts.onInternalError === undefined ? {} : { onInternalError: parts.onInternalError }),
  });
  const port = await server.listen(parts.host, parts.port);
  const timer = setInterval(() => {
    try {
      brokerage.advanceTo(clock.now());
    } catch (error) {
      (
        parts.onInternalError ??
        ((e: unknown) => process.stderr.write(`simulator: matching failed: ${String(e)}\n`))
      )(error, 'TIMER', 'advanceTo');
    }
  }, parts.matchIntervalMs);
  timer.unref();
  const host = parts.host.includes(':') ? `[${parts.host}]` : parts.host;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    control,
    resumedAt: parts.resumedAt,
    close: () => {
      closed ??= (async () => {
        clearInterval(timer);
        await server.close();
        // the fills up to this instant, and the clock a restart with the state file resumes at
        brokerage.advanceTo(clock.now());
        await brokerage.save();
      })();
      return closed;
    },
    now: () => control.now(),
    setClock: (at) => control.setClock(at),
    advanceClock: (ms) => control.advanceClock(ms),
    setSpeed: (speed) => control.setSpeed(speed),
    setPrice: (symbol, price) => control.setPrice(symbol, price),
    injectFault: (spec) => control.injectFault(spec),
    clearFaults: () => control.clearFaults(),
    declareCalendar: (input) => control.declareCalendar(input),
    revokeToken: (clientId) => control.revokeToken(clientId),
    counters: () => control.counters(),
  };
}
