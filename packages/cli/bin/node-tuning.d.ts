// Types of bin/node-tuning.js, for the TypeScript that imports it (the engine's backtest bench).

/** A command's Node flags and environment variables (an entry of bin/node-settings.json). */
export interface NodeSettings {
  readonly flags: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** A command's settings, `{v8PoolSize}` in a flag replaced by {@link v8PoolSize}'s answer. */
export function nodeSettingsOf(command: string): NodeSettings | undefined;
/** V8's background threads for a process whose main thread is its critical path: cores − 1, 1 to 4. */
export function v8PoolSize(): number;
export function missingFlags(flags: readonly string[]): string[];
export function canReexecute(): boolean;
export function reexecuteWith(settings: NodeSettings, extraEnv?: Readonly<Record<string, string>>): void;
