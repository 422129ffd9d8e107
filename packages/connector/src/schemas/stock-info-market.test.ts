import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StockInfoSchema } from './reference-data.js';

const recorded = (
  JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'stocks.json'), 'utf8'),
  ) as { result: Record<string, unknown>[] }
).result[0]!;

describe('StockInfoSchema', () => {
  it.each(['KOSPI', 'KOSDAQ', 'NYSE', 'NASDAQ', 'AMEX', 'KR_ETC', 'US_ETC'])(
    "parses the reference's market %s",
    (market) => {
      expect(StockInfoSchema.parse({ ...recorded, market }).market).toBe(market);
    },
  );

  it.each(['NYSE ARCA', 'KONEX', 'BATS'])(
    'keeps a market outside the enumeration (%s) as it is',
    (market) => {
      const parsed = StockInfoSchema.parse({ ...recorded, market });
      expect(parsed.market).toBe(market);
      expect(parsed.raw.market).toBe(market);
    },
  );
});
