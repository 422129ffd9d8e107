/**
 * A `hoga` program with only the `backtest` command, for its integration tests (test code only):
 * `node --import tsx backtest-cli.test-helper.ts backtest …`. Failures are reported as `hoga`
 * reports them (one or two sentences on stderr and the exit code of the table).
 */
import { Command } from 'commander';
import { describeError } from '../runtime/describe-error.js';
import { registerBacktestCommand } from './backtest.js';

const program = new Command('hoga').enablePositionalOptions().exitOverride();
registerBacktestCommand(program);
try {
  await program.parseAsync(process.argv);
} catch (error) {
  const report = describeError(error);
  const [first, ...rest] = report.lines;
  process.stderr.write(`hoga: ${first}\n${rest.map((line) => `${line}\n`).join('')}`);
  process.exitCode = report.exitCode;
}
