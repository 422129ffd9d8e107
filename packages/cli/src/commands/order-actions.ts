/**
 * What `hoga order` does: builds the order command, puts it through the risk module (the broker's
 * rules against hoga's view, read from the broker just before; the owner's limits; the trading
 * states kept in the store) and, unless `--check`, hands it to the live order manager, which writes
 * it to the store before sending it.
 *
 * @module
 */
import type { BrokerClient, OrderRecord } from '@hoga/connector';
import {
  type ClientOrderId,
  type Clock,
  Decimal,
  instrumentOf,
  LiveClock,
  Money,
  newEventId,
  type OrderEvent,
  type OrderIntent,
  type StrategyId,
  strategyId as toStrategyId,
  VirtualClock,
} from '@hoga/core';
import {
  createRiskModule,
  modifyQuantity,
  type OrderCommand,
  OrderManager,
  type RiskModule,
  type RiskVerdict,
  type RunLease,
  STORE_UNAVAILABLE,
  takeCommandLease,
} from '@hoga/engine';
import { HogaDatabase, resolveDatabasePath } from '@hoga/store';
import { DateTime } from 'luxon';
import { loadRiskConfig } from '../config/risk-config-file.js';
import { directoryDatabase } from '../runtime/database-path.js';
import { CliError, ExitCode } from '../runtime/exit-codes.js';
import { simulatorClock } from './broker/broker-clock.js';
import { connect, reportError } from './broker/connection.js';
import type { OrderFlags } from './order.js';
import { describeFill } from './order-fill.js';
import {
  answerEarlier,
  ID_CONFLICT,
  judgeEarlier,
  reportEarlier,
  unansweredText,
  unstoredText,
} from './order-rerun.js';
import { buildIntent, checkUsLimit, type OrderSpec, OrderUsageError } from './order-spec.js';

/** Feeds the engine's view for a CLI process: the account's open orders, a target's last state, holdings. */
async function seedView(
  risk: RiskModule,
  client: BrokerClient,
  db: HogaDatabase,
  strategy: StrategyId,
  target: { clientOrderId: string; brokerOrderId: string | null } | null,
): Promise<{ readonly holdsUsd: boolean }> {
  let holdsUsd = false;
  const now = Date.now();
  const feed = (record: OrderRecord, terminal: boolean) => {
    const own = db.orders.findByBrokerOrderId(record.orderId) ?? null;
    const clientOrderId = (own?.clientOrderId ?? `broker-${record.orderId}`) as ClientOrderId;
    const owner = (own?.strategyId ?? 'manual') as StrategyId;
    const intent = Object.freeze({
      clientOrderId,
      strategyId: owner,
      instrument: instrumentOf(record.symbol),
      side: record.side,
      sizing: record.orderAmount === null ? 'QUANTITY' : 'AMOUNT',
      orderType: record.orderType,
      ...(record.orderAmount === null ? { quantity: record.quantity } : { amount: record.orderAmount }),
      ...(record.price === null ? {} : { price: record.price }),
      timeInForce: record.timeInForce,
      confirmHighValue: true,
    }) as unknown as OrderIntent;
    if (record.currency === 'USD') holdsUsd = true;
    const base = { clientOrderId, strategyId: owner, tsEvent: now, tsInit: now };
    const events: OrderEvent[] = [{ ...base, eventId: newEventId(), type: 'OrderSubmitted', intent }];
    if (terminal) {
      if (record.status === 'FILLED') {
        events.push({
          ...base,
          eventId: newEventId(),
          type: 'OrderFilled',
          fill: {
            fillId: newEventId(),
            clientOrderId,
            brokerOrderId: record.orderId as never,
            symbol: record.symbol,
            side: record.side === 'SELL' ? 'SELL' : 'BUY',
            quantity: record.execution.filledQuantity,
            price: record.execution.averageFilledPrice ?? record.price ?? new Decimal(0),
            commission: Money.of(new Decimal(0), record.currency === 'USD' ? 'USD' : 'KRW'),
            cumulativeQuantity: record.execution.filledQuantity,
            tsEvent: now,
          },
        });
      } else if (record.status === 'CANCELED') {
        events.push({ ...base, eventId: newEventId(), type: 'OrderCanceled' });
      } else if (record.status === 'REJECTED') {
        events.push({ ...base, eventId: newEventId(), type: 'OrderRejected', reason: 'rejected' });
      }
    }
    for (const e of events) risk.engine.onEvent(e);
  };
  const open = await client.listOrders({ status: 'OPEN' });
  for (const record of open.orders) feed(record, false);
  if (target?.brokerOrderId != null && !open.orders.some((o) => o.orderId === target.brokerOrderId)) {
    feed(await client.getOrder(target.brokerOrderId), true);
  }
  const holdings = await client.getHoldings();
  for (const item of holdings.items) {
    if (item.currency === 'USD' && !item.quantity.isZero()) holdsUsd = true;
    risk.book.setHolding(
      strategy,
      item.symbol,
      item.currency === 'USD' ? 'USD' : 'KRW',
      item.quantity,
      item.averagePurchasePrice,
    );
  }
  return { holdsUsd };
}

