import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeMarkdown, renderCliReference } from './cli-reference.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');

describe('docs/cli.md', () => {
  it('is current: regenerate it with pnpm docs:cli', () => {
    expect(readFileSync(join(root, 'docs', 'cli.md'), 'utf8')).toBe(renderCliReference());
  });

  it('the README shows the same exit-code table', () => {
    // The README is formatted by Biome, which pads table cells: compare with the padding removed.
    const unpadded = (text: string) => text.replace(/ {2,}/g, ' ').replace(/-{3,}/g, '---');
    expect(unpadded(readFileSync(join(root, 'README.md'), 'utf8'))).toContain(unpadded(exitCodeMarkdown()));
  });
});
