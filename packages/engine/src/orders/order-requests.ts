/**
 * Request bodies from order commands, the store rows they start, the gateway the order manager
 * talks to, and what it reports besides order events.
 *
 * @module
 */

import type {
  CallOptions,
  CreateContent,
  CreateOrderRequest,
  CreateOrderResult,
  Holdings,
  ModifyContent,
  ModifyOrderRequest,
  OrderList,
  OrderListQuery,
  OrderOperationOutcome,
  OrderRecord,
} from '@hoga/connector';
import { type Currency, currencyOf, Decimal, type Market, type OrderIntent } from '@hoga/core';
import type { NewOrder } from '@hoga/store';
import type { ModifyOrder } from '../commands/order-commands.js';

/** The broker calls the order manager makes (`BrokerClient` has them all). */
export interface OrderGateway {
  createOrder(request: CreateOrderRequest, options?: CallOptions): Promise<CreateOrderResult>;
  modifyOrder(
    orderId: string,
    request: ModifyOrderRequest,
    options?: CallOptions,
  ): Promise<OrderOperationOutcome>;
  cancelOrder(orderId: string, options?: CallOptions): Promise<OrderOperationOutcome>;
  getOrder(orderId: string, options?: CallOptions): Promise<OrderRecord>;
  listOrders(query: OrderListQuery, options?: CallOptions): Promise<OrderList>;
  getHoldings(query?: { readonly symbol?: string }, options?: CallOptions): Promise<Holdings>;
}

/** What the order manager reports to the strategy and the operator besides order events. */
export type OrderManagerAlert =
  | {
      readonly type: 'OrderOutcomeUnknown';
      readonly clientOrderId: string;
      readonly commandId: string;
      readonly kind: 'create' | 'modify' | 'cancel';
      readonly reason: string;
      readonly tsEvent: number;
    }
  | {
      readonly type: 'PositionMismatch';
      readonly symbol: string;
      readonly store: string;
      readonly broker: string;
      readonly tsEvent: number;
    }
  | { readonly type: 'PositionResolved'; readonly symbol: string; readonly tsEvent: number }
  | {
      /** The broker has no record of an order held open here (404, read after read): it was ended. */
      readonly type: 'OrderMissingAtBroker';
      readonly clientOrderId: string;
      readonly brokerOrderId: string;
      readonly tsEvent: number;
    }
  | {
      readonly type: 'ExternalOrderAdopted';
      readonly clientOrderId: string;
      readonly brokerOrderId: string;
      readonly tsEvent: number;
    };

/** The create body of an intent, as JSON-able content (stored before sending). */
export function createContent(intent: OrderIntent): CreateContent {
  const base = {
    symbol: intent.instrument.symbol,
    side: intent.side,
    clientOrderId: intent.clientOrderId as string,
    ...(intent.confirmHighValue ? { confirmHighValueOrder: true } : {}),
  };
  if (intent.sizing === 'AMOUNT')
    return { ...base, orderType: 'MARKET', orderAmount: intent.amount.toString() };
  if (intent.orderType === 'MARKET')
    return { ...base, orderType: 'MARKET', quantity: intent.quantity.toString() };
  return {
    ...base,
    orderType: 'LIMIT',
    quantity: intent.quantity.toString(),
    price: intent.price.toString(),
    ...(intent.timeInForce === 'CLS' ? { timeInForce: 'CLS' as const } : {}),
  };
}

/** The request for stored create content. */
export function createRequest(content: CreateContent): CreateOrderRequest {
  const common = {
    symbol: content.symbol,
    side: content.side,
    ...(content.clientOrderId === undefined ? {} : { clientOrderId: content.clientOrderId }),
    ...(content.confirmHighValueOrder === true ? { confirmHighValueOrder: true } : {}),
  };
  if (content.orderAmount !== undefined)
    return { ...common, orderType: 'MARKET', orderAmount: new Decimal(content.orderAmount) };
  return {
    ...common,
    orderType: content.orderType,
    quantity: new Decimal(content.quantity ?? '0'),
    ...(content.price === undefined ? {} : { price: new Decimal(content.price) }),
    ...(content.timeInForce === undefined ? {} : { timeInForce: content.timeInForce }),
  };
}

