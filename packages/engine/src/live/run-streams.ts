/**
 * The connector streams a paper or live run polls its market data on (the run's candles, the
 * strategies' subscriptions, the paper account's books, the USD/KRW rate).
 *
 * @module
 */
import { type BrokerClient, BrokerStreams, type StreamIntervals } from '@hoga/connector';
import type { Clock, Market, MarketCalendar } from '@hoga/core';
import { OpenWakeHours } from './open-wake.js';

/** What {@link runStreams} needs. */
export interface RunStreamsOptions {
  /** The broker client. */
  readonly client: BrokerClient;
  /** The engine clock. */
  readonly clock: Clock;
  /** The run's stream intervals, if any were set. */
  readonly streamIntervals?: Partial<StreamIntervals> | undefined;
  /** A market's calendar as last read from the broker (the risk module's), or undefined while none is known. */
  readonly calendar: (market: Market) => MarketCalendar | undefined;
  /** Receives a failed poll (the stream goes on). */
  readonly onError: (error: unknown, key: string) => void;
}

/**
 * The run's streams.
 *
 * @param o - client, clock, intervals, calendars, error sink
 */
export function runStreams(o: RunStreamsOptions): BrokerStreams {
  return new BrokerStreams(o.client, {
    ...(o.streamIntervals === undefined ? {} : { intervals: o.streamIntervals }),
    // a closed market is looked at again shortly before its next open, not up to 30 s after it
    marketHours: new OpenWakeHours({ client: o.client, clock: o.clock, calendar: o.calendar }),
    onError: o.onError,
  });
}
