import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { paperCashWarning } from './paper-cash-warning.js';

const d = (text: string) => new Decimal(text);

describe('paperCashWarning', () => {
  it('says nothing while the paper account holds what the strategies have', () => {
    expect(paperCashWarning('KRW', d('9460000'), d('9460000'), d('10000000'))).toBeNull();
    expect(paperCashWarning('USD', d('900'), d('1000'), d('1000'))).toBeNull();
  });

  it("names the strategies' cash, the account's and the largest flag that fits, after earlier fills", () => {
    // --cash-krw 20,000,000 after a first run of 10,000,000 that bought for 540,000
    expect(paperCashWarning('KRW', d('19460000'), d('9460000'), d('20000000'))).toBe(
      "hoga: warning: the strategies' cash 19,460,000 KRW (--cash-krw with their earlier paper fills) is more than " +
        'the paper account holds (9,460,000 KRW): their buys past it are refused insufficient-buying-power; ' +
        'run with --cash-krw 10000000 or less, or give the run a fresh paper account in a store of its own (--db FILE)',
    );
  });

  it('gives dollars as the start line does (every digit of the account kept), the flag to the cent', () => {
    expect(paperCashWarning('USD', d('20000'), d('9999.995'), d('20000'))).toContain(
      "the strategies' cash $20,000.00 is more than the paper account holds ($9,999.995): their buys past it are refused insufficient-buying-power; run with --cash-usd 9999.99 or less",
    );
  });

  it('asks for a smaller flag when no amount of it would fit (the fills alone are past the account)', () => {
    expect(paperCashWarning('KRW', d('5000000'), d('1000000'), d('3000000'))).toContain(
      'run with a smaller --cash-krw, or',
    );
  });
});
