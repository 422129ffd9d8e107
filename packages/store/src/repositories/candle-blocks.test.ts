import { describe, expect, it } from 'vitest';
import { BLOCK_FORMAT, blockSpan, blockStartOf, decodeBlock, encodeBlock } from './candle-blocks.js';

const WEEK = 7 * 86_400_000;

/** The values of a decoded column as doubles. */
function valuesOf(data: Buffer, start: number, count: number, column: number): number[] {
  const block = decodeBlock(data, start, count);
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
    expect([...data.subarray(0, 8)]).toEqual([BLOCK_FORMAT, 1, 1, 0, 1, 0, 1, 0]);
    expect(data.length).toBe(8 + 4 * 16 + 2 * 24);
    columns.forEach((c, k) => {
      const back = valuesOf(data, start, 3, k);
      back.forEach((v, i) => {
        expect(Object.is(v, c[i]), `column ${k} value ${i}`).toBe(true);
      });
    });
  });

  it('keeps stamps as doubles when their offsets from the start do not fit 32 bits', () => {
    const start = 0;
    const ts = Float64Array.of(0, 448 * 86_400_000 - 1);
    const data = encodeBlock(start, [ts, ts, ts, ts, ts, ts]);
    expect(data[1]).toBe(0);
    expect(valuesOf(data, start, 2, 0)).toEqual([...ts]);
  });

  it('reads a block from a buffer that is not 8-byte aligned', () => {
    const col = Float64Array.of(0.5, 1.5);
    const data = encodeBlock(0, [Float64Array.of(0, 1), col, col, col, col, col]);
    const shifted = new Uint8Array(data.length + 1).subarray(1);
    shifted.set(data);
    expect(Array.from(decodeBlock(shifted, 0, 2)?.columns[1] ?? [])).toEqual([0.5, 1.5]);
  });

  it.each([
    ['another format', (d: Buffer) => d.fill(2, 0, 1), 2],
    ['an unknown column encoding', (d: Buffer) => d.fill(7, 3, 4), 2],
    ['another count', (d: Buffer) => d, 3],
  ])('refuses a blob of %s', (_, change, count) => {
    const col = Float64Array.of(0.5, 1.5);
    const data = change(encodeBlock(0, [Float64Array.of(0, 1), col, col, col, col, col]));
    expect(decodeBlock(data, 0, count)).toBeNull();
  });
});
