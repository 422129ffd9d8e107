import type { Command } from 'commander';

/** Registers the `db` command family (filled in by its package's issue). */
export function registerDbCommands(_program: Command): void {}
