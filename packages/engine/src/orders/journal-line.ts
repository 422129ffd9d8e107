/**
 * A line of the command journal file as the command row it stands for.
 *
 * @module
 */
import type { CommandParams } from './order-command-tables.js';

/** How every journal line starts (`JSON.stringify` of {@link CommandParams}, its key first). */
const LINE_START = '{"commandId":';

/**
 * A journal line as the command row it stands for. A write cut short (disk full: its create was
 * not sent) leaves part of a line without its newline, and the next append follows it on the same
 * line: the command is the complete one that ends the line (the sequence that starts a line cannot
 * occur inside one, whose strings escape their quotes).
 */
export function journalRow(line: string, index: number, path: string): CommandParams {
  const parse = (text: string): Partial<CommandParams> | null => {
    try {
      return JSON.parse(text) as Partial<CommandParams>;
    } catch {
      return null;
    }
  };
  let row = parse(line);
  const last = line.lastIndexOf(LINE_START);
  if (row === null && last > 0) row = parse(line.slice(last));
  if (row === null || typeof row.commandId !== 'string' || typeof row.clientOrderId !== 'string') {
    throw new Error(
      `the command journal ${path} has a damaged line ${index + 1} (${line.slice(0, 80)}); it is left as it is`,
    );
  }
  return row as CommandParams;
}
