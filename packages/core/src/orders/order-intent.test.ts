import { describe, expect, it } from 'vitest';
import { Decimal } from '../decimal/decimal.js';
import { ValidationError } from '../errors.js';
import type { Instrument } from '../instruments/instrument.js';
import { clientOrderId } from './ids.js';
import { createOrderIntent, judgeOrderIntent, type OrderIntentInput } from './order-intent.js';

const kr: Instrument = { symbol: '005930', market: 'KR', currency: 'KRW', securityType: 'STOCK' };
const us: Instrument = { symbol: 'AAPL', market: 'US', currency: 'USD', securityType: 'STOCK' };
const id = clientOrderId('test-1');
const d = (v: string) => new Decimal(v);

/**
 * A quantity order of `quantity`, with a `price` when one is given, and `more` fields. Not type
 * checked: the rows of the refusals pass what the type forbids (an unknown side or order type).
 */
const byQuantity = (
  instrument: Instrument,
  side: string,
  orderType: string,
  quantity: string,
  price?: string,
  more: Record<string, unknown> = {},
): OrderIntentInput =>
  ({
    clientOrderId: id,
    instrument,
    side,
    sizing: 'QUANTITY',
    orderType,
    quantity: d(quantity),
    ...(price === undefined ? {} : { price: d(price) }),
    ...more,
  }) as OrderIntentInput;

/** An amount order of `amount` (not type checked, as {@link byQuantity}). */
const byAmount = (
  instrument: Instrument,
  side: string,
  orderType: string,
  amount: string,
): OrderIntentInput =>
  ({
    clientOrderId: id,
    instrument,
    side,
    sizing: 'AMOUNT',
    orderType,
    amount: d(amount),
  }) as OrderIntentInput;

describe('createOrderIntent', () => {
  it('fills DAY and confirmHighValue=false when omitted', () => {
    const intent = createOrderIntent(byQuantity(kr, 'BUY', 'LIMIT', '10', '72100'));
    expect(intent).toMatchObject({ timeInForce: 'DAY', confirmHighValue: false, orderType: 'LIMIT' });
    expect(Object.isFrozen(intent)).toBe(true);
  });

  it.each<[string, OrderIntentInput]>([
    ['a US LIMIT at the close', byQuantity(us, 'SELL', 'LIMIT', '1', '189.51', { timeInForce: 'CLS' })],
    ['a KR MARKET', byQuantity(kr, 'SELL', 'MARKET', '3')],
    ['a US fractional MARKET SELL with 6 decimals', byQuantity(us, 'SELL', 'MARKET', '0.123456')],
    ['a US amount order', byAmount(us, 'BUY', 'MARKET', '100.50')],
    [
      'a high-value KR order with confirmation',
      byQuantity(kr, 'BUY', 'LIMIT', '2000', '72100', { confirmHighValue: true }),
    ],
  ])('accepts %s', (_label, input) => {
    expect(createOrderIntent(input).clientOrderId).toBe(id);
  });

  it.each<[string, OrderIntentInput, string]>([
    ['a LIMIT without price', byQuantity(kr, 'BUY', 'LIMIT', '1'), 'price'],
    ['a MARKET with price', byQuantity(kr, 'BUY', 'MARKET', '1', '1'), 'price'],
    ['a zero quantity', byQuantity(kr, 'BUY', 'LIMIT', '0', '1'), 'quantity'],
    ['a negative price', byQuantity(kr, 'BUY', 'LIMIT', '1', '-1'), 'price'],
    ['a KR fractional quantity', byQuantity(kr, 'SELL', 'MARKET', '0.5'), 'quantity'],
    ['a US fractional BUY', byQuantity(us, 'BUY', 'MARKET', '0.5'), 'quantity'],
    ['a US fractional LIMIT', byQuantity(us, 'SELL', 'LIMIT', '0.5', '10'), 'quantity'],
    ['7 fractional decimals', byQuantity(us, 'SELL', 'MARKET', '0.1234567'), 'quantity'],
    ['a KR amount order', byAmount(kr, 'BUY', 'MARKET', '10000'), 'amount'],
    ['an amount LIMIT', byAmount(us, 'BUY', 'LIMIT', '100'), 'orderType'],
    ['a zero amount', byAmount(us, 'BUY', 'MARKET', '0'), 'amount'],
    ['a KR CLS', byQuantity(kr, 'BUY', 'LIMIT', '1', '100', { timeInForce: 'CLS' }), 'timeInForce'],
    ['an OPG', byQuantity(us, 'BUY', 'LIMIT', '1', '100', { timeInForce: 'OPG' }), 'timeInForce'],
    ['a MARKET CLS', byQuantity(us, 'BUY', 'MARKET', '1', undefined, { timeInForce: 'CLS' }), 'timeInForce'],
    ['an unknown side', byQuantity(kr, 'HOLD', 'MARKET', '1'), 'side'],
    ['an unknown order type', byQuantity(kr, 'BUY', 'STOP', '1'), 'orderType'],
    ['an unknown sizing', byQuantity(kr, 'BUY', 'MARKET', '1', undefined, { sizing: 'NOTIONAL' }), 'sizing'],
  ])('throws a ValidationError naming the field when given %s', (_label, input, field) => {
    let caught: unknown;
    try {
      createOrderIntent(input);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).code).toBe('invalid-order-intent');
    expect((caught as ValidationError).field).toBe(field);
  });

  it.each<[string, OrderIntentInput, string]>([
    [
      'a negative quantity',
      byQuantity(kr, 'BUY', 'MARKET', '-1'),
      'quantity must be greater than 0, found -1',
    ],
    ['a NaN price', byQuantity(kr, 'BUY', 'LIMIT', '1', 'NaN'), 'price must be greater than 0, found NaN'],
    [
      'a KR fractional quantity',
      byQuantity(kr, 'SELL', 'MARKET', '1.5'),
      'A fractional quantity is only allowed for US market sells, found 1.5',
    ],
    ['a zero amount', byAmount(us, 'BUY', 'MARKET', '0'), 'at most 2 decimals, found 0'],
  ])('says which value it refused: %s', (_label, input, message) => {
    expect(() => createOrderIntent(input)).toThrow(message);
  });
});

