/**
 * Plain-text tables and JSON for command output.
 *
 * @module
 */
import { Decimal, formatDecimal } from '@hoga/core';
import { DateTime } from 'luxon';

/** One table cell: text, a number, a decimal, a date-time, or nothing. */
export type Cell = string | number | boolean | Decimal | DateTime | null | undefined;

/**
 * A value as a table shows it: decimals in plain notation, date-times in ISO with their offset,
 * nothing as `-`.
 *
 * @param value - the cell
 */
export function cellText(value: Cell): string {
  if (value === null || value === undefined) return '-';
  if (value instanceof Decimal) return formatDecimal(value);
  if (value instanceof DateTime) return value.toISO() ?? '-';
  return String(value);
}

/** East Asian wide characters (Hangul, CJK, full-width forms) take two terminal columns. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/**
 * Columns a string takes in a terminal.
 *
 * @param text - the string
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += WIDE.test(ch) ? 2 : 1;
  return width;
}

function pad(text: string, width: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return right ? fill + text : text + fill;
}

/**
 * Renders rows as an aligned table with a header line; numbers are right-aligned.
 *
 * @param headers - column titles
 * @param rows - one array of cells per row
 */
export function renderTable(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const text = rows.map((row) => row.map(cellText));
  const numeric = headers.map(
    (_, c) =>
      rows.length > 0 &&
      rows.every((r) => r[c] instanceof Decimal || typeof r[c] === 'number' || r[c] === null),
  );
  const widths = headers.map((h, c) =>
    Math.max(displayWidth(h), ...text.map((r) => displayWidth(r[c] ?? ''))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => pad(cell, widths[c]!, numeric[c] ?? false))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...text.map(line)].join('\n');
}

/**
 * JSON with decimals as strings and date-times as ISO strings; `raw` copies are left out.
 *
 * @param value - anything the connector returns
 */
export function toJson(value: unknown): string {
  return JSON.stringify(
    value,
    (key, v: unknown) => {
      if (key === 'raw') return undefined;
      if (v instanceof Decimal) return formatDecimal(v);
      if (v instanceof DateTime) return v.toISO();
      return v;
    },
    2,
  );
}
