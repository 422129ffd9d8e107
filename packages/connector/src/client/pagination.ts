/**
 * Pagination as async iterators: candles over any date range (`before` / `nextBefore`) and closed
 * orders (`cursor`).
 *
 * @module
 */
import { parseDateTime } from '@hoga/core';
import type { DateTime } from 'luxon';
import { InvalidArgumentError, ResponseShapeError } from '../errors.js';
import type { Candle, CandleInterval } from '../schemas/market-data.js';
import type { OrderRecord } from '../schemas/orders.js';
import type { BrokerClient, OrderListQuery } from './broker-client.js';
import type { CallOptions } from './request-executor.js';

/** A range of candles to read. */
export interface CandleRange {
  readonly interval: CandleInterval;
  /** Oldest candle stamp to include (inclusive); default: as far back as the broker goes. */
  readonly from?: DateTime | string;
  /** Only candles stamped before this (exclusive); default: the newest candle. */
  readonly to?: DateTime | string;
  /** Stop after this many candles. */
  readonly limit?: number;
  /** Candles per request, 1 to 200 (default 200). */
  readonly pageSize?: number;
  /** Corporate-action adjustment (default true). */
  readonly adjusted?: boolean;
}

function instant(value: DateTime | string, field: string): DateTime {
  if (typeof value !== 'string') return value;
  try {
    return parseDateTime(value, field);
  } catch (error) {
    throw new InvalidArgumentError(field, error instanceof Error ? error.message : String(error));
  }
}

/**
 * Candles of `symbol`, newest first, page after page until `from`, `limit` or the start of the
 * broker's history.
 *
 * @param client - the broker client
 * @param symbol - the symbol
 * @param range - interval and bounds
 * @param options - signal and priority for every page request
 * @throws {@link ResponseShapeError} when a page's `nextBefore` does not go back from the `before`
 *   it was asked with (the same candles again, for ever)
 */
export async function* candlePages(
  client: Pick<BrokerClient, 'getCandles'>,
  symbol: string,
  range: CandleRange,
  options?: CallOptions,
): AsyncGenerator<Candle, void, undefined> {
  const from = range.from === undefined ? null : instant(range.from, 'from');
  let before: string | undefined = range.to === undefined ? undefined : instant(range.to, 'to').toISO()!;
  let beforeAt: DateTime | null = range.to === undefined ? null : instant(range.to, 'to');
  let yielded = 0;
  for (;;) {
    const page = await client.getCandles(
      symbol,
      {
        interval: range.interval,
        count: range.pageSize ?? 200,
        ...(before === undefined ? {} : { before }),
        ...(range.adjusted === undefined ? {} : { adjusted: range.adjusted }),
      },
      options,
    );
    // `before` is exclusive: a next page that does not start earlier would repeat this one for ever
    if (beforeAt !== null && page.nextBefore !== null && page.nextBefore >= beforeAt) {
      throw new ResponseShapeError(
        'getCandles',
        'result.nextBefore',
        `${page.nextBefore.toISO()} does not go back from the ${beforeAt.toISO()} asked for: the broker would send the same candles again`,
      );
    }
    for (const candle of page.candles) {
      if (from !== null && candle.timestamp < from) return;
      yield candle;
      yielded++;
      if (range.limit !== undefined && yielded >= range.limit) return;
    }
    if (page.nextBefore === null || page.candles.length === 0) return;
    // Passed unchanged, as the spec asks.
    const raw = page.raw.nextBefore;
    before = typeof raw === 'string' ? raw : page.nextBefore.toISO()!;
    beforeAt = page.nextBefore;
  }
}

/**
 * Every CLOSED order matching `query`, following `cursor` until the last page.
 *
 * @param client - the broker client
 * @param query - filters (symbol, from, to) and page size (`limit`, at most 100)
 * @param options - signal and priority for every page request
 * @throws {@link ResponseShapeError} when a page hands back the cursor it was asked with as its
 *   `nextCursor` (the same orders again, for ever)
 */
export async function* closedOrders(
  client: BrokerClient,
  query: Omit<OrderListQuery, 'status' | 'cursor'> = {},
  options?: CallOptions,
): AsyncGenerator<OrderRecord, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await client.listOrders(
      { ...query, status: 'CLOSED', limit: query.limit ?? 100, ...(cursor === undefined ? {} : { cursor }) },
      options,
    );
    if (cursor !== undefined && page.hasNext && page.nextCursor === cursor) {
      throw new ResponseShapeError(
        'listOrders',
        'result.nextCursor',
        `the cursor ${cursor} asked with came back as the next one: the broker would send the same orders again`,
      );
    }
    yield* page.orders;
    if (page.nextCursor === null || !page.hasNext || page.orders.length === 0) return;
    cursor = page.nextCursor;
  }
}
