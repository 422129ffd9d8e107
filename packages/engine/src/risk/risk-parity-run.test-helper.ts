/**
 * One parity case run on a running simulator: the case's open orders placed over HTTP, then the
 * case's create, modify or cancel judged by the risk module (nothing sent) and sent, with the risk
 * module off, to the simulator. Shared by the fixed parity table and the generated cases.
 */

import type { RuleCase, RuleCaseOrder } from '@hoga/broker-model';
import { BrokerApiError, type BrokerClient } from '@hoga/connector';
import {
  type ClientOrderId,
  type Clock,
  Decimal,
  instrumentOf,
  Money,
  type OrderEvent,
  type OrderIntent,
  strategyId,
} from '@hoga/core';
import type { SimulatorHandle } from '@hoga/simulator';
import { Subject } from 'rxjs';
import type { OrderCommand } from '../commands/order-commands.js';
import { intentFields } from './intent-fields.js';
import { createRiskModule, type OrderSink } from './risk-module.js';

/** Owner limits out of the way: the parity is about the broker's rules. */
export const WIDE = {
  defaults: {
    maxOrderValueKrw: '100000000000000',
    maxPositionValuePerSymbolKrw: '100000000000000',
    maxTotalPositionValueKrw: '100000000000000',
    maxOpenOrders: 10_000,
  },
};

let seq = 0;
const runTag = Date.now().toString(36);
const nextId = (prefix: string) => `${prefix}-${runTag}-${++seq}`;
const dec = (v: string | undefined) => (v === undefined ? undefined : new Decimal(v));

/** An intent exactly as the row asks (not validated: the risk module's broker rules judge its shape). */
function intentOf(row: RuleCase, order: RuleCaseOrder, id: string): OrderIntent {
  const raw: Record<string, unknown> = {
    clientOrderId: id as ClientOrderId,
    strategyId: strategyId('parity'),
    instrument: instrumentOf(order.symbol, row.instrument.securityType),
    side: order.side,
    sizing: order.orderAmount === undefined ? 'QUANTITY' : 'AMOUNT',
    orderType: order.orderType,
    confirmHighValue: order.confirmHighValueOrder ?? false,
  };
  if (order.quantity !== undefined) raw.quantity = dec(order.quantity);
  if (order.price !== undefined) raw.price = dec(order.price);
  if (order.orderAmount !== undefined) raw.amount = dec(order.orderAmount);
  if (order.timeInForce !== undefined) raw.timeInForce = order.timeInForce;
  return Object.freeze(raw) as unknown as OrderIntent;
}

/** Sends commands straight to the broker (the risk-off pass), keeping the answer's code. */
export class DirectSink implements OrderSink {
  readonly events$ = new Subject<OrderEvent>();
  outcome = 'none';
  constructor(
    private readonly client: BrokerClient,
    private readonly brokerIds: Map<string, string>,
    private readonly baseUrl: string,
  ) {}
  async execute(command: OrderCommand): Promise<void> {
    // Creates and modifies go as raw HTTP: the connector refuses a malformed body before sending it.
    if (command.type === 'SubmitOrder') {
      const f = intentFields(command.intent);
      const body: Record<string, unknown> = {
        symbol: command.intent.instrument.symbol,
        side: command.intent.side,
        orderType: command.intent.orderType,
        confirmHighValueOrder: command.intent.confirmHighValue,
      };
      if (f.quantity !== null) body.quantity = f.quantity.toFixed();
      if (f.price !== null) body.price = f.price.toFixed();
      if (f.orderAmount !== null) body.orderAmount = f.orderAmount.toFixed();
      if (f.timeInForce !== null) body.timeInForce = f.timeInForce;
      this.outcome = await this.post('/api/v1/orders', body);
      return;
    }
    const orderId = this.brokerIds.get(command.clientOrderId);
    if (orderId === undefined) throw new Error(`no broker id for ${command.clientOrderId}`);
    const path = `/api/v1/orders/${encodeURIComponent(orderId)}`;
    if (command.type === 'CancelOrder') {
      this.outcome = await this.post(`${path}/cancel`, {});
      return;
    }
    const body: Record<string, unknown> = {
      orderType: command.orderType,
      confirmHighValueOrder: command.confirmHighValue,
    };
    if (command.price !== undefined) body.price = command.price.toFixed();
    if (command.quantity !== undefined) body.quantity = command.quantity.toFixed();
    this.outcome = await this.post(`${path}/modify`, body);
  }

