/** Writes docs/cli.md from the program's `--help` texts (`pnpm docs:cli`). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCliReference } from '../src/reference/cli-reference.js';

const file = join(import.meta.dirname, '..', '..', '..', 'docs', 'cli.md');
writeFileSync(file, renderCliReference());
console.log(`wrote ${file}`);
