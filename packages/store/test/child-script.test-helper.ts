/**
 * The set-up of the store's child-process tests: a temporary folder, and a process script bundled
 * before the file's tests; both removed after them. Test code only.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { bundleScript } from './spawn-child.js';
import { tempDir } from './support.js';

/** A file's temporary folder and its bundled child script. */
export interface ChildScript {
  readonly dir: string;
  /** The bundle's path (set before the file's first test). */
  readonly bundle: string;
}

/** Registers the hooks that bundle `script` and make a folder named `prefix…` for the tests of a file. */
export function useChildScript(script: string, prefix: string): ChildScript {
  const { dir, cleanup } = tempDir(prefix);
  let bundle: string | undefined;
  beforeAll(async () => {
    bundle = await bundleScript(script);
  });
  afterAll(() => {
    cleanup();
    if (bundle !== undefined) rmSync(bundle, { force: true });
  });
  return {
    dir,
    get bundle() {
      if (bundle === undefined) throw new Error(`useChildScript: ${script} is read before the tests run`);
      return bundle;
    },
  };
}
