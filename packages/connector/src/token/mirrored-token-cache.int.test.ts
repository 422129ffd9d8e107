import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CachedToken } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { FileTokenCache } from './file-token-cache.js';
import { MemoryTokenCache } from './memory-token-cache.js';
import { MirroredTokenCache } from './mirrored-token-cache.js';

const token = (accessToken: string, issuedAt: number): CachedToken => ({
  accessToken,
  tokenType: 'Bearer',
  issuedAt,
  expiresAt: issuedAt + 3_600_000,
});
const tempFile = () => join(mkdtempSync(join(tmpdir(), 'hoga-mirror-')), 'tokens.json');

describe('MirroredTokenCache', () => {
  describe('.read', () => {
    it('answers the most recently issued entry among its caches', async () => {
      const file = new FileTokenCache(tempFile());
      const memory = new MemoryTokenCache();
      const mirror = new MirroredTokenCache([file, memory]);
      expect(await mirror.read('k')).toBeNull();
      await memory.write('k', token('old', 1_000));
      expect((await mirror.read('k'))?.accessToken).toBe('old');
      await file.write('k', token('new', 2_000));
      expect((await mirror.read('k'))?.accessToken).toBe('new');
    });
  });

  describe('.write', () => {
    it('writes and deletes in every cache', async () => {
      const path = tempFile();
      const memory = new MemoryTokenCache();
      const mirror = new MirroredTokenCache([new FileTokenCache(path), memory]);
      await mirror.write('k', token('t', 1));
      expect((await new FileTokenCache(path).read('k'))?.accessToken).toBe('t');
      expect((await memory.read('k'))?.accessToken).toBe('t');
      await mirror.delete('k');
      expect([await new FileTokenCache(path).read('k'), await memory.read('k')]).toEqual([null, null]);
    });
  });

  describe('.lock', () => {
    it('excludes a holder of the first cache alone, and releases every lock', async () => {
      const path = tempFile();
      const mirror = new MirroredTokenCache([new FileTokenCache(path), new MemoryTokenCache()]);
      const order: string[] = [];
      const release = await mirror.lock('k', 5_000);
      const fileOnly = new FileTokenCache(path).lock('k', 5_000).then((done) => {
        order.push('file-only holder');
        return done;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      order.push('mirror releases');
      await release();
      await (await fileOnly)();
      expect(order).toEqual(['mirror releases', 'file-only holder']);
      await (await mirror.lock('k', 5_000))();
    });
  });

  it('refuses to be built on no cache', () => {
    expect(() => new MirroredTokenCache([])).toThrow(RangeError);
  });
});
