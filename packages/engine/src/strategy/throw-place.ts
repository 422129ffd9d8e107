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

/**
 * Where hoga's own code is: the `packages` directory above this module (its sources, or the CLI's
 * bundle in `packages/cli/dist`), else this module's directory (an installed package: under
 * `node_modules`, left out anyway).
 */
const HOGA = ((): string => {
  const here = dirname(fileURLToPath(import.meta.url));
  const at = here.lastIndexOf(`${sep}packages${sep}`);
  return at < 0 ? here + sep : here.slice(0, at + `${sep}packages${sep}`.length);
})();

/** A frame's `file:line:column` (the file a path or a `file:` URL), from a stack line. */
const FRAME = /\(?((?:file:\/\/)?\/[^()]*?):(\d+):(\d+)\)?$/;

/** The strategy's own frame of a stack: its index among the stack's frames (deepest first) and place. */
interface OwnFrame {
  readonly index: number;
  readonly path: string;
  /** `line:column`. */
  readonly at: string;
}

/**
 * The first frame of `error`'s stack in the strategy's file or in a file of its directory outside
 * `node_modules` and hoga's sources (a module of its own beside it): not a library it called, nor
 * hoga. Undefined when there is no such frame (or the class was not loaded from a file).
 */
function ownFrame(error: unknown, strategyClass: object): OwnFrame | undefined {
  const file = FILES.get(strategyClass);
  return file === undefined ? undefined : frameIn(error, file);
}

/** {@link ownFrame} for the strategy file `file` (an absolute path). */
function frameIn(error: unknown, file: string): OwnFrame | undefined {
  const stack = error instanceof Error ? error.stack : undefined;
  if (stack === undefined) return undefined;
  const home = dirname(file) + sep;
  let index = 0;
  for (const line of stack.split('\n').slice(1)) {
    const m = FRAME.exec(line.trim());
    if (m === null) continue;
    const path = m[1]?.startsWith('file:') ? fileURLToPath(m[1]) : (m[1] as string);
    // the deepest frame of the strategy's own code: its file, or a module of its own beside it (not
    // hoga's sources, should the strategy sit above them, at the repository's root)
    if (
      path === file ||
      (path.startsWith(home) && !path.includes(`${sep}node_modules${sep}`) && !path.startsWith(HOGA))
    ) {
      return { index, path, at: `${m[2]}:${m[3]}` };
    }
    index++;
  }
  return undefined;
}

/**
 * ` (at strategies/mine.ts:12:7)`: the first frame of `error`'s stack in the strategy's own code
 * (its file or a module of its own beside it: not a library it called, nor hoga). The path is
 * relative to `cwd` when under it; empty when there is no such frame (or the class was not loaded
 * from a file).
 *
 * @param error - what the hook threw
 * @param strategyClass - the strategy's class
 */
export function throwPlace(error: unknown, strategyClass: object, cwd: string = process.cwd()): string {
  return shownPlace(ownFrame(error, strategyClass), cwd);
}

/**
 * {@link throwPlace} for an error the strategy file's own top-level code threw while it was loaded
 * (before its class exists): ` (at strategies/mine.ts:4:9)`, or empty.
 *
 * @param error - what the import threw
 * @param file - the strategy file, an absolute path
 */
export function loadPlace(error: unknown, file: string, cwd: string = process.cwd()): string {
  return shownPlace(frameIn(error, file), cwd);
}

function shownPlace(frame: OwnFrame | undefined, cwd: string): string {
  if (frame === undefined) return '';
  const shown = relative(cwd, frame.path);
  return ` (at ${shown.startsWith('..') || isAbsolute(shown) ? frame.path : shown}:${frame.at})`;
}

/**
 * How deep in `error`'s stack the strategy's own code is (as {@link throwPlace} finds it): the index
 * of that frame, 0 the deepest; -1 when no frame is its own. Of several strategies, the one with the
 * lowest index is the one whose code the error came from.
 *
 * @param error - what was thrown or rejected
 * @param strategyClass - the strategy's class
 */
export function strategyFrameDepth(error: unknown, strategyClass: object): number {
  return ownFrame(error, strategyClass)?.index ?? -1;
}