/**
 * The request of an intent, built from its own decimals (no parsing on the way to the send); equal
 * to `createRequest(createContent(intent))`, the request a re-send rebuilds from the stored body.
 */
export function createRequestOf(intent: OrderIntent): CreateOrderRequest {
  const common = {
    symbol: intent.instrument.symbol,
    side: intent.side,
    clientOrderId: intent.clientOrderId as string,
    ...(intent.confirmHighValue ? { confirmHighValueOrder: true } : {}),
  };
  if (intent.sizing === 'AMOUNT') return { ...common, orderType: 'MARKET', orderAmount: intent.amount };
  if (intent.orderType === 'MARKET') return { ...common, orderType: 'MARKET', quantity: intent.quantity };
  return {
    ...common,
    orderType: 'LIMIT',
    quantity: intent.quantity,
    price: intent.price,
    ...(intent.timeInForce === 'CLS' ? { timeInForce: 'CLS' as const } : {}),
  };
}

/** The modify content of a command. */
export function modifyContent(command: ModifyOrder): ModifyContent {
  return {
    orderType: command.orderType,
    ...(command.price === undefined ? {} : { price: command.price.toString() }),
    ...(command.quantity === undefined ? {} : { quantity: command.quantity.toString() }),
    ...(command.confirmHighValue ? { confirmHighValueOrder: true } : {}),
  };
}

/** The request for stored modify content. */
export function modifyRequest(content: ModifyContent): ModifyOrderRequest {
  return {
    orderType: content.orderType,
    ...(content.price === undefined ? {} : { price: new Decimal(content.price) }),
    ...(content.quantity === undefined ? {} : { quantity: new Decimal(content.quantity) }),
    ...(content.confirmHighValueOrder === true ? { confirmHighValueOrder: true } : {}),
  };
}

/** The store row a create starts. */
export function newOrderOf(intent: OrderIntent, at: number): NewOrder {
  return {
    clientOrderId: intent.clientOrderId,
    strategyId: intent.strategyId ?? null,
    mode: 'live',
    symbol: intent.instrument.symbol,
    market: intent.instrument.market,
    currency: intent.instrument.currency,
    side: intent.side,
    orderType: intent.orderType,
    timeInForce: intent.sizing === 'AMOUNT' ? 'DAY' : intent.timeInForce,
    price: intent.sizing === 'QUANTITY' && intent.orderType === 'LIMIT' ? intent.price : null,
    quantity: intent.sizing === 'QUANTITY' ? intent.quantity : null,
    amount: intent.sizing === 'AMOUNT' ? intent.amount : null,
    createdAt: at,
  };
}

/** The store row of an order placed elsewhere and adopted. */
export function externalOrderOf(record: OrderRecord, clientOrderId: string, at: number): NewOrder {
  const market: Market = /^[0-9]/.test(record.symbol) ? 'KR' : 'US';
  const currency: Currency =
    record.currency === 'USD' ? 'USD' : record.currency === 'KRW' ? 'KRW' : currencyOf(market);
  return {
    clientOrderId,
    strategyId: null,
    mode: 'live',
    symbol: record.symbol,
    market,
    currency,
    side: record.side === 'SELL' ? 'SELL' : 'BUY',
    orderType: record.orderType === 'MARKET' ? 'MARKET' : 'LIMIT',
    timeInForce: record.timeInForce === 'CLS' ? 'CLS' : record.timeInForce === 'OPG' ? 'OPG' : 'DAY',
    price: record.price,
    quantity: record.orderAmount === null ? record.quantity : null,
    amount: record.orderAmount,
    state: 'ACCEPTED',
    createdAt: at,
  };
}

/**
 * The terms a confirmed modify gives its logical order: its order type, its price (null for a
 * market order) and, when it gave one, its quantity: the new broker order's plus what the logical
 * order's earlier broker orders filled (a KR modify drops the original's rest).
 */
export function modifiedTerms(
  content: ModifyContent,
  filledBefore: Decimal,
): { orderType: 'LIMIT' | 'MARKET'; price: Decimal | null; quantity?: Decimal } {
  return {
    orderType: content.orderType,
    price: content.price === undefined ? null : new Decimal(content.price),
    ...(content.quantity === undefined ? {} : { quantity: filledBefore.plus(content.quantity) }),
  };
}
