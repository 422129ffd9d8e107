/**
 * Where a strategy's hook threw, in the strategy's own file: the place a strategy's author looks
 * for first, named in the one line a failed run reports (the whole stack is in `--verbose`).
 *
 * @module
 */
import { dirname, isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The file each class was loaded from (see `loadStrategyClass`). */
const FILES = new WeakMap<object, string>();

/** Notes the file a strategy class was loaded from (an absolute path). */
export function noteStrategyFile(strategyClass: object, file: string): void {
  FILES.set(strategyClass, file);
}

/** A frame's `file:line:column` (the file a path or a `file:` URL), from a stack line. */
const FRAME = /\(?((?:file:\/\/)?\/[^()]*?):(\d+):(\d+)\)?$/;

/**
 * ` (at strategies/mine.ts:12:7)`: the first frame of `error`'s stack in a file of the strategy's
 * directory outside `node_modules` (the strategy's file, or a module of its own beside it: not a
 * library it called, nor hoga), the path relative to `cwd` when under it; empty when there is
 * none (a class not loaded from a file, an error with no such frame).
 *
 * @param error - what the hook threw
 * @param strategyClass - the strategy's class
 */
export function throwPlace(error: unknown, strategyClass: object, cwd: string = process.cwd()): string {
  const file = FILES.get(strategyClass);
  const stack = error instanceof Error ? error.stack : undefined;
  if (file === undefined || stack === undefined) return '';
  const home = dirname(file) + sep;
  for (const line of stack.split('\n').slice(1)) {
    const m = FRAME.exec(line.trim());
    if (m === null) continue;
    const path = m[1]?.startsWith('file:') ? fileURLToPath(m[1]) : (m[1] as string);
    if (!path.startsWith(home) || path.includes(`${sep}node_modules${sep}`)) continue;
    const shown = relative(cwd, path);
    return ` (at ${shown.startsWith('..') || isAbsolute(shown) ? path : shown}:${m[2]}:${m[3]})`;
  }
  return '';
}
