/**
 * Issue 13 item 12: the connector README's example is this directory's connector-readme.ts word for
 * word, and it works on any day it is run and ends by itself.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;

describe('the connector README example', () => {
  it('is examples/connector-readme.ts word for word', () => {
    const readme = readFileSync(join(here, '..', 'packages', 'connector', 'README.md'), 'utf8');
    const block = /## Example[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBe(readFileSync(join(here, 'connector-readme.ts'), 'utf8'));
  });

  it('shows quotes and a fill, and exits by itself with 0', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'connector-readme.ts'],
      {
        cwd: here,
        timeout: 90_000,
      },
    );
    expect(stdout).toMatch(/^best asks: \d+, \d+, \d+\norder: OrderFilled demo-\S+\n$/);
  }, 120_000);
});