/** The order a modify or cancel names, as the store has it: its ids and the strategy it is of. */
interface Target {
  readonly clientOrderId: string;
  readonly brokerOrderId: string | null;
  /** The strategy that placed it (null: none recorded, an order adopted from another channel). */
  readonly owner: string | null;
}

function resolveTarget(db: HogaDatabase, target: string): Target {
  const own = db.orders.get(target) ?? db.orders.findByBrokerOrderId(target);
  if (own === null) {
    // the user's mistake, said as such (before: 'unexpected error: …, run again with --verbose')
    throw new CliError(
      `order ${target} is not in hoga's store (${db.file}); only orders placed through hoga can be modified or cancelled here (hoga db orders lists them)`,
      ExitCode.FAILURE,
    );
  }
  return { clientOrderId: own.clientOrderId, brokerOrderId: own.brokerOrderId, owner: own.strategyId };
}

/**
 * The strategy a modify or cancel is judged as: the order's own, as a running engine judges a
 * strategy's change of its order (its trading state, its limits, its book); `--strategy` only for
 * an order with none recorded. A `--strategy` naming another is refused: before, it (or `manual`,
 * the default) judged the change, so a halted strategy's order could be modified as a manual one.
 */
function judgedAs(target: Target, given: string | undefined): StrategyId {
  if (target.owner !== null && given !== undefined && given !== target.owner)
    throw new OrderUsageError(
      `order ${target.clientOrderId} is strategy ${target.owner}'s: a modify is judged by its own strategy's trading state and limits; leave out --strategy (or give --strategy ${target.owner})`,
    );
  return toStrategyId(target.owner ?? given ?? 'manual');
}

/**
 * The engine clock: `--at` (checks only), else the simulator's when the broker is the simulator
 * (as `hoga run` follows it; `--sim-clock` insists on it), else the machine's.
 */
async function engineClock(flags: OrderFlags): Promise<Clock> {
  if (flags.at !== undefined) {
    if (flags.check !== true)
      throw new OrderUsageError('--at judges an order at another instant: use it with --check');
    const at = DateTime.fromISO(flags.at, { setZone: true });
    if (!at.isValid)
      throw new OrderUsageError(
        `--at: expected an ISO 8601 time like 2026-11-23T10:00:00+09:00, found "${flags.at}"`,
      );
    return new VirtualClock(at.toMillis());
  }
  const base = flags.baseUrl ?? process.env.HOGA_BASE_URL;
  if (base === undefined) {
    if (flags.simClock === true)
      throw new OrderUsageError('--sim-clock needs the simulator address (--base-url or $HOGA_BASE_URL)');
    return new LiveClock();
  }
  const sim = await simulatorClock(base);
  if (sim === null && flags.simClock === true)
    throw new Error(`--sim-clock: ${base} does not serve GET /_sim/clock: is it the simulator (hoga sim)?`);
  return sim ?? new LiveClock();
}

/** What to do about a denial, where the CLI has a flag for it. */
const DENIAL_HINTS: Readonly<Record<string, string>> = {
  'confirm-high-value-required': 'give --confirm-high-value to confirm it',
};

/**
 * A verdict as printed. A modify or cancel denied by a rule of the risk module's own (`risk-…`: a
 * trading state, an owner's limit, a throttle; not the broker's rules) says whose order it judged:
 * the rules are its strategy's.
 */
function describeVerdict(verdict: RiskVerdict, target: Target | null, strategy: StrategyId): string {
  if (verdict.accepted) return 'accepted';
  const hint = DENIAL_HINTS[verdict.code];
  const whose =
    target !== null && verdict.code.startsWith('risk-')
      ? ` (order ${target.clientOrderId} is strategy ${strategy}'s: its rules judge a change of it)`
      : '';
  return `denied: ${verdict.code}: ${verdict.reason}${hint === undefined ? '' : ` (${hint})`}${whose}`;
}

