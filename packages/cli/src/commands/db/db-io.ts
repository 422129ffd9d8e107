/**
 * Output of the `hoga db` commands, injectable for tests.
 *
 * @module
 */
import { renderCsv } from '../../output/table.js';
import { codeOfExit, writeFailure } from '../../runtime/failure-output.js';

/** Where the `db` commands write, and how they report failure. */
export interface DbCommandIo {
  /** Writes one chunk of standard output. */
  readonly out: (text: string) => void;
  /** Writes one chunk of standard error. */
  readonly err: (text: string) => void;
  /** Sets the process exit code. */
  readonly fail: (code: number) => void;
  /**
   * Reports a failure and sets the exit code: `hoga db: <line>` per line on stderr, or one line of
   * JSON under `--json` (the first line its message, the others its details).
   */
  readonly failure: (lines: readonly string[], exitCode: number, options?: FailureOptions) => void;
}

/** How a `db` failure is shown: its code for scripts (default from the exit code), the text's prefix. */
export interface FailureOptions {
  readonly code?: string;
  /** Default `hoga db`. */
  readonly prefix?: string;
}

/**
 * An io whose {@link DbCommandIo.failure} writes through its own `err` and `fail` (text, or JSON
 * under `--json`: `runtime/failure-output.ts` decides).
 */
export function withFailure(io: Omit<DbCommandIo, 'failure'>): DbCommandIo {
  return {
    ...io,
    failure: (lines, exitCode, options = {}) =>
      io.fail(
        writeFailure(
          { code: options.code ?? codeOfExit(exitCode), lines, exitCode },
          { prefix: options.prefix ?? 'hoga db', prefixEvery: true, write: io.err },
        ),
      ),
  };
}

/** The process's own streams and exit code. */
export const processIo: DbCommandIo = withFailure({
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  fail: (code) => {
    process.exitCode = code;
  },
});

/**
 * Lays out rows as left-aligned columns separated by two spaces, with a header line.
 *
 * @param header - column titles
 * @param rows - cells, as text
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

/**
 * Rows as the listing commands print them: a table ({@link formatTable}), or CSV with `--csv` (the
 * same columns and cells). No rows: the table is `none` (a header alone read as a listing gone
 * wrong); CSV keeps its header.
 *
 * @param header - column titles
 * @param rows - cells, as text
 * @param flags - `csv: true` for CSV
 * @param none - what the table says when there are no rows (`no runs in <file>`)
 */
export function formatRows(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  flags: { readonly csv?: boolean | undefined },
  none: string,
): string {
  if (flags.csv === true) return `${renderCsv(header, rows)}\n`;
  return rows.length === 0 ? `${none}\n` : formatTable(header, rows);
}
