// Types of bin/node-tuning.js, for the TypeScript that imports it (the engine's backtest bench).

/** A command's Node flags and environment variables (an entry of bin/node-settings.json). */
export interface NodeSettings {
  readonly flags: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export function nodeSettingsOf(command: string): NodeSettings | undefined;
export function missingFlags(flags: readonly string[]): string[];
export function canReexecute(): boolean;
export function reexecuteWith(settings: NodeSettings, extraEnv?: Readonly<Record<string, string>>): void;
