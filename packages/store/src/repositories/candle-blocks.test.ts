import { describe, expect, it } from 'vitest';
import {
  BLOCK_FORMAT,
  blockSpan,
  blockStartOf,
  DecodeArena,
  decodeBlock,
  encodeBlock,
} from './candle-blocks.js';

const WEEK = 7 * 86_400_000;

/** The values of a decoded column as doubles. */
function valuesOf(data: string, start: number, count: number, column: number): number[] {
  const block = decodeBlock(data, start, count, new DecodeArena());
  if (block === null) throw new Error('expected a readable block');
  const base = column === 0 ? block.tsBase : 0;
  return Array.from(block.columns[column] as Float64Array | Int32Array, (v) => (base === 0 ? v : v + base));
}

describe('blockSpan / blockStartOf', () => {
  it.each([
    ['1m', 0, 0],
    ['1m', WEEK - 1, 0],
    ['1m', WEEK, WEEK],
    ['1m', -1, -WEEK],
    ['1m', -WEEK, -WEEK],
    ['1m', Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - (Number.MAX_SAFE_INTEGER % WEEK)],
    ['1d', 448 * 86_400_000 + 5, 448 * 86_400_000],
  ])('puts %s stamp %d in the block starting at %d', (interval, ts, start) => {
    expect(blockStartOf(ts, blockSpan(interval))).toBe(start);
  });
});

describe('encodeBlock / decodeBlock', () => {
  it('stores whole numbers as 32-bit integers and the rest as doubles, reading back the same bits', () => {
    const start = 10 * WEEK;
    const ts = Float64Array.of(start, start + 60_000, start + WEEK - 1);
    const ints = Float64Array.of(72_100, -5, 2_147_483_647);
    const doubles = Float64Array.of(-0, 0.1, 2_147_483_648);
    const columns = [ts, ints, doubles, ints, Float64Array.of(1e300, 5e-324, Number.MIN_VALUE), ints];
    const data = encodeBlock(start, columns);
    const bytes = Buffer.from(data, 'base64');
    expect([...bytes.subarray(0, 8)]).toEqual([BLOCK_FORMAT, 1, 1, 0, 1, 0, 1, 0]);
    expect(bytes.length).toBe(8 + 4 * 16 + 2 * 24);
    columns.forEach((c, k) => {
      const back = valuesOf(data, start, 3, k);
      back.forEach((v, i) => {
        expect(Object.is(v, c[i]), `column ${k} value ${i}`).toBe(true);
      });
    });
  });

  it('keeps stamps as doubles when their offsets from the start do not fit 32 bits', () => {
    const ts = Float64Array.of(0, 448 * 86_400_000 - 1);
    const data = encodeBlock(0, [ts, ts, ts, ts, ts, ts]);
    expect(Buffer.from(data, 'base64')[1]).toBe(0);
    expect(valuesOf(data, 0, 2, 0)).toEqual([...ts]);
  });

  it('decodes several blocks into one arena side by side, each view intact', () => {
    const arena = new DecodeArena();
    const blocks = [1, 2, 3].map((b) => {
      const col = Float64Array.from({ length: 1000 + b }, (_, i) => b * 1e6 + i + 0.5);
      const ts = Float64Array.from(col, (_, i) => i);
      return { col, data: encodeBlock(0, [ts, col, col, col, col, col]) };
    });
    const views = blocks.map((b) => decodeBlock(b.data, 0, b.col.length, arena));
    views.forEach((v, i) => {
      expect(Array.from(v?.columns[4] ?? [])).toEqual(Array.from(blocks[i]?.col ?? []));
    });
  });

  it.each([
    ['another format', (d: Buffer) => d.fill(2, 0, 1), 2],
    ['an unknown column encoding', (d: Buffer) => d.fill(7, 3, 4), 2],
    ['another count', (d: Buffer) => d, 3],
    ['a few bytes', (d: Buffer) => d.subarray(0, 5), 2],
  ])('refuses a value of %s', (_, change, count) => {
    const col = Float64Array.of(0.5, 1.5);
    const bytes = Buffer.from(encodeBlock(0, [Float64Array.of(0, 1), col, col, col, col, col]), 'base64');
    expect(decodeBlock(change(bytes).toString('base64'), 0, count, new DecodeArena())).toBeNull();
  });

  it('refuses a value that is not text (a BLOB)', () => {
    const col = Float64Array.of(0.5, 1.5);
    const bytes = Buffer.from(encodeBlock(0, [Float64Array.of(0, 1), col, col, col, col, col]), 'base64');
    expect(decodeBlock(bytes, 0, 2, new DecodeArena())).toBeNull();
  });
});
