/**
 * The broker `hoga backtest` and `hoga data download` read candles from: the configured one, or,
 * with none configured (no `--base-url`, no `HOGA_BASE_URL`, no profile's `baseUrl`), a simulator
 * embedded in the process, whose candles are kept in their own file (`./data/hoga-sim.sqlite`
 * unless `--db` or `HOGA_DB`), apart from a real broker's cache; `hoga data list` and `export` read
 * that file then too.
 *
 * @module
 */
import type { BrokerClient } from '@hoga/connector';
import { resolveDatabasePath } from '@hoga/store';
import { directoryDatabase } from '../runtime/database-path.js';
import { usageError } from '../runtime/exit-codes.js';
import { type ConnectionFlags, connect } from './broker/connection.js';
import { SIMULATOR_DATABASE_PATH, usesDefaultDatabase } from './simulator-database.js';

/** A broker to download from: the configured one, or an embedded simulator. */
export interface MarketSource {
  readonly client: BrokerClient;
  /** Where it is, for messages. */
  readonly label: string;
  readonly simulated: boolean;
  close(): Promise<void>;
}

/** Whether a broker is configured (`--base-url`, else `HOGA_BASE_URL`, which a profile fills). */
export function connectionConfigured(flags: Pick<ConnectionFlags, 'baseUrl'>): boolean {
  return (flags.baseUrl ?? process.env.HOGA_BASE_URL ?? '') !== '';
}

/**
 * The candle database of a command: `--db`, else `HOGA_DB`, else the embedded simulator's file when
 * it reads the embedded simulator's candles (`simulated`), else `./data/hoga.sqlite`.
 */
export function candleDatabaseFile(db: string | undefined, simulated: boolean): string {
  return simulated && usesDefaultDatabase(db)
    ? resolveDatabasePath(SIMULATOR_DATABASE_PATH)
    : resolveDatabasePath(db);
}

/**
 * Refuses a database path that is a directory: a usage error (exit 2, `command`'s help pointed at),
 * where SQLite's own `EISDIR` would end the command as an unexpected error.
 */
export function refuseDirectoryDatabase(file: string, command: string): void {
  const directory = directoryDatabase(file);
  if (directory !== undefined) throw usageError(directory, command);
}

/** The configured broker. */
export function configuredBroker(flags: ConnectionFlags): MarketSource {
  const connection = connect(flags);
  return {
    client: connection.client,
    label: flags.baseUrl ?? process.env.HOGA_BASE_URL ?? '',
    simulated: false,
    close: async () => connection.close(),
  };
}

/**
 * What the embedded simulator allows a second of the history reads a backtest and a download make:
 * the USD/KRW rates (market info) and the candles (chart). It announces them in `X-RateLimit-Limit`,
 * which the client follows. At the spec's 3 and 5 a second, a first backtest of `005930,AAPL` over
 * a year waited 87 s for its 261 rates (3.8 s in all at these), and 200 symbols × 20 years of daily
 * candles would wait some 18 minutes (about 5,400 pages), for a stand-in broker in the same
 * process; a configured broker (and `hoga sim`) keeps the spec's.
 */
export const EMBEDDED_HISTORY_LIMITS = {
  MARKET_INFO: { perSecond: 200, peakPerSecond: null },
  MARKET_DATA_CHART: { perSecond: 200, peakPerSecond: null },
} as const;

/** With no broker configured: a simulator in this process (as `hoga start` does), on a free port. */
export async function embeddedSimulator(): Promise<MarketSource> {
  const [{ startSimulator }, { BrokerClient, MemoryTokenCache }] = await Promise.all([
    import('@hoga/simulator'),
    import('@hoga/connector'),
  ]);
  const sim = await startSimulator({ port: 0, rateLimits: EMBEDDED_HISTORY_LIMITS });
  const client = new BrokerClient({
    config: { baseUrl: sim.url, clientId: 'sim-client', clientSecret: 'sim-secret' },
    tokenCache: new MemoryTokenCache(),
  });
  return {
    client,
    label: `embedded simulator ${sim.url}`,
    simulated: true,
    close: async () => {
      client.close();
      await sim.close();
    },
  };
}