describe('judgeOrderIntent', () => {
  it('answers the broker refusal of a fractional buy with the intent, instead of throwing', () => {
    const { intent, refusal } = judgeOrderIntent(byQuantity(us, 'BUY', 'MARKET', '0.5'));
    expect(intent).toMatchObject({ timeInForce: 'DAY', confirmHighValue: false });
    expect(intent.sizing === 'QUANTITY' ? intent.quantity.toFixed() : null).toBe('0.5');
    expect(refusal).toMatchObject({
      code: 'invalid-request',
      status: 400,
      message: 'A fractional quantity is only allowed for US market sells, found 0.5',
      data: { field: 'quantity' },
    });
  });

  it('names the intent’s amount and what to do for an amount order of a KR stock (the broker says orderAmount)', () => {
    const { refusal } = judgeOrderIntent(byAmount(kr, 'BUY', 'MARKET', '100000'));
    expect(refusal).toMatchObject({
      code: 'invalid-request',
      message: 'amount is only for US market buys, found 100000 for 005930 (KR): give a quantity',
      data: { field: 'orderAmount' },
    });
    expect(judgeOrderIntent(byAmount(kr, 'SELL', 'MARKET', '100000')).refusal?.message).toBe(
      'amount is only for US market sells, found 100000 for 005930 (KR): give a quantity',
    );
    expect(judgeOrderIntent(byAmount(us, 'BUY', 'MARKET', '10.001')).refusal?.message).toBe(
      'amount must be a positive USD amount with at most 2 decimals, found 10.001',
    );
  });

  it('answers no refusal for a well-formed intent', () => {
    expect(judgeOrderIntent(byQuantity(us, 'SELL', 'MARKET', '0.123456')).refusal).toBeNull();
  });

  it('throws for a side outside the enum (a programmer error)', () => {
    expect(() => judgeOrderIntent(byQuantity(us, 'HOLD', 'MARKET', '1'))).toThrow(ValidationError);
  });
});
