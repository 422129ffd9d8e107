/**
 * The libraries docs/strategies.md says a strategy may import without installing them are this
 * package's own dependencies: a strategy written here with any of them typechecks (`pnpm
 * typecheck`), as it runs under `hoga`. Before, `decimal.js` was not one, and a strategy here that
 * imported it failed the typecheck.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import { DateTime } from 'luxon';
import { SMA } from 'trading-signals';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const SHIPPED = ['@hoga/core', '@hoga/engine', 'trading-signals', 'decimal.js', 'luxon', 'zod'];

describe('the libraries a strategy may import', () => {
  it('are dependencies of the strategies package, each named in docs/strategies.md', () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual([...SHIPPED].sort());
    const docs = readFileSync(join(import.meta.dirname, '..', 'docs', 'strategies.md'), 'utf8');
    for (const name of SHIPPED) expect(docs).toContain(`\`${name}\``);
  });

  it('resolve from a file here, as a strategy imports them', () => {
    const sma = new SMA(2);
    sma.add(1);
    sma.add(3);
    expect(Number(sma.getResult())).toBe(2);
    expect(new Decimal('0.1').plus('0.2').toFixed()).toBe('0.3');
    expect(DateTime.fromISO('2026-12-01', { zone: 'Asia/Seoul' }).weekdayShort).toBe('Tue');
    expect(z.number().int().parse(3)).toBe(3);
  });
});
