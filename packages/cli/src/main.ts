/** Entry point of the `hoga` command (see bin/hoga.js). */
import { runCli } from './run-cli.js';
import { cliRuntime } from './runtime/cli-runtime.js';

const code = await runCli(process.argv);
process.exitCode = code;
if (cliRuntime.endWhenDone) {
  // what the command wrote goes out first (a pipe may take it asynchronously), then the process
  // ends, whatever timers the strategies left running
  await new Promise<void>((done) => process.stdout.write('', () => done()));
  await new Promise<void>((done) => process.stderr.write('', () => done()));
  process.exit(code);
}
