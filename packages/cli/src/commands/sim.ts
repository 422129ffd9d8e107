import type { Command } from 'commander';

/** Registers the `sim` command family (filled in by its package's issue). */
export function registerSimCommands(_program: Command): void {}
