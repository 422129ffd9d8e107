/**
 * A `hoga` program with only the `run` and `db` commands, for the `hoga run` integration test
 * (test code only): `node --import tsx run-cli.test-helper.ts run …`.
 */
import { Command } from 'commander';
import { registerDbCommands } from './db.js';
import { registerRunCommand } from './run.js';

const program = new Command('hoga').enablePositionalOptions();
registerRunCommand(program);
registerDbCommands(program);
await program.parseAsync(process.argv);
