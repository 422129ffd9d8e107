/**
 * Command output: aligned tables (streamed: the widths come from the first rows, later rows are
 * written as they arrive), CSV and JSON. Numbers are grouped (`66,800`), prices and money use their
 * currency's decimals (`$1,234.56`), and gains and losses are coloured on a terminal only
 * (`NO_COLOR` turns colour off).
 *
 * @module
 */
import { Decimal, formatDecimal } from '@hoga/core';
import { DateTime } from 'luxon';

/** An amount in a currency: KRW with 0 decimals (`66,800`), USD with `$` and 2 (`$1,234.56`). */
export interface MoneyCell {
  readonly money: Decimal;
  readonly currency: string;
  /** Colour the value: green above zero, red below (gains and losses). */
  readonly signed?: boolean;
}

/** A change (P/L, percent) coloured by its sign on a terminal. */
export interface SignedCell {
  readonly signed: string;
  readonly sign: number;
}

/** One table cell. */
export type Cell = string | number | boolean | Decimal | DateTime | MoneyCell | SignedCell | null | undefined;

/** Output format of a tabular command. */
export type OutputFormat = 'table' | 'csv' | 'json';

/** Decimals of each currency. */
const CURRENCY_DECIMALS: Readonly<Record<string, number>> = { KRW: 0, USD: 2 };

function isMoney(value: Cell): value is MoneyCell {
  return typeof value === 'object' && value !== null && 'money' in value;
}

function isSigned(value: Cell): value is SignedCell {
  return typeof value === 'object' && value !== null && 'signed' in value && 'sign' in value;
}

/**
 * A decimal grouped by thousands with at least `minDecimals` decimals (more when it has them).
 *
 * @param value - the number
 * @param minDecimals - decimals always shown
 */
