import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { formatMoney, groupDecimal, renderCsv, renderTable, TableWriter } from './table.js';

describe('tables (issue 13 items 2 and 11)', () => {
  it('renders 300,000 rows without exceeding the call stack (the old Math.max(...rows) did)', () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => [`row ${i}`, new Decimal(i)]);
    const text = renderTable(['name', 'n'], rows);
    const lines = text.split('\n');
    expect(lines).toHaveLength(300_002);
    expect(lines.at(-1)).toBe('row 299999  299,999');
  });

  it('streams: rows after the sizing rows are written as they come', () => {
    const chunks: string[] = [];
    const writer = new TableWriter(['a', 'b'], (t) => chunks.push(t), { sizingRows: 2 });
    writer.row(['x', new Decimal(1)]);
    expect(chunks).toEqual([]);
    writer.row(['y', new Decimal(22)]);
    expect(chunks.join('')).toBe('a   b\n-  --\nx   1\ny  22\n');
    writer.row(['z', new Decimal(3)]);
    expect(chunks.at(-1)).toBe('z   3\n');
  });

  it("groups numbers and uses each currency's decimals", () => {
    expect(groupDecimal(new Decimal('64700'))).toBe('64,700');
    expect(groupDecimal(new Decimal('-1234567.5'))).toBe('-1,234,567.5');
    expect(formatMoney(new Decimal('66800'), 'KRW')).toBe('66,800');
    expect(formatMoney(new Decimal('1234.5'), 'USD')).toBe('$1,234.50');
    expect(formatMoney(new Decimal('-0.1234'), 'USD')).toBe('-$0.1234');
  });

  it('colours gains green and losses red only when asked', () => {
    const rows = [
      ['up', { money: new Decimal('10'), currency: 'KRW', signed: true }],
      ['down', { money: new Decimal('-10'), currency: 'KRW', signed: true }],
    ];
    expect(renderTable(['s', 'p'], rows, { colour: true })).toContain('\x1b[32m');
    expect(renderTable(['s', 'p'], rows, { colour: true })).toContain('\x1b[31m');
    expect(renderTable(['s', 'p'], rows)).not.toContain('\x1b[');
  });

  it('writes CSV with plain numbers and quotes where needed', () => {
    expect(renderCsv(['a', 'b'], [['x,y', { money: new Decimal('1234.5'), currency: 'USD' }]])).toBe(
      'a,b\n"x,y",1234.5',
    );
  });
});
