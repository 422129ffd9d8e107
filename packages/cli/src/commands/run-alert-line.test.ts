import { describe, expect, it } from 'vitest';
import { alertLine } from './run-alert-line.js';

describe('alertLine', () => {
  it('says each alert in words, without its JSON or epoch', () => {
    const t = 1_796_016_692_741;
    expect(
      alertLine({ type: 'PositionMismatch', symbol: '035420', store: '1', broker: '0', tsEvent: t }),
    ).toBe(
      'ALERT position mismatch 035420: the store holds 1, the broker 0; new orders of 035420 are denied (symbol-blocked) until the two agree again (the run compares them every 10 s; an order of another channel, or a fill hoga did not see, makes them differ)',
    );
    expect(alertLine({ type: 'PositionResolved', symbol: '035420', tsEvent: t })).toBe(
      'ALERT position 035420 agrees with the broker again: its new orders are taken again',
    );
    expect(
      alertLine({
        type: 'OrderOutcomeUnknown',
        clientOrderId: 'c-1',
        commandId: 'c-1:cancel',
        kind: 'cancel',
        reason: '0 orders in the history match the cancel',
        tsEvent: t,
      }),
    ).toBe(
      'ALERT order c-1: the outcome of its cancel is not known (0 orders in the history match the cancel); check the order at the broker (hoga orders)',
    );
    expect(
      alertLine({ type: 'OrderMissingAtBroker', clientOrderId: 'c-2', brokerOrderId: 'B9', tsEvent: t }),
    ).toBe('ALERT order c-2 (broker id B9): the broker has no record of it; it is counted ended');
  });

  it('prints nothing for an order of another channel adopted (its fills are reported as any other)', () => {
    expect(
      alertLine({ type: 'ExternalOrderAdopted', clientOrderId: 'ext-B1', brokerOrderId: 'B1', tsEvent: 0 }),
    ).toBeNull();
  });
});
