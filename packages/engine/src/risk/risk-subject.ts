/**
 * A command as the risk module's checks read it ({@link RiskSubject}): the risk engine's and paper's
 * broker rules (with the risk module disabled) resolve it alike.
 *
 * @module
 */
import type { Decimal } from '@hoga/core';
import type { OrderCommand } from '../commands/order-commands.js';
import { intentFields } from './intent-fields.js';
import type { RiskOrder, RiskSubject } from './risk-types.js';

/** An order's KRW value by its terms (see the risk engine's `valueKrw`); 0 where nothing reads it. */
export type ValueKrw = (
  symbol: string,
  currency: RiskSubject['currency'],
  price: Decimal | null,
  quantity: Decimal | null,
  amount: Decimal | null,
) => Decimal;

/**
 * The subject of `command`: a create from its intent; a modify or cancel from `target`, the order
 * it names (undefined when it is not known: no subject), a modify with its new terms.
 *
 * @param valueKrw - values a create and a modify (a cancel is worth `zero`)
 * @param zero - 0, shared
 */
export function riskSubjectOf(
  command: OrderCommand,
  target: RiskOrder | undefined,
  valueKrw: ValueKrw,
  zero: Decimal,
): RiskSubject | undefined {
  if (command.type === 'SubmitOrder') {
    const i = command.intent;
    const { price, quantity, orderAmount: amount } = intentFields(i);
    return {
      command,
      action: 'create',
      strategyId: command.strategyId,
      clientOrderId: i.clientOrderId,
      symbol: i.instrument.symbol,
      market: i.instrument.market,
      currency: i.instrument.currency,
      side: i.side,
      orderType: i.orderType,
      price,
      quantity,
      amount,
      valueKrw: valueKrw(i.instrument.symbol, i.instrument.currency, price, quantity, amount),
      target: null,
    };
  }
  if (target === undefined) return undefined;
  const modify = command.type === 'ModifyOrder';
  const price = modify ? (command.price ?? null) : target.price;
  const quantity = modify ? (command.quantity ?? target.remainingQuantity) : target.remainingQuantity;
  return {
    command,
    action: modify ? 'modify' : 'cancel',
    strategyId: command.strategyId,
    clientOrderId: target.clientOrderId,
    symbol: target.symbol,
    market: target.market,
    currency: target.currency,
    side: target.side,
    orderType: modify ? command.orderType : target.orderType,
    price,
    quantity,
    amount: target.amount,
    valueKrw: modify ? valueKrw(target.symbol, target.currency, price, quantity, target.amount) : zero,
    target,
  };
}
