import type { Command } from 'commander';

/** Registers the `broker` command family (filled in by its package's issue). */
export function registerBrokerCommands(_program: Command): void {}
