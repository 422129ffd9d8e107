import { describe, expect, it } from 'vitest';
import { PLAIN_TRADING_FLAGS, tradingFlagsOf } from './trading-flags.js';

describe('tradingFlagsOf', () => {
  it('reads the KR flags from koreanMarketDetail', () => {
    expect(
      tradingFlagsOf(
        { nxtSupported: true, krxTradingSuspended: false, nxtTradingSuspended: true },
        { afterMarketEligible: true, warnings: ['OVERHEATED'] },
      ),
    ).toEqual({
      nxtSupported: true,
      krxSuspended: false,
      nxtSuspended: true,
      prerequisiteRequired: false,
      afterMarketEligible: true,
      warnings: ['OVERHEATED'],
    });
  });

  it('gives a US stock (no koreanMarketDetail) plain flags plus what the caller knows', () => {
    expect(tradingFlagsOf(null)).toEqual(PLAIN_TRADING_FLAGS);
    expect(tradingFlagsOf(null, { prerequisiteRequired: true }).prerequisiteRequired).toBe(true);
  });

  it('keeps a null NXT suspension when NXT does not trade the stock', () => {
    const flags = tradingFlagsOf({
      nxtSupported: false,
      krxTradingSuspended: true,
      nxtTradingSuspended: null,
    });
    expect([flags.krxSuspended, flags.nxtSuspended]).toEqual([true, null]);
  });
});
