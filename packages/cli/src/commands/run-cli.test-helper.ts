/**
 * The `hoga` program from its sources, for the `hoga run` integration test (test code only):
 * `node --import tsx run-cli.test-helper.ts run …`, with every command's common flags
 * (`--log-file`, `--verbose`, `--profile`) and the real exit codes.
 */
import '../main.js';