export function groupDecimal(value: Decimal, minDecimals = 0): string {
  const places = Math.max(minDecimals, value.decimalPlaces());
  const fixed = value.abs().toFixed(places);
  const [whole = '0', fraction] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value.isNegative() && !value.isZero() ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/**
 * An amount in its currency's format: `66,800` (KRW), `$1,234.56` (USD).
 *
 * @param amount - the amount
 * @param currency - `KRW`, `USD`
 */
export function formatMoney(amount: Decimal, currency: string): string {
  const text = groupDecimal(amount, CURRENCY_DECIMALS[currency] ?? 0);
  if (currency !== 'USD') return text;
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/**
 * A value as a table shows it.
 *
 * @param value - the cell
 */
export function cellText(value: Cell): string {
  if (value === null || value === undefined) return '-';
  if (value instanceof Decimal) return groupDecimal(value);
  if (value instanceof DateTime) return value.toISO() ?? '-';
  if (isMoney(value)) return formatMoney(value.money, value.currency);
  if (isSigned(value)) return value.signed;
  if (typeof value === 'number') return groupDecimal(new Decimal(value));
  return String(value);
}

/**
 * A value as CSV holds it: plain numbers (no grouping, no currency sign), ISO times.
 *
 * @param value - the cell
 */
export function csvText(value: Cell): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (value instanceof Decimal) text = formatDecimal(value);
  else if (value instanceof DateTime) text = value.toISO() ?? '';
  else if (isMoney(value)) text = formatDecimal(value.money);
  else if (isSigned(value)) text = value.signed;
  else text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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

/** Whether colour is wanted: a terminal, and `NO_COLOR` unset or empty. */
export function useColour(stream: { isTTY?: boolean } = process.stdout, env = process.env): boolean {
  return stream.isTTY === true && (env.NO_COLOR ?? '') === '' && env.TERM !== 'dumb';
}

function colourOf(value: Cell): number {
  if (isSigned(value)) return Math.sign(value.sign);
  if (isMoney(value) && value.signed === true)
    return value.money.isZero() ? 0 : value.money.isNegative() ? -1 : 1;
  return 0;
}

function isNumeric(value: Cell): boolean {
  return value instanceof Decimal || typeof value === 'number' || isMoney(value) || isSigned(value);
}

/** Options of {@link TableWriter}. */
export interface TableOptions {
  /** Colour gains green and losses red. */
  readonly colour?: boolean;
  /** Rows used to size the columns before anything is written (default 200). */
  readonly sizingRows?: number;
}

/**
 * Writes an aligned table row by row. The first `sizingRows` rows are held to size the columns;
 * after that every row is written at once (a longer value widens only its own line).
 */
export class TableWriter {
  private readonly pending: (readonly Cell[])[] = [];
  private widths: number[] | null = null;
  private numeric: boolean[] = [];

  /**
   * @param headers - column titles
   * @param write - receives text (whole lines)
   * @param options - colour and sizing
   */
  constructor(
    private readonly headers: readonly string[],
    private readonly write: (text: string) => void,
    private readonly options: TableOptions = {},
  ) {}

  /** Adds one row. */
  row(cells: readonly Cell[]): void {
    if (this.widths === null) {
      this.pending.push(cells);
      if (this.pending.length >= (this.options.sizingRows ?? 200)) this.flushPending();
      return;
    }
    this.write(`${this.line(cells)}\n`);
  }

  /** Writes what is held (call once at the end). */
  end(): void {
    if (this.widths === null) this.flushPending();
  }

  private flushPending(): void {
    const widths = this.headers.map((h) => displayWidth(h));
    const numeric = this.headers.map(() => this.pending.length > 0);
    for (const cells of this.pending) {
      this.headers.forEach((_, c) => {
        const w = displayWidth(cellText(cells[c]));
        if (w > widths[c]!) widths[c] = w;
        if (!(isNumeric(cells[c]) || cells[c] === null)) numeric[c] = false;
      });
    }
    this.widths = widths;
    this.numeric = numeric;
    const header = this.join(this.headers.map((h, c) => pad(h, widths[c]!, numeric[c]!)));
    const rule = this.join(widths.map((w) => '-'.repeat(w)));
    this.write(`${header}\n${rule}\n`);
    const held = this.pending.splice(0);
    if (held.length > 0) this.write(`${held.map((cells) => this.line(cells)).join('\n')}\n`);
  }

  private line(cells: readonly Cell[]): string {
    return this.join(
      this.headers.map((_, c) => {
        const text = pad(cellText(cells[c]), this.widths![c]!, this.numeric[c] ?? false);
        const sign = this.options.colour === true ? colourOf(cells[c]) : 0;
        return sign > 0 ? `\x1b[32m${text}\x1b[39m` : sign < 0 ? `\x1b[31m${text}\x1b[39m` : text;
      }),
    );
  }

  private join(cells: readonly string[]): string {
    return cells.join('  ').trimEnd();
  }
}

/**
 * Renders rows as an aligned table with a header line; numbers are right-aligned.
 *
 * @param headers - column titles
 * @param rows - one array of cells per row
 * @param options - colour
 */
export function renderTable(
  headers: readonly string[],
  rows: readonly (readonly Cell[])[],
  options: TableOptions = {},
): string {
  const parts: string[] = [];
  const writer = new TableWriter(headers, (text) => parts.push(text), {
    ...options,
    sizingRows: Math.max(1, rows.length + 1),
  });
  for (const row of rows) writer.row(row);
  writer.end();
  return parts.join('').replace(/\n$/, '');
}

/**
 * Renders rows as CSV with a header line.
 *
 * @param headers - column titles
 * @param rows - rows
 */
export function renderCsv(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [headers.map((h) => csvText(h)).join(','), ...rows.map((r) => r.map(csvText).join(','))].join('\n');
}

/**
 * JSON with decimals as strings and date-times as ISO strings; `raw` copies are left out.
 *
 * @param value - anything the connector returns
 * @param indent - spaces (default 2)
 */
export function toJson(value: unknown, indent = 2): string {
  return JSON.stringify(
    value,
    (key, v: unknown) => {
      if (key === 'raw') return undefined;
      if (v instanceof Decimal) return formatDecimal(v);
      if (v instanceof DateTime) return v.toISO();
      return v;
    },
    indent,
  );
}