  /** The answer's error code, or `accepted`. */
  private async post(path: string, body: Record<string, unknown>): Promise<string> {
    const token = await this.client.tokens.token();
    const answer = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.accessToken}`,
        'x-service-account': String(await this.client.accountSeq()),
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    const json = (await answer.json()) as { error?: { code: string } };
    return json.error?.code ?? 'accepted';
  }
}

/** A row whose open orders the simulator refused to place: the case cannot be set up as drawn. */
export class SetupRefused extends Error {}

/**
 * The row's open orders placed on the simulator (at `setupAt`, or at the row's time), the clock
 * then moved to the row's time, and the engine's view of those orders as order events (fills and
 * expiries read after the move, as the engine's polling would have learnt them).
 */
export async function setUp(row: RuleCase, sim: SimulatorHandle, client: BrokerClient) {
  const brokerIds = new Map<string, string>();
  const events: OrderEvent[] = [];
  const placed: { id: string; orderId: string; price: string; side: 'BUY' | 'SELL'; symbol: string }[] = [];
  const canceled = new Set<string>();
  const now = () => sim.now().toMillis();
  const base = (id: string) => ({
    clientOrderId: id as ClientOrderId,
    strategyId: strategyId('parity'),
    tsEvent: now(),
    tsInit: now(),
  });
  for (const [index, open] of row.account.openOrders.entries()) {
    const id = nextId(`${row.id}o${index}`);
    const intent = intentOf(row, { ...open, confirmHighValueOrder: true }, id);
    const created = await client
      .createOrder({
        symbol: open.symbol,
        side: open.side,
        orderType: 'LIMIT',
        quantity: new Decimal(open.quantity),
        price: new Decimal(open.price),
        ...(open.timeInForce === undefined ? {} : { timeInForce: open.timeInForce }),
        clientOrderId: id,
        confirmHighValueOrder: true,
      })
      .catch((error: unknown) => {
        if (error instanceof BrokerApiError) throw new SetupRefused(`${row.id}: ${error.message}`);
        throw error;
      });
    brokerIds.set(id, created.orderId);
    events.push({ ...base(id), eventId: `${id}-s`, type: 'OrderSubmitted', intent });
    events.push({
      ...base(id),
      eventId: `${id}-a`,
      type: 'OrderAccepted',
      brokerOrderId: created.orderId as never,
    });
    if (index === 0 && row.action.kind !== 'create' && row.action.targetStatus === 'CANCELED') {
      // a target that filled at once, or a close order in its last minutes, cannot be cancelled
      await client.cancelOrder(created.orderId).catch((error: unknown) => {
        if (error instanceof BrokerApiError) throw new SetupRefused(`${row.id}: ${error.message}`);
        throw error;
      });
      canceled.add(id);
      events.push({ ...base(id), eventId: `${id}-c`, type: 'OrderCanceled' });
    }
    placed.push({ id, orderId: created.orderId, price: open.price, side: open.side, symbol: open.symbol });
  }
  if (row.setupAt !== undefined) sim.setClock(row.moment.at);
  for (const { id, orderId, price: asked, side, symbol } of placed) {
    const record = await client.getOrder(orderId);
    const filled = record.execution.filledQuantity;
    if (filled.gt(0)) {
      const price = record.execution.averageFilledPrice ?? new Decimal(asked);
      events.push({
        ...base(id),
        eventId: `${id}-f`,
        type: record.status === 'FILLED' ? 'OrderFilled' : 'OrderPartiallyFilled',
        fill: {
          fillId: `${id}-f`,
          clientOrderId: id as ClientOrderId,
          brokerOrderId: orderId as never,
          symbol,
          side,
          quantity: filled,
          price,
          commission: Money.of(new Decimal(0), row.instrument.currency),
          cumulativeQuantity: filled,
          tsEvent: now(),
        },
      });
    }
    // a DAY order whose day ended on the way (the broker lists it CANCELED)
    if (record.status === 'CANCELED' && !canceled.has(id))
      events.push({ ...base(id), eventId: `${id}-x`, type: 'OrderExpired' });
  }
  return { brokerIds, events, targetId: [...brokerIds.keys()][0] };
}

export function commandOf(row: RuleCase, targetId: string | undefined): OrderCommand {
  const base = { commandId: nextId(`${row.id}c`), strategyId: strategyId('parity'), tsInit: 0 };
  const action = row.action;
  if (action.kind === 'create') {
    return { ...base, type: 'SubmitOrder', intent: intentOf(row, action.order, nextId(row.id)) };
  }
  if (targetId === undefined) throw new Error(`${row.id}: no target`);
  if (action.kind === 'cancel')
    return { ...base, type: 'CancelOrder', clientOrderId: targetId as ClientOrderId };
  return {
    ...base,
    type: 'ModifyOrder',
    clientOrderId: targetId as ClientOrderId,
    orderType: action.request.orderType,
    ...(action.request.price === undefined ? {} : { price: new Decimal(action.request.price) }),
    ...(action.request.quantity === undefined ? {} : { quantity: new Decimal(action.request.quantity) }),
    confirmHighValue: action.request.confirmHighValueOrder ?? false,
  };
}

/**
 * Both passes of one row on a running simulator (its clock already at `setupAt`, or at the row's
 * time): the risk verdict (judged only, nothing sent), then the simulator's answer to the same
 * command sent with the risk module off.
 */
export async function judgeBoth(
  row: RuleCase,
  sim: SimulatorHandle,
  client: BrokerClient,
  clock: Clock,
): Promise<{ risk: string; simulator: string; reason: string }> {
  const { brokerIds, events, targetId } = await setUp(row, sim, client);
  const command = commandOf(row, targetId);

  const sink = new DirectSink(client, brokerIds, sim.url);
  const on = createRiskModule({ clock, config: WIDE, mode: 'live', broker: client, sink });
  for (const e of events) on.engine.onEvent(e);
  const verdict = await on.sender.send(command, true);
  on.sender.dispose();

  const off = createRiskModule({ clock, config: { enabled: false }, mode: 'live', sink });
  await off.sender.send(command);
  off.sender.dispose();
  return {
    risk: verdict.accepted ? 'accepted' : verdict.code,
    simulator: sink.outcome,
    reason: verdict.accepted ? '' : verdict.reason,
  };
}
