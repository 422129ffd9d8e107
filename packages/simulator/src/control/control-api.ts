import { type Decimal, parseDateTime, parseDecimal, type ScaledClock } from '@hoga/core';
import type { DateTime } from 'luxon';
import { SimApiError } from '../api-error.js';
import type { CalendarDeclaration, DeclaredCalendar } from '../market/declared-calendar.js';
import type { TokenAuthority } from '../server/auth.js';
import type { BrokerageEndpoints } from '../server/backends.js';
import type { ServerCounters } from '../server/counters.js';
import type { ActiveFault, FaultInjector, FaultSpec } from '../server/faults.js';

/** Everything the simulator has counted since it started. */
export interface SimCounters {
  /** Broker-API requests received (control routes excluded), unknown paths included. */
  readonly requestsTotal: number;
  /** Requests per rate-limit group (429s included). */
  readonly requestsByGroup: Record<string, number>;
  /** 429 answers sent. */
  readonly rateLimited: number;
  /** Access tokens issued. */
  readonly tokensIssued: number;
  /** Faults that fired. */
  readonly faultsFired: number;
  /** Orders actually created (replays excluded). */
  readonly ordersCreated: number;
  /** Modifies done (refused ones excluded). */
  readonly ordersModified: number;
  /** Cancels done (refused ones excluded). */
  readonly ordersCanceled: number;
  /** clientOrderId → orders created with it. */
  readonly ordersPerClientOrderId: Record<string, number>;
}

/** The part of the market the control API moves. */
export interface ControllableMarket {
  setPrice(symbol: string, price: Decimal): void;
  instrument(symbol: string): unknown;
}

/** What {@link SimulatorControl} acts on. */
export interface ControlTargets {
  readonly clock: ScaledClock;
  readonly market: ControllableMarket;
  readonly brokerage: BrokerageEndpoints;
  readonly tokens: TokenAuthority;
  readonly faults: FaultInjector;
  readonly counters: ServerCounters;
  /** The holidays and special sessions declared on top of the built-in calendar. */
  readonly calendar: DeclaredCalendar;
}

/** The declarations {@link SimulatorControl.calendar} lists. */
export type DeclaredCalendarList = ReturnType<DeclaredCalendar['list']>;

function invalid(field: string, message: string): SimApiError {
  return new SimApiError(400, 'invalid-request', message, { field });
}

/**
 * The control API: clock, prices, faults, token revocation, declared calendar days and counters. The
 * handle of `startSimulator` exposes it as methods and, with `control: true`,
 * the server serves it under `/_sim/`. Invalid input throws `SimApiError` 400.
 */
export class SimulatorControl {
  constructor(private readonly targets: ControlTargets) {}

  /** The simulated time now (KST). */
  now(): DateTime {
    return this.targets.clock.now();
  }

  /** Simulated seconds per real second. */
  speed(): number {
    return this.targets.clock.getSpeed();
  }

  /** Jumps the simulated clock to `at` (backwards allowed; matching never rewinds) and returns the new time. */
  setClock(at: DateTime | string): DateTime {
    let instant: DateTime;
    try {
      instant = typeof at === 'string' ? parseDateTime(at, 'at') : at;
    } catch (error) {
      throw invalid('at', error instanceof Error ? error.message : String(error));
    }
    if (!instant.isValid) throw invalid('at', 'at: the DateTime is invalid');
    this.targets.clock.set(instant);
    return this.settle();
  }

  /** Moves the simulated clock forward by `ms` milliseconds; orders match up to the new time. */
  advanceClock(ms: number): DateTime {
    if (!Number.isFinite(ms) || ms < 0)
      throw invalid('ms', `ms: expected a non-negative number, found ${ms}`);
    this.targets.clock.advance(ms);
    return this.settle();
  }

  /** Sets the clock speed (simulated seconds per real second; 0 freezes it). */
  setSpeed(speed: number): void {
    if (!Number.isFinite(speed) || speed < 0) {
      throw invalid('speed', `speed: expected a non-negative number, found ${speed}`);
    }
    this.targets.clock.setSpeed(speed);
  }

  /** Jumps a symbol's price now; resting orders that the new price crosses fill. */
  setPrice(symbol: string, price: Decimal | string): void {
    if (this.targets.market.instrument(symbol) === undefined) {
      throw new SimApiError(404, 'stock-not-found', `Unknown symbol: ${symbol}`);
    }
    let value: Decimal;
    try {
      value = typeof price === 'string' ? parseDecimal(price, 'price') : price;
    } catch (error) {
      throw invalid('price', error instanceof Error ? error.message : String(error));
    }
    if (!value.isFinite() || value.lte(0))
      throw invalid('price', `price: expected a positive decimal, found ${value}`);
    this.targets.market.setPrice(symbol, value);
    this.settle();
  }

  /** Adds a fault and returns its id. */
  injectFault(spec: FaultSpec): string {
    try {
      return this.targets.faults.add(spec);
    } catch (error) {
      const issue = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues?.[0];
      if (issue === undefined) throw error;
      const field = issue.path.map(String).join('.') || 'fault';
      throw invalid(field, `fault ${field}: ${issue.message}`);
    }
  }

  /** Removes one fault; returns whether it existed. */
  removeFault(id: string): boolean {
    return this.targets.faults.remove(id);
  }

  /** Removes every fault. */
  clearFaults(): void {
    this.targets.faults.clear();
  }

  /** The active faults. */
  faults(): ActiveFault[] {
    return this.targets.faults.list();
  }

  /** Revokes the current token of one client (or of all); the old token then gets 401 `token-revoked`. */
  revokeToken(clientId?: string): number {
    return this.targets.tokens.revoke(clientId);
  }

  /**
   * Declares holidays and special sessions (regular hours of a day, `HH:MM` local) on top of those
   * already declared: the calendar endpoints answer them and orders follow them from the next
   * request; returns every declaration. Nothing is declared when one is invalid.
   *
   * @throws {@link SimApiError} 400 `invalid-request` naming the field
   */
  declareCalendar(input: CalendarDeclaration): DeclaredCalendarList {
    this.targets.calendar.declare(input);
    return this.targets.calendar.list();
  }

  /** Every declared holiday and special session. */
  calendar(): DeclaredCalendarList {
    return this.targets.calendar.list();
  }

  /** Forgets every declared holiday and special session (the built-in calendar stays). */
  clearCalendar(): void {
    this.targets.calendar.clear();
  }

  /** Every count, server and brokerage. */
  counters(): SimCounters {
    const { counters, tokens, brokerage } = this.targets;
    const orders = brokerage.counters();
    return {
      requestsTotal: counters.requestsTotal,
      requestsByGroup: counters.requestsByGroup(),
      rateLimited: counters.rateLimited,
      tokensIssued: tokens.tokensIssued,
      faultsFired: counters.faultsFired,
      ordersCreated: orders.ordersCreated,
      ordersModified: orders.ordersModified,
      ordersCanceled: orders.ordersCanceled,
      ordersPerClientOrderId: { ...orders.ordersPerClientOrderId },
    };
  }

  private settle(): DateTime {
    const now = this.targets.clock.now();
    this.targets.brokerage.advanceTo(now);
    return now;
  }
}
