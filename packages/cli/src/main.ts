/** Entry point of the `hoga` command (run through tsx; see bin/hoga.js). */
import { createProgram } from './program.js';

await createProgram().parseAsync(process.argv);
