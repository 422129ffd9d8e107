/**
 * Converters between core's {@link Fill} (what the connector, the engine and its venues emit) and
 * the store's fill rows ({@link NewFill} to record, {@link FillRecord} read back). Core cannot
 * import the store, so they live here.
 *
 * @module
 */
import { type BrokerOrderId, type Fill, Money } from '@hoga/core';
import { StoreError, StoreErrorCode } from '../store-error.js';
import type { FillRecord, NewFill } from './fill-repository.js';
import type { OrderRecord } from './order-record.js';

/**
 * The fill id a stored fill gets back: `<broker order id>:<cumulative quantity>`, the id the
 * connector's order tracker and the engine derive for the same fill, so replays keep it.
 */
export function derivedFillId(brokerOrderId: string, cumulativeQuantity: { toFixed(): string }): string {
  return `${brokerOrderId}:${cumulativeQuantity.toFixed()}`;
}

/**
 * A core fill as the row to record for the order stored under row id `orderId`. Commission and tax
 * keep their currency (the trade currency); the fill id is not stored (it is derived on the way
 * back, see {@link derivedFillId}).
 *
 * @throws {@link StoreError} `invalid-argument` when the tax is in another currency than the commission
 */
export function newFillFromFill(fill: Fill, orderId: number): NewFill {
  if (fill.tax !== undefined && fill.tax.currency !== fill.commission.currency) {
    throw new StoreError(
      StoreErrorCode.INVALID_ARGUMENT,
      `fill ${fill.fillId}: expected the tax in ${fill.commission.currency} like the commission, found ${fill.tax.currency}`,
    );
  }
  return {
    orderId,
    brokerOrderId: fill.brokerOrderId,
    symbol: fill.symbol,
    side: fill.side,
    quantity: fill.quantity,
    price: fill.price,
    commission: fill.commission.amount,
    commissionCurrency: fill.commission.currency,
    tax: fill.tax === undefined ? null : fill.tax.amount,
    filledAt: fill.tsEvent,
    cumulativeQuantity: fill.cumulativeQuantity,
  };
}

/**
 * A stored fill as a core fill, given the order row it belongs to (for our client order id, and
 * the broker id when the fill row has none). The fill id is {@link derivedFillId}; a stored tax of
 * `null` (not reported) leaves `tax` out.
 *
 * @throws {@link StoreError} `invalid-argument` when `order` is not the fill's order, or when
 *   neither the fill nor the order knows a broker order id
 */
export function fillFromRecord(
  record: FillRecord,
  order: Pick<OrderRecord, 'id' | 'clientOrderId' | 'brokerOrderId'>,
): Fill {
  if (record.orderId !== order.id) {
    throw new StoreError(
      StoreErrorCode.INVALID_ARGUMENT,
      `fill ${record.id}: expected order row ${record.orderId}, found order row ${order.id}`,
    );
  }
  const brokerOrderId: BrokerOrderId | null = record.brokerOrderId ?? order.brokerOrderId;
  if (brokerOrderId === null) {
    throw new StoreError(
      StoreErrorCode.INVALID_ARGUMENT,
      `fill ${record.id}: expected a broker order id on the fill or its order ${order.clientOrderId}, found none`,
    );
  }
  const fill: Fill = {
    fillId: derivedFillId(brokerOrderId, record.cumulativeQuantity),
    clientOrderId: order.clientOrderId,
    brokerOrderId,
    symbol: record.symbol,
    side: record.side,
    quantity: record.quantity,
    price: record.price,
    commission: Money.of(record.commission, record.commissionCurrency),
    cumulativeQuantity: record.cumulativeQuantity,
    tsEvent: record.filledAt,
  };
  return record.tax === null ? fill : { ...fill, tax: Money.of(record.tax, record.commissionCurrency) };
}
