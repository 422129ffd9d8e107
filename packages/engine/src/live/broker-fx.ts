/**
 * The USD/KRW rates of a live or paper run that was given none: the broker's display rate valid
 * now, read at the start with the end of its validity; the run's bar delivery then follows the
 * exchange-rate stream.
 *
 * @module
 */
import type { BrokerClient } from '@hoga/connector';
import type { Decimal, Logger } from '@hoga/core';
import { LatestFxRates } from '../portfolio/fx-rates.js';

/** KRW per USD until the broker first answers, when its rate cannot be read at the start. */
export const FALLBACK_USD_KRW = 1400;

/** A rate the broker gave: KRW per USD and the end of its validity (`validUntil`), epoch ms. */
export interface ReadFxRate {
  readonly rate: Decimal;
  readonly validUntilMs: number;
}

/**
 * The broker's USD/KRW rate valid now, as rates to be followed. When the broker does not answer,
 * a warning says that USD is valued at {@link FALLBACK_USD_KRW} until the stream reads a rate (the
 * rate only values USD in KRW: nothing is ever exchanged).
 *
 * @param client - the broker
 * @param logger - where the warning goes
 * @param onRead - given the rate read and its validity (not called when the broker did not answer)
 */
export async function brokerFxRates(
  client: Pick<BrokerClient, 'getExchangeRate'>,
  logger: Logger,
  onRead?: (read: ReadFxRate) => void,
): Promise<LatestFxRates> {
  try {
    const rate = await client.getExchangeRate();
    onRead?.({ rate: rate.rate, validUntilMs: rate.validUntil.toMillis() });
    return new LatestFxRates(rate.rate.toNumber());
  } catch (error) {
    logger.warn(
      { err: error },
      `no USD/KRW rate from the broker: USD valued at ${FALLBACK_USD_KRW} KRW until it answers`,
    );
    return new LatestFxRates(FALLBACK_USD_KRW);
  }
}
