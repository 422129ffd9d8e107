import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { isOlderReport } from './older-report.js';

const at = (status: string, filled: string) => ({ status, filledQuantity: new Decimal(filled) });

describe('isOlderReport', () => {
  it.each([
    { known: at('PARTIAL_FILLED', '3'), report: at('PARTIAL_FILLED', '1'), older: true },
    { known: at('PARTIAL_FILLED', '3'), report: at('PENDING', '0'), older: true },
    { known: at('FILLED', '5'), report: at('PARTIAL_FILLED', '5'), older: true },
    { known: at('FILLED', '5'), report: at('PENDING', '5'), older: true },
    { known: at('CANCELED', '0'), report: at('PENDING', '0'), older: true },
    { known: at('REJECTED', '0'), report: at('PENDING', '0'), older: true },
    { known: at('REPLACED', '2'), report: at('PENDING_REPLACE', '2'), older: true },
    { known: at('FILLED', '5'), report: at('FILLED', '5'), older: false },
    { known: at('PENDING', '0'), report: at('PENDING', '0'), older: false },
    { known: at('PENDING', '0'), report: at('FILLED', '5'), older: false },
    { known: at('PARTIAL_FILLED', '3'), report: at('CANCELED', '3'), older: false },
    { known: at('PENDING_CANCEL', '0'), report: at('PENDING', '0'), older: false },
    // the record of a cancel or modify: its order goes back to its state
    { known: at('CANCEL_REJECTED', '0'), report: at('PENDING', '0'), older: false },
    { known: at('REPLACE_REJECTED', '0'), report: at('PENDING', '0'), older: false },
    // a status its owner stored (the engine's NOT_FOUND): not the broker's end
    { known: at('NOT_FOUND', '0'), report: at('PENDING', '0'), older: false },
    { known: at('PARTIAL_FILLED', '1.5'), report: at('PARTIAL_FILLED', '1.50'), older: false },
  ])(
    '$report.status $report.filledQuantity after $known.status $known.filledQuantity: older $older',
    ({ known, report, older }) => {
      expect(isOlderReport(known, report)).toBe(older);
    },
  );
});