/** Runs one `hoga order` command and sets the exit code (0 accepted, 1 failed or refused, 2 usage, 3 denied). */
export async function runOrderCommand(spec: OrderSpec): Promise<void> {
  const flags = spec.flags;
  let db: HogaDatabase | undefined;
  let close: (() => void) | undefined;
  let risk: RiskModule | undefined;
  let lease: RunLease | undefined;
  try {
    if (flags.csv === true)
      throw new OrderUsageError('--csv: hoga order prints a line of text, or JSON with --json');
    const config = loadRiskConfig(flags.riskConfig);
    let strategy = toStrategyId(flags.strategy ?? 'manual');
    const clock = await engineClock(flags);
    if (spec.kind === 'buy' || spec.kind === 'sell') checkUsLimit(spec.symbol, flags.limit);
    const intent = spec.kind === 'buy' || spec.kind === 'sell' ? buildIntent(spec, strategy) : null;
    if (spec.kind === 'modify' && flags.limit === undefined && flags.market !== true) {
      throw new OrderUsageError('give --limit PRICE (or --market) for the modified order');
    }
    const file = resolveDatabasePath(flags.db);
    // as hoga data list and hoga db say it (before: exit 1, `unexpected error: EISDIR`)
    const directory = directoryDatabase(file);
    if (directory !== undefined) throw new OrderUsageError(directory);
    db = HogaDatabase.open(file);
    const connection = connect({ ...flags, db: db.file });
    close = () => connection.close();
    const client = connection.client;
    const manager = new OrderManager(client, db, clock);
    // the id of an order hoga placed already (the same command run again): that order is reported
    // (an earlier send without an answer looked for under its key first), or the id refused
    const earlier = intent === null ? null : db.orders.get(intent.clientOrderId);
    if (intent !== null && earlier !== null) {
      const answer =
        flags.check === true
          ? judgeEarlier(intent, earlier) // sends nothing, not even the earlier create again
          : await answerEarlier(intent, earlier, manager, db, clock.nowMs());
      await reportEarlier(answer, manager, db, flags.json === true);
      return;
    }
    risk = createRiskModule({
      clock,
      config,
      db,
      mode: 'live',
      broker: client,
      brokerUrl: client.config.baseUrl,
      sink: manager,
    });
    const target = spec.kind === 'modify' || spec.kind === 'cancel' ? resolveTarget(db, spec.target) : null;
    if (target !== null) strategy = judgedAs(target, flags.strategy);
    if (spec.kind === 'modify') checkUsLimit(db.orders.get(target!.clientOrderId)?.symbol ?? '', flags.limit);
    // the store as the broker has it now (no process may have polled since the order was sent):
    // an order that filled meanwhile is judged, and listed by hoga db, as filled
    if (target !== null) await manager.refreshOrder(target.clientOrderId);
    const { holdsUsd } = await seedView(risk, client, db, strategy, target);
    // The USD/KRW rate converts USD amounts only: a US order's value (the broker's maximum amount,
    // the risk limits) and the account's USD holdings and open USD orders (the account-wide
    // limits). A KR order on an account with nothing in USD multiplies it by nothing: it is not
    // read (before, every hoga order read it, a MARKET_INFO request); the judgement is given the
    // book's own rate, which values KR orders already.
    const symbol = intent?.instrument.symbol ?? db.orders.get(target?.clientOrderId ?? '')?.symbol;
    if (!holdsUsd && symbol !== undefined && instrumentOf(symbol).currency !== 'USD') {
      risk.market?.followFx(risk.book.usdKrw());
    }
    const base = { commandId: newEventId(), strategyId: strategy, tsInit: clock.nowMs() };
    let command: OrderCommand;
    if (intent !== null) command = { ...base, type: 'SubmitOrder', intent };
    else if (spec.kind === 'cancel')
      command = { ...base, type: 'CancelOrder', clientOrderId: target!.clientOrderId as ClientOrderId };
    else {
      const clientOrderId = target!.clientOrderId as ClientOrderId;
      // without --quantity, a KR order's unfilled rest as the broker's records show it
      const quantity = modifyQuantity(
        flags.quantity === undefined ? undefined : new Decimal(flags.quantity),
        risk.book.order(clientOrderId),
      );
      command = {
        ...base,
        type: 'ModifyOrder',
        clientOrderId,
        orderType: flags.market === true ? 'MARKET' : 'LIMIT',
        ...(flags.limit === undefined ? {} : { price: new Decimal(flags.limit) }),
        ...(quantity === undefined ? {} : { quantity }),
        confirmHighValue: flags.confirmHighValue === true,
      };
    }
    const clientOrderId =
      command.type === 'SubmitOrder' ? command.intent.clientOrderId : command.clientOrderId;
    const events: OrderEvent[] = [];
    const subscription = risk.sender.events$.subscribe((e) => {
      if (e.clientOrderId === clientOrderId) events.push(e);
    });
    // held until the answer is settled: an engine starting on the store meanwhile leaves the
    // command to this process (it would take it for interrupted, and re-send or refuse it)
    if (flags.check !== true) lease = takeCommandLease(db, command.commandId, clock.nowMs());
    const verdict = await risk.sender.send(command, flags.check === true);
    const isRefusal = (e: OrderEvent) =>
      e.type === 'OrderRejected' || e.type === 'OrderModifyRejected' || e.type === 'OrderCancelRejected';
    // what the broker did with it right away (a marketable order fills at once): in the store and
    // among the events printed
    if (verdict.accepted && flags.check !== true && !events.some(isRefusal))
      await manager.refreshOrder(clientOrderId);
    subscription.unsubscribe();
    // a modify or cancel: the strategy whose order it is, whose rules judged it
    const whose = target === null ? {} : { strategy };
    const data = verdict.accepted
      ? whose
      : { ...whose, code: verdict.code, message: verdict.reason, data: verdict.data ?? null };
    // the risk checks passed, but the order manager denied it before sending (`symbol-blocked`):
    // nothing was sent (before, this printed `sent: …: OrderDenied` and exited 0, with no reason)
    const denied = events.find((e) => e.type === 'OrderDenied');
    if (flags.check !== true && verdict.accepted && denied?.type === 'OrderDenied') {
      const out = {
        verdict: 'denied',
        clientOrderId,
        sent: false,
        code: denied.code,
        message: denied.reason,
      };
      console.log(flags.json === true ? JSON.stringify(out) : `denied: ${denied.code}: ${denied.reason}`);
      process.exitCode = 3;
      return;
    }
    if (flags.check === true || !verdict.accepted) {
      const out = { verdict: verdict.accepted ? 'accepted' : 'denied', clientOrderId, sent: false, ...data };
      console.log(flags.json === true ? JSON.stringify(out) : describeVerdict(verdict, target, strategy));
      process.exitCode = verdict.accepted ? 0 : 3;
      return;
    }
    const refused = events.find(isRefusal);
    const stored = db.orders.get(clientOrderId);
    const brokerOrderId = stored?.brokerOrderId ?? null;
    // a modify or cancel the engine refused before sending it (the store could not record it
    // first: fail closed) was not sent; before, it was told as the broker's refusal, `sent: true`
    const unsent = refused !== undefined && 'sent' in refused && refused.sent === false;
    // a create whose answer was lost (its order may be at the broker): the same command again says
    // (before: `sent: <id>: OrderSubmitted`, exit 0, as if it were placed)
    const unanswered = refused === undefined && intent !== null && brokerOrderId === null;
    // sent, but the store refused its rows (a full disk): why, and the order the broker placed
    const unstored = unanswered ? manager.unstoredCreate(clientOrderId) : undefined;
    const outcome =
      refused === undefined
        ? unstored !== undefined
          ? 'unstored'
          : unanswered
            ? 'unanswered'
            : 'sent'
        : unsent
          ? 'not-sent'
          : 'refused';
    const out = {
      verdict: 'accepted',
      sent: !unsent,
      outcome,
      clientOrderId,
      ...whose,
      brokerOrderId: brokerOrderId ?? unstored?.brokerOrderId ?? null,
      events: events.map((e) => e.type),
      // the order as the broker has it now (a marketable order has filled): state, quantity, price
      state: stored?.state ?? null,
      filledQuantity: stored?.filledQuantity.toFixed() ?? null,
      averageFillPrice: stored?.averageFillPrice?.toFixed() ?? null,
      ...(refused !== undefined && 'code' in refused ? { code: refused.code, message: refused.reason } : {}),
      ...(unstored === undefined ? {} : { code: STORE_UNAVAILABLE, message: unstored.reason }),
    };
    if (flags.json === true) console.log(JSON.stringify(out));
    else if (unsent) console.log(`not sent: ${refused.code}: ${refused.reason}`);
    else if (refused !== undefined && 'reason' in refused)
      console.log(
        `refused by the broker: ${refused.code ?? ''}: ${refused.reason}${refused.code === ID_CONFLICT ? ` (the broker placed another order under clientOrderId ${clientOrderId} in the last 10 minutes: give another --client-order-id, or none for a new one)` : ''}`,
      );
    else if (unstored !== undefined) console.log(unstoredText(clientOrderId, unstored));
    else if (unanswered) console.log(unansweredText(clientOrderId));
    else
      console.log(
        `sent: ${clientOrderId}${brokerOrderId === null ? '' : ` (broker order ${brokerOrderId})`}: ${out.events.join(', ')}${describeFill(stored)}`,
      );
    process.exitCode = refused === undefined && !unanswered ? 0 : 1;
  } catch (error) {
    reportError(error instanceof OrderUsageError ? new CliError(error.message, ExitCode.USAGE) : error);
  } finally {
    risk?.sender.dispose();
    close?.();
    lease?.release();
    db?.close();
  }
}
