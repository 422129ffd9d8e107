/** Entry point of the `hoga` command (see bin/hoga.js). */
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv);
