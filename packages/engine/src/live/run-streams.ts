/**
 * The connector streams a paper or live run polls its market data on (the run's candles, the
 * strategies' subscriptions, the paper account's books, the USD/KRW rate). They poll nothing
 * while a market is closed, and wake at its next open on the broker's calendar (the connector's
 * `MarketHours` and `PollScheduler`).
 *
 * @module
 */
import { type BrokerClient, BrokerStreams, type StreamIntervals } from '@hoga/connector';

/** What {@link runStreams} needs. */
export interface RunStreamsOptions {
  /** The broker client (on the engine clock). */
  readonly client: BrokerClient;
  /** The run's stream intervals, if any were set. */
  readonly streamIntervals?: Partial<StreamIntervals> | undefined;
  /** Receives a failed poll (the stream goes on). */
  readonly onError: (error: unknown, key: string) => void;
}

/**
 * The run's streams.
 *
 * @param o - client, intervals, error sink
 */
export function runStreams(o: RunStreamsOptions): BrokerStreams {
  return new BrokerStreams(o.client, {
    ...(o.streamIntervals === undefined ? {} : { intervals: o.streamIntervals }),
    onError: o.onError,
  });
}
