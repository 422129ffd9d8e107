/**
 * The terminal progress bar of a candle download (`hoga backtest`, cli-progress): its total is the
 * time range the download fetches, known before the first request, and its value the range covered
 * so far, so the bar only moves forward and ends full. The symbol shows as `n/N`, the pages as a
 * count. Before, the total was an estimate of pages from trading days (5/7 of calendar days, fixed
 * minutes per day) raised to the pages made whenever they passed it: on a week of minute candles
 * it grew as the download went, and the bar sat at 100 % for the last third.
 *
 * @module
 */
import type { DownloadProgress } from '@hoga/engine';

/** What the bar shows besides its value and total. */
export interface DownloadBarPayload {
  readonly symbol: string;
  /** `2/3`: the symbol's place among the download's symbols. */
  readonly symbolOf: string;
  readonly pages: number;
  readonly eta_text: string;
}

/** One update of the bar: its value and total (ms of range), and the payload. */
export interface DownloadBarFrame {
  readonly value: number;
  readonly total: number;
  readonly payload: DownloadBarPayload;
}

/** The bar's format (cli-progress tokens). */
export function downloadBarFormat(interval: string): string {
  return `candles ${interval} [{bar}] {percentage}%  {symbol} ({symbolOf})  {pages} pages  eta {eta_text}`;
}

/**
 * Follows a download's events and answers the bar's frame for each page stored (null for the other
 * events, which only note the symbol's place).
 *
 * @param formatEta - formats the time left (the engine's)
 */
export function downloadBarFrames(
  formatEta: (ms: number | null) => string,
): (event: DownloadProgress) => DownloadBarFrame | null {
  let symbolOf = '';
  return (event) => {
    if (event.type === 'SymbolStarted') {
      symbolOf = `${event.index + 1}/${event.symbols}`;
      return null;
    }
    if (event.type !== 'PageStored') return null;
    return {
      value: Math.min(event.coveredMs, event.totalMs),
      total: event.totalMs,
      payload: {
        symbol: event.symbol,
        symbolOf,
        pages: event.totalPages,
        eta_text: formatEta(event.etaMs),
      },
    };
  };
}

/** A cli-progress bar over a download's range (a terminal only). */
export async function downloadBar(formatEta: (ms: number | null) => string, interval: string) {
  const { SingleBar, Presets } = (await import('cli-progress')).default;
  const bar = new SingleBar(
    { format: downloadBarFormat(interval), stream: process.stderr, hideCursor: true },
    Presets.shades_classic,
  );
  const frames = downloadBarFrames(formatEta);
  let total = Number.NaN;
  return {
    update(event: DownloadProgress): void {
      const frame = frames(event);
      if (frame === null) return;
      if (Number.isNaN(total)) bar.start(frame.total, frame.value, frame.payload);
      // only a series downloaded again whole (a corporate action since it was cached) adds to it
      else if (frame.total !== total) bar.setTotal(frame.total);
      total = frame.total;
      bar.update(frame.value, frame.payload);
    },
    stop(): void {
      if (!Number.isNaN(total)) bar.stop();
    },
  };
}
