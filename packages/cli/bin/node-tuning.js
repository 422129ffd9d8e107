// Re-executing a process in place with the Node flags and environment a hoga command runs with
// (bin/node-settings.json): used by bin/hoga.js for the commands it tunes, and by the engine's
// backtest bench, which runs as `hoga backtest` runs. Types: node-tuning.d.ts.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * V8's background threads (its optimising compiler's and collector's helpers) for a process whose
 * main thread is its critical path: one core left to it, the others to them, at most Node's own 4.
 */
export const v8PoolSize = () => Math.min(4, Math.max(1, availableParallelism() - 1));

/** What a flag's `{v8PoolSize}` stands for ({@link v8PoolSize}). */
const resolve = (flag) => flag.replace('{v8PoolSize}', String(v8PoolSize()));

/** The settings of `command` in bin/node-settings.json, or undefined when it has none. */
export function nodeSettingsOf(command) {
  const all = JSON.parse(readFileSync(new URL('./node-settings.json', import.meta.url), 'utf8'));
  if (!Object.hasOwn(all, command)) return undefined;
  const settings = all[command];
  return { ...settings, flags: settings.flags.map(resolve) };
}

/** A flag's name as V8 reads it: `--max_semi_space_size=4` and `--max-semi-space-size` are one flag. */
const flagName = (arg) => arg.split('=')[0].replaceAll('_', '-');

/**
 * Those of `flags` this process was not started with, by name, in its own arguments
 * (`process.execArgv`) or in `NODE_OPTIONS`: a value the user chose is kept.
 */
export function missingFlags(flags) {
  const given = new Set(
    [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].filter(Boolean).map(flagName),
  );
  return flags.filter((flag) => !given.has(flagName(flag)));
}

/** Whether this Node can re-execute a process in place (`process.execve`: Node 22.15+ / 23.11+). */
export const canReexecute = () => typeof process.execve === 'function';

/**
 * Re-executes this process once, in place (the same pid, so signals and a supervisor see one
 * process), with `settings`' flags it lacks ({@link missingFlags}) and its environment variables
 * that are not set yet, plus `extraEnv`. Does not return when it succeeds; throws when it cannot.
 */
export function reexecuteWith(settings, extraEnv = {}) {
  const env = { ...process.env, ...extraEnv };
  for (const [name, value] of Object.entries(settings.env)) env[name] ??= value;
  process.execve(
    process.execPath,
    [process.execPath, ...process.execArgv, ...missingFlags(settings.flags), ...process.argv.slice(1)],
    env,
  );
}
