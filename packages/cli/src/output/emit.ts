/**
 * Writes a tabular result in the format the user chose: an aligned table (default), `--csv` or
 * `--json`. Rows may arrive from an async source; nothing builds one giant string.
 *
 * @module
 */
import { type Cell, csvText, type OutputFormat, TableWriter, toJson, useColour } from './table.js';

/** What a tabular command produces. */
export interface Tabular<T> {
  readonly headers: readonly string[];
  readonly records: Iterable<T> | AsyncIterable<T>;
  readonly row: (record: T) => readonly Cell[];
  /** JSON of one record (default: the record itself). */
  readonly json?: (record: T) => unknown;
  /** JSON of the whole result when it is not a plain array of records. */
  readonly jsonWhole?: unknown;
  /** A line above the table. */
  readonly title?: string;
  /** Lines below the table. */
  readonly footer?: string;
  /** What to print instead of an empty table. */
  readonly empty?: string;
}

/**
 * Chooses the output format from `--json` and `--csv`.
 *
 * @param flags - the command's flags
 */
export function formatOf(flags: { json?: unknown; csv?: unknown }): OutputFormat {
  return flags.json === true ? 'json' : flags.csv === true ? 'csv' : 'table';
}

/**
 * Writes a tabular result to stdout.
 *
 * @param result - the rows
 * @param format - table, csv or json
 * @param write - where text goes (default stdout)
 */
export async function emit<T>(
  result: Tabular<T>,
  format: OutputFormat,
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<void> {
  if (format === 'json') {
    if (result.jsonWhole !== undefined) {
      write(`${toJson(result.jsonWhole)}\n`);
      return;
    }
    let first = true;
    write('[');
    for await (const record of result.records) {
      const item = toJson(result.json === undefined ? record : result.json(record)).replace(/\n/g, '\n  ');
      write(`${first ? '\n  ' : ',\n  '}${item}`);
      first = false;
    }
    write(first ? ']\n' : '\n]\n');
    return;
  }
  if (format === 'csv') {
    write(`${result.headers.map((h) => csvText(h)).join(',')}\n`);
    for await (const record of result.records) write(`${result.row(record).map(csvText).join(',')}\n`);
    return;
  }
  if (result.title !== undefined) write(`${result.title}\n`);
  const table = new TableWriter(result.headers, write, { colour: useColour() });
  let rows = 0;
  for await (const record of result.records) {
    table.row(result.row(record));
    rows++;
  }
  if (rows === 0 && result.empty !== undefined) {
    write(`${result.empty}\n`);
    return;
  }
  table.end();
  if (result.footer !== undefined) write(`\n${result.footer}\n`);
}
