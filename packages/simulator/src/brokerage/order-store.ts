import { createHash, randomBytes } from 'node:crypto';
import { KST_ZONE } from '@hoga/core';
import { DateTime } from 'luxon';
import { invalidRequest, orderNotFound } from './brokerage-errors.js';
import { toOrderRecord } from './order-records.js';
import { isOpen, type SimOrder } from './order-types.js';

const DEFAULT_CLOSED_LIMIT = 20;
const MAX_CLOSED_LIMIT = 100;
const SYMBOL_TEXT = /^[A-Za-z0-9.-]+$/;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;

interface CursorPosition {
  readonly t: number;
  readonly s: number;
}

/** Newest first: by creation time, then by creation sequence. */
function newestFirst(a: SimOrder, b: SimOrder): number {
  return b.orderedAtMs - a.orderedAtMs || b.seq - a.seq;
}

function encodeCursor(order: SimOrder): string {
  return Buffer.from(JSON.stringify({ t: order.orderedAtMs, s: order.seq })).toString('base64url');
}

function decodeCursor(cursor: string): CursorPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      typeof value === 'object' &&
      value !== null &&
      Number.isSafeInteger((value as CursorPosition).t) &&
      Number.isSafeInteger((value as CursorPosition).s)
    ) {
      return value as CursorPosition;
    }
  } catch {
    // fall through to the error below
  }
  throw invalidRequest('cursor', 'cursor is not a cursor this server issued');
}

function parseKstDate(query: URLSearchParams, field: 'from' | 'to'): DateTime | null {
  const text = query.get(field);
  if (text === null || text === '') return null;
  const date = DATE_TEXT.test(text) ? DateTime.fromISO(text, { zone: KST_ZONE }) : null;
  if (!date?.isValid) throw invalidRequest(field, `${field} must be a date YYYY-MM-DD`, { format: 'date' });
  return date;
}

function parseLimit(query: URLSearchParams): number {
  const text = query.get('limit');
  if (text === null || text === '') return DEFAULT_CLOSED_LIMIT;
  const limit = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_CLOSED_LIMIT)) {
    throw invalidRequest('limit', 'limit must be an integer from 1 to 100', {
      constraint: { min: 1, max: MAX_CLOSED_LIMIT },
    });
  }
  return limit;
}

/**
 * All orders of all accounts, with their ids and the order-history queries. An order id is unique
 * across simulator instances, as a real broker's never repeats: a simulator started afresh (the
 * same seed, no state file) behind a store that outlived the last one must not hand out the ids of
 * the orders that store already has.
 */
export class OrderStore {
  private readonly byId = new Map<string, SimOrder>();
  private sequence: number;
  /** This instance's part of every id it hands out (random). */
  private readonly instance = randomBytes(12).toString('base64url');

  constructor(
    private readonly seed: number,
    orders: readonly SimOrder[] = [],
    sequence = 0,
  ) {
    for (const order of [...orders].sort((a, b) => a.seq - b.seq)) this.byId.set(order.orderId, order);
    this.sequence = sequence;
  }

  /** The last sequence number handed out (persisted). */
  lastSequence(): number {
    return this.sequence;
  }

  /** Reserves the next sequence number and its opaque, URL-safe, 64-character order id. */
  nextId(): { seq: number; orderId: string } {
    this.sequence += 1;
    const orderId = createHash('sha384')
      .update(`hoga-sim:${this.seed}:${this.instance}:${this.sequence}`)
      .digest('base64url');
    return { seq: this.sequence, orderId };
  }

  /** Stores a new order. */
  add(order: SimOrder): void {
    this.byId.set(order.orderId, order);
  }

  /** The order of an account; 404 `order-not-found` when unknown or of another account. */
  require(accountSeq: number, orderId: string): SimOrder {
    const order = this.byId.get(orderId);
    if (!order || order.accountSeq !== accountSeq) throw orderNotFound(orderId);
    return order;
  }

  /** Every order, oldest first (insertion order is creation order). */
  all(): SimOrder[] {
    return [...this.byId.values()];
  }

  /** Open orders (every account), oldest first: the matching order. */
  open(): SimOrder[] {
    return this.all().filter(isOpen);
  }

  /** Open orders of one account. */
  openOf(accountSeq: number): SimOrder[] {
    return this.open().filter((o) => o.accountSeq === accountSeq);
  }

  /**
   * Payload of `GET /api/v1/orders`: `status` (OPEN|CLOSED, required),
   * optional `symbol`, `from`/`to` (KST dates on `orderedAt`, inclusive);
   * CLOSED pages newest first by `limit` (default 20, max 100) and `cursor`.
   * Orders hidden by the `hide-new-orders` fault are left out until `nowMs`
   * passes their hiding time.
   */
  list(accountSeq: number, query: URLSearchParams, nowMs: number): unknown {
    const status = query.get('status');
    if (status !== 'OPEN' && status !== 'CLOSED') {
      throw invalidRequest('status', 'status must be OPEN or CLOSED', { allowedValues: ['OPEN', 'CLOSED'] });
    }
    const symbol = query.get('symbol');
    if (symbol !== null && !SYMBOL_TEXT.test(symbol)) {
      throw invalidRequest('symbol', 'symbol may hold only letters, digits, "." and "-"', {
        pattern: SYMBOL_TEXT.source,
      });
    }
    const from = parseKstDate(query, 'from');
    const to = parseKstDate(query, 'to');
    if (from && to && from > to) throw invalidRequest('from,to', 'from must not be after to');
    const fromMs = from ? from.toMillis() : Number.NEGATIVE_INFINITY;
    const toMs = to ? to.plus({ days: 1 }).toMillis() : Number.POSITIVE_INFINITY;
    const matching = [...this.byId.values()]
      .filter(
        (o) =>
          o.accountSeq === accountSeq &&
          isOpen(o) === (status === 'OPEN') &&
          (symbol === null || o.symbol === symbol) &&
          o.orderedAtMs >= fromMs &&
          o.orderedAtMs < toMs &&
          o.hiddenUntilMs <= nowMs,
      )
      .sort(newestFirst);
    if (status === 'OPEN') return { orders: matching.map(toOrderRecord), nextCursor: null, hasNext: false };
    const limit = parseLimit(query);
    const cursorText = query.get('cursor');
    let start = 0;
    if (cursorText !== null && cursorText !== '') {
      const after = decodeCursor(cursorText);
      const index = matching.findIndex(
        (o) => o.orderedAtMs < after.t || (o.orderedAtMs === after.t && o.seq < after.s),
      );
      start = index === -1 ? matching.length : index;
    }
    const page = matching.slice(start, start + limit);
    const hasNext = start + limit < matching.length;
    const last = page.at(-1);
    return {
      orders: page.map(toOrderRecord),
      nextCursor: hasNext && last ? encodeCursor(last) : null,
      hasNext,
    };
  }
}
