/**
 * The shape rules of an order request, as the broker checks them before anything else (all 400
 * `invalid-request` naming the wire field): one of quantity and orderAmount; amounts only for US
 * market orders; a price for LIMIT and none for MARKET; `CLS` only for US limits; fractions only for
 * US market sells (≤ 6 decimals); positive values.
 *
 * They live in core because `createOrderIntent` applies them to a strategy's intent; the broker
 * model's admission applies the same functions to a request.
 *
 * @module
 */
import type { Decimal } from '../decimal/decimal.js';
import { Market } from '../instruments/market.js';
import { OrderSide, OrderType, TimeInForce } from '../orders/order-types.js';
import { ACCEPTED, type BrokerVerdict, invalidRequest } from './broker-verdict.js';
import { MAX_FRACTIONAL_DECIMALS, MAX_ORDER_AMOUNT_DECIMALS } from './order-limits.js';

/** What the shape rules look at: the request's fields, as decimals. */
export interface OrderShape {
  readonly side: OrderSide;
  readonly orderType: OrderType;
  /** Absent means `DAY`. */
  readonly timeInForce: TimeInForce | null;
  readonly quantity: Decimal | null;
  readonly price: Decimal | null;
  readonly orderAmount: Decimal | null;
}

const US_MARKET_ONLY = { marketCountry: 'US', orderType: 'MARKET' } as const;

/**
 * The rules that need no instrument (checked before the symbol is looked up): exactly one of
 * `quantity` and `orderAmount`; `orderAmount` only with `MARKET`; LIMIT needs a price, MARKET takes
 * none.
 */
export function checkOrderForm(shape: OrderShape): BrokerVerdict {
  const hasAmount = shape.orderAmount !== null;
  if ((shape.quantity !== null) === hasAmount) {
    return invalidRequest('quantity,orderAmount', 'Exactly one of quantity and orderAmount is required');
  }
  if (hasAmount && shape.orderType !== OrderType.MARKET) {
    return invalidRequest('orderAmount', 'orderAmount is only for US market orders', {
      allowedConditions: US_MARKET_ONLY,
    });
  }
  return checkPricePresence(shape.orderType, shape.price);
}

/**
 * LIMIT needs a price, MARKET takes none (create and modify).
 *
 * @param orderType - the requested order type
 * @param price - the requested price, or null
 */
export function checkPricePresence(orderType: OrderType, price: Decimal | null): BrokerVerdict {
  if (orderType === OrderType.LIMIT && price === null) {
    return invalidRequest('price', 'A LIMIT order needs a price');
  }
  if (orderType === OrderType.MARKET && price !== null) {
    return invalidRequest('price', 'A MARKET order takes no price');
  }
  return ACCEPTED;
}

/**
 * A price must be greater than 0 (create and modify).
 *
 * @param price - the requested price
 */
export function checkPricePositive(price: Decimal): BrokerVerdict {
  return isAboveZero(price)
    ? ACCEPTED
    : invalidRequest('price', 'price must be greater than 0', { constraint: { exclusiveMin: 0 } });
}

/**
 * The rules that depend on the market (after the symbol is known): `CLS` only for US limits (`OPG`
 * never chosen); `orderAmount` only for US, positive with at most 2 decimals; a positive quantity,
 * fractional only for US market sells with at most 6 decimals; a positive price.
 *
 * @param shape - the request
 * @param market - the instrument's market
 */
export function checkOrderShape(shape: OrderShape, market: Market): BrokerVerdict {
  const timeInForce = shape.timeInForce ?? TimeInForce.DAY;
  if (timeInForce === TimeInForce.OPG) {
    return invalidRequest('timeInForce', 'OPG cannot be chosen when creating an order', {
      allowedValues: [TimeInForce.DAY, TimeInForce.CLS],
    });
  }
  if (timeInForce === TimeInForce.CLS && (market !== Market.US || shape.orderType !== OrderType.LIMIT)) {
    return invalidRequest('timeInForce', 'CLS is only for US limit orders', {
      allowedConditions: { marketCountry: 'US', orderType: 'LIMIT' },
    });
  }
  if (shape.orderAmount !== null) {
    if (market !== Market.US) {
      return invalidRequest('orderAmount', 'orderAmount is only for US market orders', {
        allowedConditions: US_MARKET_ONLY,
      });
    }
    if (!isAboveZero(shape.orderAmount) || shape.orderAmount.decimalPlaces() > MAX_ORDER_AMOUNT_DECIMALS) {
      return invalidRequest(
        'orderAmount',
        'orderAmount must be a positive USD amount with at most 2 decimals',
        {
          constraint: { exclusiveMin: 0, maxDecimals: MAX_ORDER_AMOUNT_DECIMALS },
        },
      );
    }
  } else if (shape.quantity !== null) {
    const verdict = checkQuantity(shape, shape.quantity, market);
    if (!verdict.accepted) return verdict;
  }
  return shape.price === null ? ACCEPTED : checkPricePositive(shape.price);
}

/** `d > 0`, read from its sign and digits (`gt(0)` makes a Decimal of the 0 on every call). */
function isAboveZero(d: Decimal): boolean {
  return d.isPositive() && !d.isZero();
}

function checkQuantity(shape: OrderShape, quantity: Decimal, market: Market): BrokerVerdict {
  if (!quantity.isFinite() || !isAboveZero(quantity)) {
    return invalidRequest('quantity', 'quantity must be greater than 0', { constraint: { exclusiveMin: 0 } });
  }
  if (quantity.isInteger()) return ACCEPTED;
  const fractionalAllowed =
    market === Market.US && shape.orderType === OrderType.MARKET && shape.side === OrderSide.SELL;
  if (!fractionalAllowed) {
    return invalidRequest('quantity', 'A fractional quantity is only allowed for US market sells', {
      allowedConditions: { marketCountry: 'US', orderType: 'MARKET', side: 'SELL' },
    });
  }
  if (quantity.decimalPlaces() > MAX_FRACTIONAL_DECIMALS) {
    return invalidRequest(
      'quantity',
      `A fractional quantity has at most ${MAX_FRACTIONAL_DECIMALS} decimals`,
      {
        constraint: { maxDecimals: MAX_FRACTIONAL_DECIMALS },
      },
    );
  }
  return ACCEPTED;
}
