import {
  clientOrderId,
  createOrderIntent,
  Decimal,
  instrumentOf,
  strategyId,
  VirtualClock,
} from '@hoga/core';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { OrderCommand } from '../commands/order-commands.js';
import { T0 } from './risk-fixture.test-helper.js';
import { createRiskModule } from './risk-module.js';

const buy: OrderCommand = {
  type: 'SubmitOrder',
  commandId: 'c1',
  strategyId: strategyId('s1'),
  tsInit: T0,
  intent: createOrderIntent({
    clientOrderId: clientOrderId('o1'),
    strategyId: strategyId('s1'),
    instrument: instrumentOf('005930'),
    side: 'BUY',
    sizing: 'QUANTITY',
    orderType: 'LIMIT',
    quantity: new Decimal(1),
    price: new Decimal(70_000),
  }),
};

/** The reason a halted strategy's buy is denied with, by the module built for `mode`. */
function haltedReason(mode: 'live' | 'paper' | 'backtest'): string {
  const clock = new VirtualClock(T0);
  const module = createRiskModule({
    clock,
    mode,
    sink: { execute: async () => undefined, events$: new Subject() },
  });
  module.gateway.set({ kind: 'strategy', strategyId: 's1' }, 'HALTED', 'manual', 'broker maintenance');
  const verdict = module.engine.check(buy);
  return verdict.accepted ? 'accepted' : `${verdict.code}: ${verdict.reason}`;
}

describe('the risk module of a mode', () => {
  it("names the way out of a halt that works in the run's mode", () => {
    const set =
      'risk-halted: Trading is halted for strategy s1: only cancels are accepted. Set by an operator ' +
      '(hoga risk set) (broker maintenance) since 2026-11-23 10:00 KST (Mon)';
    expect(haltedReason('live')).toBe(
      `${set}, until lifted by hand; to lift it: hoga risk reset --strategy s1`,
    );
    // a paper run's states are paper's: the reset must say so (before: a remark for either mode)
    expect(haltedReason('paper')).toBe(
      `${set}, until lifted by hand; to lift it: hoga risk reset --strategy s1 --mode paper`,
    );
    expect(haltedReason('backtest')).toBe(
      `${set}, for the rest of the run; hoga risk reset does not reach a backtest`,
    );
  });
});
