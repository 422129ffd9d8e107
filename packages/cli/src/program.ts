import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerBrokerCommands } from './commands/broker.js';
import { registerDbCommands } from './commands/db.js';
import { registerSimCommands } from './commands/sim.js';
import { registerStartCommand } from './commands/start.js';

/**
 * Builds the `hoga` command. Each command family lives in its own module under
 * `commands/` and registers itself on the program.
 */
export function createProgram(): Command {
  const program = new Command('hoga')
    .description('Event-driven algorithmic trading engine for the Securities Brokerage Open API')
    .version(cliVersion())
    .showHelpAfterError()
    .enablePositionalOptions();

  registerStartCommand(program);
  registerSimCommands(program);
  registerBrokerCommands(program);
  registerDbCommands(program);
  return program;
}

/** The version of the `hoga` command: the CLI package's own version. */
function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
