/**
 * The rules of a modify or cancel: the target must still be open and not being changed (409), may
 * be changed at all (422), and a modify's own fields (400).
 *
 * @module
 */
import {
  ACCEPTED,
  type BrokerVerdict,
  CLOSE_ORDER_FREEZE_MS,
  checkOrderShape,
  checkPricePresence,
  Decimal,
  type Instrument,
  invalidRequest,
  type KnownBrokerOrderStatus,
  OrderType,
  refuse,
} from '@hoga/core';
import { checkLimitPrice } from './order-request.js';
import type { ModifyRequest, RequestVerdict, TargetOrder } from './rule-inputs.js';

const CONFLICTS: Partial<
  Record<
    KnownBrokerOrderStatus,
    readonly [
      'already-filled' | 'already-canceled' | 'already-modified' | 'already-rejected' | 'already-processing',
      string,
    ]
  >
> = {
  FILLED: ['already-filled', 'is already filled'],
  CANCELED: ['already-canceled', 'is already cancelled'],
  REPLACED: ['already-modified', 'was already modified'],
  REJECTED: ['already-rejected', 'was rejected'],
  CANCEL_REJECTED: ['already-rejected', 'is a rejected cancel request'],
  REPLACE_REJECTED: ['already-rejected', 'is a rejected modify request'],
  PENDING_CANCEL: ['already-processing', 'has a cancel in progress'],
  PENDING_REPLACE: ['already-processing', 'has a modify in progress'],
};

/**
 * 409 when a modify or cancel targets an order that is no longer open (`already-filled`,
 * `already-canceled`, `already-modified`, `already-rejected`) or is being changed
 * (`already-processing`, with `data.retryAfterSeconds`).
 */
export function checkStillOpen(order: Pick<TargetOrder, 'orderId' | 'status'>): BrokerVerdict {
  const hit = CONFLICTS[order.status];
  if (!hit) return ACCEPTED;
  const data = hit[0] === 'already-processing' ? { retryAfterSeconds: 1 } : undefined;
  return refuse(hit[0], `Order ${order.orderId} ${hit[1]}`, data);
}

/**
 * 422 `modify-restricted` / `cancel-restricted` for an open order that may not be changed: an
 * amount order cannot be modified; a `CLS` order can be neither modified nor cancelled in the last
 * 10 minutes before the close.
 */
export function checkChangeable(
  order: Pick<TargetOrder, 'orderAmount' | 'timeInForce' | 'expiresAtMs'>,
  action: 'modify' | 'cancel',
  nowMs: number,
): BrokerVerdict {
  const code = action === 'modify' ? 'modify-restricted' : 'cancel-restricted';
  if (action === 'modify' && order.orderAmount !== null) {
    return refuse(code, 'An amount-based order cannot be modified');
  }
  if (order.timeInForce === 'CLS' && nowMs >= order.expiresAtMs - CLOSE_ORDER_FREEZE_MS) {
    return refuse(
      code,
      `A close order cannot be ${action === 'modify' ? 'modified' : 'cancelled'} in the last 10 minutes before the close`,
    );
  }
  return ACCEPTED;
}

/** An accepted modify request: its price on the grid and the quantity the replacement carries. */
export interface AcceptedModify {
  readonly accepted: true;
  readonly price: Decimal | null;
  /** KR: the requested quantity; US: the unfilled quantity, carried over. */
  readonly quantity: Decimal;
}

/**
 * The 400 checks of a modify against the order it modifies: LIMIT needs a price, MARKET takes none;
 * US takes no quantity (`us-modify-quantity-not-supported`); KR needs a positive integer quantity
 * no larger than the unfilled quantity; the price on the grid.
 */
export function checkModifyRequest(
  instrument: Instrument,
  order: Pick<TargetOrder, 'quantity' | 'filledQuantity'>,
  request: ModifyRequest,
): AcceptedModify | Exclude<RequestVerdict, { accepted: true }> {
  const presence = checkPricePresence(request.orderType, request.price);
  if (!presence.accepted) return presence;
  if (instrument.market === 'US') {
    if (request.quantity !== null) {
      return refuse('us-modify-quantity-not-supported', 'A US order modify changes the price only', {
        field: 'quantity',
      });
    }
  } else {
    const q = request.quantity;
    if (q === null || !q.isInteger() || q.lte(0)) {
      return invalidRequest('quantity', 'A KR modify needs a positive integer quantity', {
        constraint: { min: 1, integerOnly: true },
      });
    }
  }
  let price: Decimal | null = null;
  if (request.price !== null) {
    const grid = checkLimitPrice(instrument, request.price);
    if (!grid.accepted) return grid;
    price = grid.price;
  }
  const remaining = Decimal.max(0, order.quantity.minus(order.filledQuantity));
  if (request.quantity?.gt(remaining)) {
    return invalidRequest('quantity', `quantity must not exceed the unfilled ${remaining.toFixed()}`, {
      constraint: { min: 1, max: remaining.toFixed(), integerOnly: true },
    });
  }
  return { accepted: true, price, quantity: request.quantity ?? remaining };
}

/**
 * 400 `invalid-request` (`data.field = orderType`) when the replacement a modify makes would break
 * the shape rules of a new order (core's `checkOrderShape`): a modify keeps the order's side, time
 * in force and (US) unfilled quantity, so a `CLS` limit cannot become a MARKET order (CLS is for US
 * limit orders only) and a fractional market sell cannot become a LIMIT order (fractions are for US
 * market sells only). Without it the broker would be working an order it refuses to create. An
 * amount order passes here: it cannot be modified at all ({@link checkChangeable}).
 *
 * @param instrument - the instrument (its market)
 * @param order - the order being modified
 * @param request - the modify request
 * @param accepted - the modify's accepted fields ({@link checkModifyRequest})
 */
export function checkReplacementShape(
  instrument: Pick<Instrument, 'market'>,
  order: Pick<TargetOrder, 'side' | 'timeInForce' | 'orderAmount'>,
  request: Pick<ModifyRequest, 'orderType'>,
  accepted: Pick<AcceptedModify, 'price' | 'quantity'>,
): BrokerVerdict {
  // an amount order is never modified: checkChangeable answers it (422 modify-restricted)
  if (order.orderAmount !== null) return ACCEPTED;
  const shape = checkOrderShape(
    {
      side: order.side,
      orderType: request.orderType,
      timeInForce: order.timeInForce,
      quantity: accepted.quantity,
      price: accepted.price,
      orderAmount: null,
    },
    instrument.market,
  );
  if (shape.accepted) return ACCEPTED;
  const rule = shape.message.charAt(0).toLowerCase() + shape.message.slice(1);
  const other = request.orderType === OrderType.MARKET ? OrderType.LIMIT : OrderType.MARKET;
  const why =
    shape.data?.field === 'timeInForce'
      ? `a ${order.timeInForce} order stays a ${other} order (${rule})`
      : `an order of ${accepted.quantity.toFixed()} shares stays a ${other} order (${rule})`;
  return invalidRequest(
    'orderType',
    `A modify keeps the order's time in force and quantity: ${why}; modify it as a ${other} order, or cancel it`,
    { allowedValues: [other] },
  );
}
