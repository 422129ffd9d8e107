/**
 * Client order ids for strategy orders: random in live and paper (unique across restarts),
 * sequential in a backtest (deterministic within the run, prefixed by the run).
 *
 * @module
 */
import { type ClientOrderId, clientOrderId, newClientOrderId } from '@hoga/core';

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

/** `<prefix>-<n>`: deterministic within a run. */
export class SequentialOrderIds implements OrderIdFactory {
  private n = 0;

  /** @param prefix - up to 24 characters of `[A-Za-z0-9_-]` (e.g. the run id's head) */
  constructor(private readonly prefix: string) {}

  /** @inheritdoc */
  next(_strategyId: string): ClientOrderId {
    this.n++;
    return clientOrderId(`${this.prefix}-${this.n}`);
  }
}
