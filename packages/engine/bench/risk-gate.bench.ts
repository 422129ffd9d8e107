/**
 * Risk gate benchmark: the cost of the risk module per order (its check, then the order's
 * submitted and filled events), against the pass-through gate in the same run, over 200 symbols
 * with every order filled (positions in all of them). Throttles off, limits wide (as a backtest).
 * Prints figures; asserts nothing.
 *
 * Run: `pnpm --filter @hoga/engine exec tsx bench/risk-gate.bench.ts` (`N=` orders, default 20,000).
 */
import { performance } from 'node:perf_hooks';
import {
  clientOrderId,
  createOrderIntent,
  Decimal,
  instrumentOf,
  Money,
  strategyId,
  VirtualClock,
} from '@hoga/core';
import type { OrderCommand } from '../src/commands/order-commands.js';
import { RiskBook } from '../src/risk/risk-book.js';
import { parseRiskConfig } from '../src/risk/risk-config.js';
import { RiskEngine } from '../src/risk/risk-engine.js';
import { PassThroughRiskGate, type RiskGate } from '../src/risk/risk-gate.js';
import { TradingStateGateway } from '../src/risk/trading-state-gateway.js';
import { MemoryTradingStatePersistence } from '../src/risk/trading-state-persistence.js';

const N = Number(process.env.N ?? 20000);
const SYMBOLS = Array.from({ length: 200 }, (_, i) => String(100000 + i * 10).padStart(6, '0'));
function run(kind: 'risk' | 'pass'): number {
  const clock = new VirtualClock(Date.parse('2026-11-23T10:00:00+09:00'));
  const book = new RiskBook();
  const gate: RiskGate =
    kind === 'pass'
      ? new PassThroughRiskGate()
      : new RiskEngine({
          clock,
          config: parseRiskConfig({
            defaults: {
              maxOpenOrders: 1000,
              maxTotalPositionValueKrw: '1000000000000',
              dailyLossLimitKrw: '1000000000000',
            },
            account: { dailyLossLimitKrw: '1000000000000' },
          }),
          gateway: new TradingStateGateway(clock, new MemoryTradingStatePersistence()),
          view: book,
          throttles: false,
        });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const symbol = SYMBOLS[i % SYMBOLS.length]!;
    const id = clientOrderId(`o${i}`);
    const side = Math.floor(i / SYMBOLS.length) % 2 === 0 ? 'BUY' : 'SELL';
    const intent = createOrderIntent({
      clientOrderId: id,
      strategyId: strategyId('s'),
      instrument: instrumentOf(symbol),
      side,
      sizing: 'QUANTITY',
      orderType: 'LIMIT',
      quantity: new Decimal(10),
      price: new Decimal(50000),
    });
    const command: OrderCommand = {
      type: 'SubmitOrder',
      commandId: `c${i}`,
      strategyId: strategyId('s'),
      tsInit: 0,
      intent,
    };
    gate.check(command);
    const ts = clock.nowMs();
    const events = [
      {
        type: 'OrderSubmitted',
        eventId: `s${i}`,
        clientOrderId: id,
        strategyId: strategyId('s'),
        tsEvent: ts,
        tsInit: ts,
        intent,
      },
      {
        type: 'OrderFilled',
        eventId: `f${i}`,
        clientOrderId: id,
        strategyId: strategyId('s'),
        tsEvent: ts,
        tsInit: ts,
        fill: {
          fillId: `f${i}`,
          clientOrderId: id,
          brokerOrderId: 'b' as never,
          symbol,
          side,
          quantity: new Decimal(10),
          price: new Decimal(50000),
          commission: Money.of(new Decimal(0), 'KRW'),
          cumulativeQuantity: new Decimal(10),
          tsEvent: ts,
        },
      },
    ];
    if (kind === 'risk') for (const e of events) (gate as RiskEngine).onEvent(e as never);
    clock.advance(60_000);
  }
  return performance.now() - t0;
}
run('pass');
const pass = run('pass');
const risk = run('risk');
console.log(
  `orders ${N}: pass-through ${pass.toFixed(0)} ms, risk engine (check + order events) ${risk.toFixed(0)} ms, ${((risk * 1000) / N).toFixed(1)} µs per order, ratio ${(risk / pass).toFixed(1)}`,
);
