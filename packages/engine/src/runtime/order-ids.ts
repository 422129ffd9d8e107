/**
 * Client order ids for strategy orders: random in live and paper (unique across restarts),
 * sequential in a backtest (deterministic within the run, prefixed by the run).
 *
 * @module
 */
import { type ClientOrderId, clientOrderId, newClientOrderId, ValidationError } from '@hoga/core';

/** Token of {@link OrderIdFactory}. */
export const OrderIdFactory = Symbol.for('hoga.engine.OrderIdFactory');

/** Makes a new client order id. */
export interface OrderIdFactory {
  next(strategyId: string): ClientOrderId;
}

/** Random ids (UUIDs). */
export class RandomOrderIds implements OrderIdFactory {
  /** @inheritdoc */
  next(_strategyId: string): ClientOrderId {
    return newClientOrderId();
  }
}

/** Longest prefix of {@link SequentialOrderIds}: with `-` and up to 11 digits, 36 characters. */
const MAX_PREFIX = 24;

/** `<prefix>-<n>`: deterministic within a run. */
export class SequentialOrderIds implements OrderIdFactory {
  private n = 0;

  /**
   * @param prefix - up to 24 characters of `[A-Za-z0-9_-]` (e.g. the run id's head), checked once
   *   here: every id made from it is then a valid client order id
   * @throws {@link ValidationError} `invalid-client-order-id` for any other prefix
   */
  constructor(private readonly prefix: string) {
    if (prefix.length > MAX_PREFIX) {
      throw new ValidationError(
        'prefix',
        `order id prefix: expected at most ${MAX_PREFIX} characters, found ${prefix.length} (${prefix})`,
        {},
        'invalid-client-order-id',
      );
    }
    clientOrderId(`${prefix}-1`);
  }

  /** @inheritdoc */
  next(_strategyId: string): ClientOrderId {
    this.n++;
    return `${this.prefix}-${this.n}` as ClientOrderId;
  }
}
