import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseStrategyConfig, StrategyConfigError } from './strategy-config.js';

const Schema = z
  .strictObject({
    fast: z.number().int().positive().default(5),
    slow: z.number().int().positive().default(20),
    mode: z.enum(['long', 'short']).default('long'),
    nested: z.object({ limit: z.number().max(10) }).optional(),
  })
  .refine((c) => c.fast < c.slow, { message: 'less than slow', path: ['fast'] });

function issues(raw: unknown) {
  try {
    parseStrategyConfig('Demo', Schema, raw);
  } catch (error) {
    if (error instanceof StrategyConfigError) return error.issues.map((i) => [i.field, i.value, i.expected]);
    throw error;
  }
  return [];
}

describe('parseStrategyConfig', () => {
  it('applies the defaults of the schema', () => {
    expect(parseStrategyConfig('Demo', Schema, {})).toEqual({ fast: 5, slow: 20, mode: 'long' });
    expect(parseStrategyConfig('Demo', Schema, { fast: 3 })).toEqual({ fast: 3, slow: 20, mode: 'long' });
  });

  it('takes any config for a strategy without a schema', () => {
    expect(parseStrategyConfig('Demo', undefined, undefined)).toEqual({});
  });

  it('refuses a field a nested z.object does not declare, through optional and default (before: dropped unseen)', () => {
    const Nested = z.object({
      stop: z.object({ pct: z.number() }).optional(),
      take: z.object({ pct: z.number() }).default({ pct: 2 }),
      loose: z.looseObject({ pct: z.number() }).optional(),
    });
    expect(() =>
      parseStrategyConfig('Demo', Nested, {
        stop: { pct: 1, typo: 2 },
        take: { pct: 3, pcy: 4 },
        loose: { pct: 1, extra: true },
      }),
    ).toThrow(
      'invalid config for strategy Demo:\n  stop.typo: found 2, expected no such field (a typo?)\n  take.pcy: found 4, expected no such field (a typo?)',
    );
  });

  it('refuses a field an object inside an array, a tuple or a record does not declare (before: dropped unseen)', () => {
    const Legs = z.object({
      legs: z.array(z.object({ symbol: z.string(), qty: z.number().default(1) })).default([]),
      pair: z.tuple([z.object({ a: z.number() })]).optional(),
      weights: z.record(z.string(), z.object({ w: z.number() })).optional(),
      steps: z.array(z.object({ at: z.number() }).transform((s) => s.at)).optional(),
    });
    // `qtty` left the leg at the default quantity of 1 instead of 5
    expect(() =>
      parseStrategyConfig('Demo', Legs, {
        legs: [
          { symbol: '005930', qty: 2 },
          { symbol: 'AAPL', qtty: 5 },
        ],
        pair: [{ a: 1, b: 2 }],
        weights: { x: { w: 1, ww: 2 } },
        steps: [{ at: 1, att: 2 }],
      }),
    ).toThrow(
      [
        'invalid config for strategy Demo:',
        '  legs.1.qtty: found 5, expected no such field (a typo?)',
        '  pair.0.b: found 2, expected no such field (a typo?)',
        '  weights.x.ww: found 2, expected no such field (a typo?)',
        '  steps.0.att: found 2, expected no such field (a typo?)',
      ].join('\n'),
    );
    expect(parseStrategyConfig('Demo', Legs, { legs: [{ symbol: 'AAPL', qty: 5 }] })).toEqual({
      legs: [{ symbol: 'AAPL', qty: 5 }],
    });
  });

  it.each([
    [{ fast: 'five' }, [['fast', 'five', 'number']]],
    [
      { slow: 0 },
      [
        ['slow', 0, 'number to be >0'],
        ['fast', undefined, 'less than slow'],
      ],
    ],
    [{ fast: 1.5 }, [['fast', 1.5, 'int']]],
    [{ mode: 'sideways' }, [['mode', 'sideways', 'one of "long"|"short"']]],
    [{ nested: { limit: 11 } }, [['nested.limit', 11, 'number to be <=10']]],
    [{ fsat: 5 }, [['fsat', 5, 'no such field (a typo?)']]],
    [{ fast: 30 }, [['fast', 30, 'less than slow']]],
  ])('names the field, the value and what was expected for %j', (raw, expected) => {
    expect(issues(raw)).toEqual(expected);
  });

  it('refuses a field a plain z.object does not declare (zod would drop it unseen); a loose object takes it', () => {
    const Plain = z.object({ stopLoss: z.number().default(0.02), size: z.number().default(1) });
    expect(() => parseStrategyConfig('Demo', Plain, { stopLos: 0.05 })).toThrow(
      'invalid config for strategy Demo:\n  stopLos: found 0.05, expected no such field (a typo?)',
    );
    // with the schema's own failures, in one message
    expect(() => parseStrategyConfig('Demo', Plain, { size: 'x', stopLos: 0.05 })).toThrow(
      'size: found "x", expected number\n  stopLos: found 0.05, expected no such field (a typo?)',
    );
    expect(
      parseStrategyConfig(
        'Demo',
        Plain.refine(() => true),
        { size: 2 },
      ),
    ).toEqual({ stopLoss: 0.02, size: 2 });
    const Loose = z.looseObject({ size: z.number() });
    expect(parseStrategyConfig('Demo', Loose, { size: 1, extra: true })).toEqual({ size: 1, extra: true });
  });

  it('turns zod messages that say no "expected" into what was expected', () => {
    const Kinds = z.object({
      side: z.union([z.literal('BUY'), z.literal('SELL')]).optional(),
      size: z.union([z.number().int(), z.string()]).optional(),
      leg: z
        .discriminatedUnion('kind', [z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b') })])
        .optional(),
      code: z
        .string()
        .regex(/^\d{6}$/)
        .optional(),
      prefix: z.string().startsWith('KR').optional(),
      lot: z.number().multipleOf(10).optional(),
      mail: z.email().optional(),
    });
    const found = (raw: unknown) => {
      try {
        parseStrategyConfig('Demo', Kinds, raw);
      } catch (error) {
        if (error instanceof StrategyConfigError) return error.issues.map((i) => [i.field, i.expected]);
        throw error;
      }
      return [];
    };
    expect(
      found({ side: 'HOLD', size: true, code: 'abc', prefix: 'US1', lot: 15, mail: 'x', leg: { kind: 'c' } }),
    ).toEqual([
      ['side', '"BUY" or "SELL"'],
      ['size', 'number or string'],
      ['leg.kind', "one of the union's options"],
      ['code', 'string to match pattern /^\\d{6}$/'],
      ['prefix', 'string to start with "KR"'],
      ['lot', 'number to be a multiple of 10'],
      ['mail', 'a valid email address'],
    ]);
    const Crossed = z.object({ fast: z.number(), slow: z.number() }).refine((c) => c.fast < c.slow);
    expect(() => parseStrategyConfig('Demo', Crossed, { fast: 9, slow: 8 })).toThrow(
      '  (config): found {"fast":9,"slow":8}, expected what the schema\'s refinement accepts (it gives no message: ' +
        "give it one, e.g. {message: 'less than slow', path: ['fast']})",
    );
  });

  it("takes a schema's own message phrased 'expected …, found …' as its expectation (before: 'expected expected …')", () => {
    const Own = z.object({
      cash: z
        .string()
        .refine((v) => /^\d+$/.test(v), { message: 'expected digits only, found something else' }),
      lot: z.number().refine((v) => v > 0, { message: 'expected a positive lot' }),
    });
    const error = (() => {
      try {
        parseStrategyConfig('Demo', Own, { cash: '1e3', lot: 0 });
      } catch (e) {
        return e as StrategyConfigError;
      }
      return undefined;
    })();
    expect(error?.message).toBe(
      'invalid config for strategy Demo:\n  cash: found "1e3", expected digits only\n  lot: found 0, expected a positive lot',
    );
  });

  it('says it all in the message, one line per field', () => {
    expect(() => parseStrategyConfig('Demo', Schema, { fast: 'x', slow: -1 })).toThrow(
      'invalid config for strategy Demo:\n  fast: found "x", expected number\n  slow: found -1, expected number to be >0',
    );
  });
});
