/**
 * The logical orders the order manager writes in the store's `orders`: a create's intent (and one
 * a crash left without its row), an order placed elsewhere, a confirmed modify's terms, each
 * order's row key; and whether a `clientOrderId` is taken already (the store keeps one order per
 * id: a create under a taken one is refused before it is sent).
 *
 * @module
 */

import type { CreateContent } from '@hoga/connector';
import { Currency, Decimal, formatDecimal, Market, type OrderState } from '@hoga/core';
import type { NewOrder } from '@hoga/store';
import type { CommandRow } from './order-manager-rows.js';
import { OrderManagerTables } from './order-manager-tables.js';

/** What the store holds under a `clientOrderId`: its logical order's state, if it has a row. */
export interface IdInUse {
  /** The logical order's state, or null when only a command names the id (its row not written yet). */
  readonly state: OrderState | null;
}

/** See the module description. */
export class OrderIntentTables extends OrderManagerTables {
  /**
   * What the store holds under `clientOrderId` (a logical order, or a command whose order row is
   * not written yet), or null when the id is free: one read of the file, so an order another
   * process (an earlier run, `hoga order`) stored counts.
   */
  idInUse(clientOrderId: string): IdInUse | null {
    const row = this.statements.idUse.get({ id: clientOrderId }) as {
      state: OrderState | null;
      commanded: number;
    };
    return row.state === null && row.commanded === 0 ? null : { state: row.state };
  }

  /** Stores a logical order of the manager's (state SUBMITTED) unless it is stored already. */
  recordIntent(order: NewOrder): void {
    const text = (d: Decimal | null): string | null => (d === null ? null : formatDecimal(d));
    this.statements.insertIntent.run({
      clientOrderId: order.clientOrderId,
      strategyId: order.strategyId,
      mode: order.mode,
      symbol: order.symbol,
      market: order.market,
      currency: order.currency,
      side: order.side,
      orderType: order.orderType,
      timeInForce: order.timeInForce,
      price: text(order.price),
      quantity: text(order.quantity),
      amount: text(order.amount),
      at: order.createdAt,
    });
  }

  /** Rebuilds the logical orders of creates a crash interrupted between the command and its row. */
  protected repairIntents(): void {
    for (const row of this.statements.createsWithoutOrder.all() as CommandRow[]) {
      const content = JSON.parse(row.content) as CreateContent;
      const market = /^[0-9]/.test(content.symbol) ? Market.KR : Market.US;
      const decimal = (v: string | undefined): Decimal | null => (v === undefined ? null : new Decimal(v));
      this.recordIntent({
        clientOrderId: row.client_order_id,
        strategyId: row.strategy_id,
        mode: 'live',
        symbol: content.symbol,
        market,
        currency: market === Market.KR ? Currency.KRW : Currency.USD,
        side: content.side,
        orderType: content.orderType,
        timeInForce: content.timeInForce ?? 'DAY',
        price: decimal(content.price),
        quantity: decimal(content.quantity),
        amount: decimal(content.orderAmount),
        createdAt: row.created_at,
      });
    }
  }

  /** Records an order placed elsewhere (adopted as external) when it is not stored yet. */
  recordExternal(order: NewOrder): void {
    if (this.db.orders.get(order.clientOrderId) === null) this.db.orders.recordIntent(order);
  }

  /**
   * A confirmed modify's terms on the logical order: its order type, its price (null for a market
   * order) and, when the modify gave one, its quantity (the logical order's total).
   */
  setOrderTerms(
    clientOrderId: string,
    terms: {
      readonly orderType: 'LIMIT' | 'MARKET';
      readonly price: Decimal | null;
      readonly quantity?: Decimal;
    },
    at: number,
  ): void {
    const text = (d: Decimal | null | undefined) => (d === null || d === undefined ? null : formatDecimal(d));
    this.statements.setTerms.run(terms.orderType, text(terms.price), text(terms.quantity), at, clientOrderId);
  }

  /** Row id and currency of each logical order (they never change). */
  private readonly orderKeys = new Map<string, { readonly id: number; readonly currency: Currency }>();

  protected orderKey(clientOrderId: string): { readonly id: number; readonly currency: Currency } | null {
    let key = this.orderKeys.get(clientOrderId);
    if (key === undefined) {
      const order = this.db.orders.get(clientOrderId);
      if (order === null) return null;
      key = { id: order.id, currency: order.currency };
      if (this.orderKeys.size > 10_000) this.orderKeys.clear();
      this.orderKeys.set(clientOrderId, key);
    }
    return key;
  }
}
