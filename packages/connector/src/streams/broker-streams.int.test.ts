import { VirtualClock } from '@hoga/core';
import { asyncScheduler, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { BrokerClient } from '../client/broker-client.js';
import type { Price } from '../schemas/market-data.js';
import { BrokerStreams } from './broker-streams.js';

/** A client stand-in that records the symbol lists of `getPrices` and answers no prices. */
function recordingClient(calls: string[][]): BrokerClient {
  const client = {
    clock: new VirtualClock('2026-11-23T10:00:00+09:00'),
    scheduler: asyncScheduler,
    config: { rateLimitUtilization: 1 },
    limiter: { limitOf: () => 1000, rateOf: () => 1000 },
    getPrices: async (symbols: readonly string[]): Promise<readonly Price[]> => {
      calls.push([...symbols]);
      return [];
    },
  };
  return client as unknown as BrokerClient;
}

describe('BrokerStreams', () => {
  describe('.prices$', () => {
    it('polls at most 200 symbols a call, one market a call, each symbol once', async () => {
      const calls: string[][] = [];
      const streams = new BrokerStreams(recordingClient(calls), { marketHours: { isOpen: () => true } });
      const kr = Array.from({ length: 401 }, (_, i) => String(100000 + i));
      await new Promise<void>((resolve) =>
        streams
          .prices$([...kr, 'AAPL', 'NVDA', 'AAPL', kr[0]!])
          .pipe(take(4), toArray())
          .subscribe(() => resolve()),
      );
      streams.dispose();
      const firstRound = calls.slice(0, 4);
      expect(firstRound.map((c) => c.length).sort((a, b) => a - b)).toEqual([1, 2, 200, 200]);
      expect(new Set(firstRound.flat()).size).toBe(403);
      expect(firstRound.find((c) => c.length === 2)).toEqual(['AAPL', 'NVDA']);
    });
  });
  it('aborts the calendar read of its market hours when the last subscription ends', async () => {
    const signals: AbortSignal[] = [];
    const client = {
      ...(recordingClient([]) as unknown as Record<string, unknown>),
      getKrMarketCalendar: (_date: undefined, options: { signal: AbortSignal }) => {
        signals.push(options.signal);
        return new Promise((_resolve, reject) =>
          options.signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      },
    } as unknown as BrokerClient;
    const streams = new BrokerStreams(client);
    const sub = streams.orderbook$('005930').subscribe();
    await new Promise((r) => setTimeout(r, 20));
    expect(signals.map((s) => s.aborted)).toEqual([false]);
    sub.unsubscribe();
    expect(signals.map((s) => s.aborted)).toEqual([true]);
    expect(streams.polls.activity()).toEqual({ jobs: 0, timers: 0, inFlight: 0 });
  });
});
