import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BrokerOrderStatus, Decimal, type KnownBrokerOrderStatus } from '@hoga/core';
import { z } from 'zod';
import { SimulatorError } from '../server/simulator-error.js';
import type { SimAccount } from './accounts.js';
import type { IdempotencyEntry } from './idempotency.js';
import { type Holding, Ledger } from './ledger.js';
import type { SimOrder } from './order-types.js';

const STATE_VERSION = 1;

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);
const nullableDecimal = decimal.nullable();

const orderSchema = z.object({
  orderId: z.string(),
  seq: z.number().int(),
  accountSeq: z.number().int(),
  symbol: z.string(),
  country: z.enum(['KR', 'US']),
  currency: z.enum(['KRW', 'USD']),
  side: z.enum(['BUY', 'SELL']),
  orderType: z.enum(['LIMIT', 'MARKET']),
  timeInForce: z.enum(['DAY', 'CLS']),
  status: z.enum(Object.values(BrokerOrderStatus) as [KnownBrokerOrderStatus, ...KnownBrokerOrderStatus[]]),
  price: nullableDecimal,
  quantity: decimal,
  orderAmount: nullableDecimal,
  orderedAtMs: z.number(),
  canceledAtMs: z.number().nullable(),
  expiresAtMs: z.number(),
  reservePrice: decimal,
  filledQuantity: decimal,
  filledAmount: decimal,
  commission: decimal,
  tax: decimal,
  filledAtMs: z.number().nullable(),
  settlementDate: z.string().nullable(),
  kind: z.enum(['ORDER', 'CANCEL']),
  originOrderId: z.string().nullable(),
  hiddenUntilMs: z.number(),
});

const stateSchema = z.object({
  version: z.literal(STATE_VERSION),
  sequence: z.number().int().nonnegative(),
  lastAdvancedMs: z.number().nullable(),
  accounts: z.array(
    z.object({
      accountSeq: z.number().int(),
      accountNo: z.string(),
      cash: z.record(z.string(), decimal),
      holdings: z.record(z.string(), z.object({ quantity: decimal, averagePrice: decimal })),
    }),
  ),
  orders: z.array(orderSchema),
  idempotency: z.array(
    z.object({
      key: z.string(),
      fingerprint: z.string(),
      firstSeenMs: z.number(),
      result: z.object({ orderId: z.string(), clientOrderId: z.string().nullable() }),
    }),
  ),
  counters: z.object({
    ordersCreated: z.number().int(),
    // absent from a state file written before they were counted
    ordersModified: z.number().int().default(0),
    ordersCanceled: z.number().int().default(0),
    ordersPerClientOrderId: z.record(z.string(), z.number()),
  }),
});

/** Everything the brokerage persists across a restart. */
export interface BrokerageState {
  readonly sequence: number;
  readonly lastAdvancedMs: number | null;
  readonly accounts: SimAccount[];
  readonly orders: SimOrder[];
  readonly idempotency: IdempotencyEntry[];
  readonly counters: BrokerageCounters;
}

/** The brokerage's counts: orders created, modified and canceled (refusals and replays excluded). */
export interface BrokerageCounters {
  /** Orders actually created (replays excluded; modify and cancel records not counted). */
  readonly ordersCreated: number;
  /** Modifies done (each replaced an open order). */
  readonly ordersModified: number;
  /** Cancels done (each closed an open order). */
  readonly ordersCanceled: number;
  /** clientOrderId → orders created with it. */
  readonly ordersPerClientOrderId: Record<string, number>;
}

const d = (text: string) => new Decimal(text);
const nd = (text: string | null) => (text === null ? null : new Decimal(text));

function orderToJson(o: SimOrder): z.infer<typeof orderSchema> {
  return {
    ...o,
    price: o.price?.toFixed() ?? null,
    quantity: o.quantity.toFixed(),
    orderAmount: o.orderAmount?.toFixed() ?? null,
    reservePrice: o.reservePrice.toFixed(),
    filledQuantity: o.filledQuantity.toFixed(),
    filledAmount: o.filledAmount.toFixed(),
    commission: o.commission.toFixed(),
    tax: o.tax.toFixed(),
  };
}

function orderFromJson(o: z.infer<typeof orderSchema>): SimOrder {
  return {
    ...o,
    price: nd(o.price),
    quantity: d(o.quantity),
    orderAmount: nd(o.orderAmount),
    reservePrice: d(o.reservePrice),
    filledQuantity: d(o.filledQuantity),
    filledAmount: d(o.filledAmount),
    commission: d(o.commission),
    tax: d(o.tax),
  };
}

/**
 * Writes the state atomically: a temporary file beside the target, then a
 * rename, so that a crash leaves either the old or the new file.
 */
export async function writeState(path: string, state: BrokerageState): Promise<void> {
  const json = {
    version: STATE_VERSION,
    sequence: state.sequence,
    lastAdvancedMs: state.lastAdvancedMs,
    accounts: state.accounts.map((a) => ({
      accountSeq: a.accountSeq,
      accountNo: a.accountNo,
      ...a.ledger.snapshot(),
    })),
    orders: state.orders.map(orderToJson),
    idempotency: state.idempotency,
    counters: state.counters,
  };
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(json, null, 1)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

const WHAT_TO_DO = 'fix it, move it away, or start without --state';

function unusable(path: string, problem: string, cause?: unknown): SimulatorError {
  return new SimulatorError(
    'invalid-state-file',
    `the state file ${path} ${problem}; ${WHAT_TO_DO}`,
    'statePath',
    cause === undefined ? {} : { cause },
  );
}

/**
 * Reads a state file; null when it does not exist.
 *
 * @throws {@link SimulatorError} `invalid-state-file`, one line naming the file and the first
 * problem, when it is a directory, not JSON, or not a simulator state
 */
export async function readState(path: string): Promise<BrokerageState | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'EISDIR') throw unusable(path, 'is a directory', error);
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw unusable(path, `is not valid JSON (${(error as Error).message})`, error);
  }
  const parsed = stateSchema.safeParse(json);
  if (!parsed.success) {
    const [first, ...more] = parsed.error.issues;
    const where = first?.path.map(String).join('.') || 'top level';
    const others = more.length === 0 ? '' : `; and ${more.length} more problem${more.length > 1 ? 's' : ''}`;
    throw unusable(path, `is corrupt (${where}: ${first?.message ?? 'invalid'}${others})`, parsed.error);
  }
  const s = parsed.data;
  return {
    sequence: s.sequence,
    lastAdvancedMs: s.lastAdvancedMs,
    accounts: s.accounts.map((a) => ({
      accountSeq: a.accountSeq,
      accountNo: a.accountNo,
      accountType: 'BROKERAGE',
      ledger: new Ledger(
        { KRW: d(a.cash.KRW ?? '0'), USD: d(a.cash.USD ?? '0') },
        new Map<string, Holding>(
          Object.entries(a.holdings).map(([symbol, h]) => [
            symbol,
            { quantity: d(h.quantity), averagePrice: d(h.averagePrice) },
          ]),
        ),
      ),
    })),
    orders: s.orders.map(orderFromJson),
    idempotency: s.idempotency,
    counters: s.counters,
  };
}
