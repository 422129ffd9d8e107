/**
 * The last prices of single symbols watched one by one (`BrokerStreams.price$`), read together:
 * one poll per market whose request lists every symbol watched in that market (up to 200 a
 * request; more are read 200 at a time in turn), as `GET /prices` allows, where a poll per symbol
 * spent one request of the market-data group on each. The list is read afresh at each poll, so a
 * symbol watched later joins the next one. A symbol the broker does not know fails the whole
 * request (404 `stock-not-found`): the symbols the stock list leaves out are then dropped and
 * reported each on its own key (`prices:<symbol>+0`, as a stream of that symbol alone reports it),
 * and the others are read again at once.
 *
 * @module
 */
import { type Market, RateLimitGroup } from '@hoga/core';
import type { Observable } from 'rxjs';
import type { BrokerClient } from '../client/broker-client.js';
import { BrokerApiError } from '../errors.js';
import { RequestPriority } from '../rate-limit/rate-limit-groups.js';
import type { Price } from '../schemas/market-data.js';
import type { PollScheduler } from './poll-scheduler.js';

/** Most symbols of one `GET /prices` (spec: 1 to 200). */
const MAX_SYMBOLS = 200;

/** What {@link WatchedPrices} polls with. */
export interface WatchedPricesOptions {
  readonly client: BrokerClient;
  readonly polls: PollScheduler;
  /** Least time between two polls of a market (ms). */
  readonly minIntervalMs: number;
  /** Told of each symbol the broker does not know, and of failed polls. */
  readonly onError?: ((error: unknown, key: string) => void) | undefined;
}

/** The watched symbols per market and their shared polls; see the module description. */
export class WatchedPrices {
  private readonly watched = new Map<Market, Map<string, number>>();
  private readonly next = new Map<Market, number>();

  /** @param o - client, poll scheduler, interval, error sink */
  constructor(private readonly o: WatchedPricesOptions) {}

  /**
   * Counts one more watcher of `symbol` (call before subscribing to {@link WatchedPrices.poll$});
   * answers the function that counts it off.
   */
  watch(market: Market, symbol: string): () => void {
    const symbols = this.symbols(market);
    symbols.set(symbol, (symbols.get(symbol) ?? 0) + 1);
    return () => {
      const n = symbols.get(symbol);
      if (n === undefined) return;
      if (n <= 1) symbols.delete(symbol);
      else symbols.set(symbol, n - 1);
    };
  }

  /** The cold poll of a market's watched symbols (share it: one per market). */
  poll$(market: Market): Observable<readonly Price[]> {
    return this.o.polls.poll$({
      group: RateLimitGroup.MARKET_DATA,
      key: `prices:watched-${market}`,
      market,
      minIntervalMs: this.o.minIntervalMs,
      fetch: (signal) => this.read(market, signal),
    });
  }

  private symbols(market: Market): Map<string, number> {
    let symbols = this.watched.get(market);
    if (symbols === undefined) {
      symbols = new Map();
      this.watched.set(market, symbols);
    }
    return symbols;
  }

  /** The next (up to) 200 watched symbols of `market`, in turn. */
  private chunk(market: Market): string[] {
    const all = [...this.symbols(market).keys()].sort();
    let from = this.next.get(market) ?? 0;
    if (from >= all.length) from = 0;
    this.next.set(market, from + MAX_SYMBOLS);
    return all.slice(from, from + MAX_SYMBOLS);
  }

  private async read(market: Market, signal: AbortSignal): Promise<readonly Price[]> {
    const chunk = this.chunk(market);
    if (chunk.length === 0) return [];
    const options = { priority: RequestPriority.POLL, signal };
    try {
      return await this.o.client.getPrices(chunk, options);
    } catch (error) {
      if (!(error instanceof BrokerApiError) || error.code !== 'stock-not-found') throw error;
      // which of them the broker does not know: the stock list leaves those out
      const listed = await this.o.client.getStocks(chunk, options);
      const known = new Set(listed.map((s) => s.symbol.toUpperCase()));
      const unknown = chunk.filter((symbol) => !known.has(symbol.toUpperCase()));
      if (unknown.length === 0) throw error;
      const symbols = this.symbols(market);
      for (const symbol of unknown) {
        symbols.delete(symbol);
        this.o.onError?.(error, `prices:${symbol}+0`);
      }
      const rest = chunk.filter((symbol) => known.has(symbol.toUpperCase()));
      return rest.length === 0 ? [] : await this.o.client.getPrices(rest, options);
    }
  }
}
