import {
  firstSchemaIssue,
  type GroupLimit,
  KST_ZONE,
  parseDateTime,
  RATE_LIMITS,
  type RateLimitGroup,
  ScaledClock,
  schemaIssueLine,
} from '@hoga/core';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { SimApiError } from './api-error.js';
import { Brokerage } from './brokerage/brokerage.js';
import { type BrokerageState, readState } from './brokerage/state-file.js';
import { type CalendarDeclaration, DeclaredCalendar } from './market/declared-calendar.js';
import { SimCalendar } from './market/sim-calendar.js';
import { SimMarket } from './market/sim-market.js';
import { type SimulatorHandle, serveSimulator } from './server/serve-simulator.js';
import { SimulatorError } from './server/simulator-error.js';

/** Options of {@link startSimulator}. */
export interface SimulatorOptions {
  /** Interface to bind; default `127.0.0.1`. */
  readonly host?: string;
  /** Port; default 0 (a free port). */
  readonly port?: number;
  /** Seed of every random process (markets, faults); default 1. */
  readonly seed?: number;
  /**
   * Simulated start instant, or `'now'` for the real time now. Default: the clock saved in
   * `statePath` when that file holds one (a restart goes on where the last run stopped), else
   * the real time now.
   */
  readonly start?: DateTime | string;
  /** Simulated seconds per real second; default 1. */
  readonly speed?: number;
  /** Default `sim-client`. */
  readonly clientId?: string;
  /** Default `sim-secret`. */
  readonly clientSecret?: string;
  /** Token lifetime in simulated seconds; default 86400. */
  readonly tokenTtlSeconds?: number;
  /** File in which accounts, orders and the simulated clock survive a restart. */
  readonly statePath?: string;
  /** Enforce the spec's rate limits; default true. */
  readonly rateLimit?: boolean;
  /**
   * Limits of some groups that differ from the spec's table (a live broker's can: they arrive in
   * `X-RateLimit-Limit`, which the connector follows), enforced and announced instead; default none.
   * Tests that read many rates or candles use higher ones rather than wait at the spec's pace.
   */
  readonly rateLimits?: Readonly<Partial<Record<RateLimitGroup, GroupLimit>>>;
  /**
   * Holidays and special sessions (a day's regular hours, `HH:MM` in the market's time) on top of
   * the built-in calendar: the calendar endpoints answer them and orders follow them; default none.
   * The control API declares more while running (`declareCalendar`, `POST /_sim/calendar`).
   */
  readonly calendar?: CalendarDeclaration;
  /** Serve the control API under `/_sim/`; default false. */
  readonly control?: boolean;
  /** Name of the account header; default `X-Service-Account`. */
  readonly accountHeader?: string;
  /** Generated KR stocks (`400001`, …) listed besides the fixed universe, for benchmarks; default 0. */
  readonly extraSymbols?: number;
  /** Real milliseconds between two background matching runs; default 100. */
  readonly matchIntervalMs?: number;
  /**
   * Receives unexpected errors (answered 500) and failed saves of `statePath` (method `SAVE`,
   * not answered: the change stands); default writes them to stderr.
   */
  readonly onInternalError?: (error: unknown, method: string, path: string) => void;
}

const optionsSchema = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(0),
  seed: z.number().int().default(1),
  speed: z.number().nonnegative().default(1),
  clientId: z.string().min(1).default('sim-client'),
  clientSecret: z.string().min(1).default('sim-secret'),
  tokenTtlSeconds: z.number().int().positive().default(86_400),
  rateLimit: z.boolean().default(true),
  control: z.boolean().default(false),
  accountHeader: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/)
    .default('X-Service-Account'),
  matchIntervalMs: z.number().int().positive().default(100),
  extraSymbols: z.number().int().min(0).max(10_000).default(0),
});

function startInstant(start: DateTime | string | undefined, saved: BrokerageState | null): DateTime {
  if (start === undefined) {
    return saved?.lastAdvancedMs == null
      ? DateTime.now()
      : DateTime.fromMillis(saved.lastAdvancedMs, { zone: KST_ZONE });
  }
  if (start === 'now') return DateTime.now();
  if (typeof start !== 'string') {
    if (start.isValid) return start;
    throw new SimulatorError('invalid-simulator-option', 'start: the DateTime is invalid', 'start');
  }
  try {
    return parseDateTime(start, 'start');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SimulatorError('invalid-simulator-option', `${message}, or now`, 'start', { cause: error });
  }
}

function parseOptions(options: SimulatorOptions): z.output<typeof optionsSchema> {
  const { start: _s, statePath: _p, onInternalError: _e, rateLimits: _r, calendar: _c, ...rest } = options;
  const result = optionsSchema.safeParse(rest);
  if (result.success) return result.data;
  // the first failed option, its value and what was expected (zod's own words did not show the value)
  const issue = firstSchemaIssue(result.error, rest, 'options');
  throw new SimulatorError('invalid-simulator-option', schemaIssueLine(issue), issue.field);
}

function declaredCalendar(input: CalendarDeclaration | undefined): DeclaredCalendar {
  const declared = new DeclaredCalendar();
  if (input === undefined) return declared;
  try {
    declared.declare(input);
  } catch (error) {
    if (!(error instanceof SimApiError)) throw error;
    const field = `calendar.${String(error.data?.field ?? '')}`;
    throw new SimulatorError('invalid-simulator-option', `calendar.${error.message}`, field, {
      cause: error,
    });
  }
  return declared;
}

/**
 * Starts the simulated broker: a real HTTP server on `host:port` serving every
 * endpoint of the spec, with markets and a brokerage that move with a scaled
 * simulated clock.
 *
 * @example
 * ```ts
 * const sim = await startSimulator({ seed: 7, start: '2026-11-23T10:00:00+09:00', control: true });
 * const res = await fetch(`${sim.url}/oauth2/token`, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/x-www-form-urlencoded' },
 *   body: 'grant_type=client_credentials&client_id=sim-client&client_secret=sim-secret',
 * });
 * await sim.close();
 * ```
 * @throws {@link SimulatorError} `invalid-simulator-option` for a bad option
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<SimulatorHandle> {
  const config = parseOptions(options);
  const saved = options.statePath === undefined ? null : await readState(options.statePath);
  const start = startInstant(options.start, saved);
  const clock = new ScaledClock({ start, speed: config.speed });
  const calendar = new SimCalendar(declaredCalendar(options.calendar));
  const market = new SimMarket({ seed: config.seed, clock, extraSymbols: config.extraSymbols, calendar });
  const brokerage = Brokerage.restored(
    {
      market,
      clock,
      seed: config.seed,
      ...(options.statePath === undefined ? {} : { statePath: options.statePath }),
      ...(options.onInternalError === undefined
        ? {}
        : {
            onSaveError: (error: unknown) =>
              options.onInternalError?.(error, 'SAVE', options.statePath ?? ''),
          }),
    },
    saved,
  );
  const resumedAt = options.start === undefined && saved?.lastAdvancedMs != null ? start : null;
  return serveSimulator({
    ...config,
    clock,
    market,
    brokerage,
    resumedAt,
    onInternalError: options.onInternalError,
    rateLimits: { ...RATE_LIMITS, ...options.rateLimits },
  });
}
