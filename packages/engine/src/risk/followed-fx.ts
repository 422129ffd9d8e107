/**
 * The USD/KRW rate a run's exchange-rate stream gives the risk checks (`BrokerMarketView.followFx`),
 * and what is done when it stops coming: the broker refreshes the rate every minute and tells how
 * long each one is valid (`validUntil`, normally a minute after `validFrom`). A rate past its
 * validity by more than {@link FX_STALE_MARGIN_MS} (the stream failed that many polls in a row) is
 * read again by the checks themselves before they use it, as outside runs, and the run is told once.
 *
 * @module
 */
import { type Decimal, KST_ZONE } from '@hoga/core';
import { DateTime } from 'luxon';

/** How long past its `validUntil` a followed rate is still used without a read of its own, ms. */
export const FX_STALE_MARGIN_MS = 5 * 60_000;

/** Who hears of a followed rate gone stale (a run's log) and of the rates read meanwhile. */
export interface FxWatch {
  /** The followed rate expired and no newer one came: said once until the stream gives one again. */
  stale(message: string): void;
  /** A rate the checks read themselves while the stream gave none (the run values equity by it). */
  refreshed(rate: Decimal): void;
}

/** The validity of the followed rate and whether its lapse was told. */
export class FollowedFx {
  private validUntilMs = Number.POSITIVE_INFINITY;
  private told = false;
  watch: FxWatch | undefined;

  /**
   * A rate from the stream (or the run's start): valid until `validUntilMs`, or `fallbackMs` after
   * `atMs` when the broker's validity is not known.
   */
  follow(atMs: number, validUntilMs: number | undefined, fallbackMs: number): void {
    this.validUntilMs = validUntilMs ?? atMs + fallbackMs;
    this.told = false;
  }

  /**
   * Whether the rate is to be read again now: past its validity by more than the margin. Tells the
   * watch the first time in a lapse.
   */
  due(nowMs: number): boolean {
    if (nowMs <= this.validUntilMs + FX_STALE_MARGIN_MS) return false;
    if (!this.told) {
      this.told = true;
      const at = DateTime.fromMillis(this.validUntilMs, { zone: KST_ZONE }).toFormat('yyyy-LL-dd HH:mm:ss');
      const minutes = Math.floor((nowMs - this.validUntilMs) / 60_000);
      this.watch?.stale(
        `The USD/KRW rate expired at ${at} KST and the exchange-rate stream has given no newer one ` +
          `for ${minutes} min (the broker refreshes it every minute). The risk checks now read the ` +
          'rate themselves before they use it, and equity in KRW is valued at the rate they read; ' +
          'an order is refused if that read fails. Check the connection to the broker if this goes on.',
      );
    }
    return true;
  }

  /** A rate the checks read themselves (see {@link FollowedFx.due}). */
  read(rate: Decimal, atMs: number, validUntilMs: number | undefined, fallbackMs: number): void {
    this.validUntilMs = validUntilMs ?? atMs + fallbackMs;
    this.watch?.refreshed(rate);
  }
}
