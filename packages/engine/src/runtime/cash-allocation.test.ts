import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../engine-error.js';
import { Strategy } from '../strategy/strategy.js';
import { allocateCash, unallocatedCash } from './cash-allocation.js';

class A extends Strategy {}
const d = (v: string | number) => new Decimal(v);
const cashOf = (specs: ReturnType<typeof allocateCash>) =>
  specs.map((s) => Object.fromEntries(Object.entries(s.cash ?? {}).map(([k, v]) => [k, v.toFixed()])));

describe('allocateCash', () => {
  it('gives one strategy without its own cash the run’s cash (left to the runtime’s default)', () => {
    const specs = allocateCash({ KRW: d(1_000) }, [{ strategyClass: A }]);
    expect(specs[0]?.cash).toBeUndefined();
  });

  it('shares the run’s cash equally, rounded down to the currency, among strategies without their own', () => {
    const specs = allocateCash({ KRW: d(100_000_001), USD: d('100.05') }, [
      { strategyClass: A, id: 'a' },
      { strategyClass: A, id: 'b' },
      { strategyClass: A, id: 'c' },
    ]);
    expect(cashOf(specs)).toEqual([
      { KRW: '33333333', USD: '33.35' },
      { KRW: '33333333', USD: '33.35' },
      { KRW: '33333333', USD: '33.35' },
    ]);
  });

  it('keeps a strategy’s own cash and shares what is left', () => {
    const specs = allocateCash({ KRW: d(10_000), USD: d(100) }, [
      { strategyClass: A, id: 'a', cash: { KRW: d(4_000) } },
      { strategyClass: A, id: 'b' },
      { strategyClass: A, id: 'c' },
    ]);
    expect(cashOf(specs)).toEqual([{ KRW: '4000' }, { KRW: '3000', USD: '50' }, { KRW: '3000', USD: '50' }]);
  });

  it('refuses strategies whose own cash exceeds the run’s, naming the currency and both amounts', () => {
    expect(() =>
      allocateCash({ KRW: d(1_000) }, [
        { strategyClass: A, id: 'a', cash: { KRW: d(800) } },
        { strategyClass: A, id: 'b', cash: { KRW: d(300) } },
        { strategyClass: A, id: 'c' },
      ]),
    ).toThrow(EngineError);
    expect(() =>
      allocateCash({ KRW: d(1_000) }, [
        { strategyClass: A, id: 'a', cash: { KRW: d(1_001) } },
        { strategyClass: A },
      ]),
    ).toThrow("the strategies' own cash, 1001 KRW, exceeds the run's 1000 KRW");
  });
});

describe('unallocatedCash', () => {
  const left = (run: Parameters<typeof allocateCash>[0], specs: Parameters<typeof allocateCash>[1]) =>
    Object.fromEntries(
      Object.entries(unallocatedCash(run, allocateCash(run, specs))).map(([k, v]) => [k, v.toFixed()]),
    );

  it('is the won and cent equal shares leave over', () => {
    const three = [
      { strategyClass: A, id: 'a' },
      { strategyClass: A, id: 'b' },
      { strategyClass: A, id: 'c' },
    ];
    expect(left({ KRW: d(100_000_000), USD: d(100_000) }, three)).toEqual({ KRW: '1', USD: '0.01' });
  });

  it('is nothing for one strategy (it gets the run’s cash) or shares that divide', () => {
    expect(left({ KRW: d(1_000), USD: d(10) }, [{ strategyClass: A }])).toEqual({});
    expect(
      left({ KRW: d(1_000) }, [
        { strategyClass: A, id: 'a' },
        { strategyClass: A, id: 'b' },
      ]),
    ).toEqual({});
  });

  it('is what strategies all given their own cash leave of the run’s', () => {
    expect(
      left({ KRW: d(10_000), USD: d(100) }, [
        { strategyClass: A, id: 'a', cash: { KRW: d(4_000) } },
        { strategyClass: A, id: 'b', cash: { KRW: d(1_000), USD: d(100) } },
      ]),
    ).toEqual({ KRW: '5000' });
  });
});
