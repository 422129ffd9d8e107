import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileTokenCache } from './file-token-cache.js';

const token = (accessToken: string) => ({ accessToken, tokenType: 'Bearer', issuedAt: 1, expiresAt: 2 });
const tempFile = () => join(mkdtempSync(join(tmpdir(), 'hoga-token-')), 'nested', 'tokens.json');

describe('FileTokenCache', () => {
  describe('.write', () => {
    it('stores tokens per key in a file of mode 0600', async () => {
      const path = tempFile();
      const cache = new FileTokenCache(path);
      await cache.write('a|1', token('x'));
      await cache.write('b|2', token('y'));
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(await cache.read('a|1')).toEqual(token('x'));
      expect(await new FileTokenCache(path).read('b|2')).toEqual(token('y'));
    });

    it.each(['[]', '["x"]', '42', '"text"'])(
      'keeps a token written over a file holding %s (JSON but no object: else every process issued anew)',
      async (content) => {
        const path = tempFile();
        await new FileTokenCache(path).write('warm-up', token('w'));
        writeFileSync(path, content);
        await new FileTokenCache(path).write('a|1', token('x'));
        expect(await new FileTokenCache(path).read('a|1')).toEqual(token('x'));
      },
    );

    it("removes the temporary copy a writer killed before its rename left (it holds that writer's tokens)", async () => {
      const path = tempFile();
      const cache = new FileTokenCache(path);
      await cache.write('a|1', token('x'));
      // what a process killed between its write and its rename leaves beside the file
      const left = `${path}.0123456789ab.tmp`;
      writeFileSync(left, JSON.stringify({ 'a|1': token('old') }), { mode: 0o600 });
      const unrelated = join(dirname(path), 'notes.tmp');
      writeFileSync(unrelated, 'mine');
      await cache.write('b|2', token('y'));
      expect(readdirSync(dirname(path)).filter((f) => f.endsWith('.tmp'))).toEqual(['notes.tmp']);
      expect(await cache.read('b|2')).toEqual(token('y'));
    });

    it('keeps every write of concurrent writers (read-modify-write under a lock)', async () => {
      const path = tempFile();
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => new FileTokenCache(path).write(`k${i}`, token(`t${i}`))),
      );
      expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')))).toHaveLength(10);
    });
  });

  describe('.read', () => {
    it('answers null for a missing file or key', async () => {
      const cache = new FileTokenCache(tempFile());
      expect(await cache.read('none')).toBeNull();
      await cache.write('k', token('t'));
      await cache.delete('k');
      expect(await cache.read('k')).toBeNull();
    });

    it('keeps the remembered account, and leaves out one that is no account number', async () => {
      const path = tempFile();
      const cache = new FileTokenCache(path);
      await cache.write('k', { ...token('t'), accountSeq: 2 });
      expect(await cache.read('k')).toEqual({ ...token('t'), accountSeq: 2 });
      // a file edited by hand: the token is still used, the account is asked of the broker again
      writeFileSync(path, JSON.stringify({ k: { ...token('t'), accountSeq: 'two' } }));
      expect(await cache.read('k')).toEqual(token('t'));
    });
  });

  // Before: "could not read the token cache /tmp/x", with nothing of why (the reason was in the
  // error's cause only, which the CLI does not print without -v).
  it('says why a path that is no file cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-token-dir-'));
    const error = await new FileTokenCache(dir).read('a|1').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'token-cache-read' });
    expect((error as Error).message).toBe(`could not read the token cache ${dir}: EISDIR: it is a directory`);
  });

  // Before: the read opened the directory, saw group and others may read it and made it 0600 (a
  // HOGA_TOKEN_FILE=/tmp by mistake left /tmp drw------- for every other user of the machine).
  it('leaves the mode of a path that is no file as it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoga-token-dir-'));
    chmodSync(dir, 0o755);
    await expect(new FileTokenCache(dir).read('a|1')).rejects.toMatchObject({ code: 'token-cache-read' });
    expect(statSync(dir).mode & 0o7777).toBe(0o755);
  });

  describe('.lock', () => {
    it('lets one holder at a time hold a key', async () => {
      const path = tempFile();
      const order: string[] = [];
      const hold = async (name: string) => {
        const release = await new FileTokenCache(path).lock('key', 5_000);
        order.push(`${name}+`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        order.push(`${name}-`);
        await release();
      };
      await Promise.all([hold('a'), hold('b')]);
      expect(
        [order.slice(0, 2), order.slice(2)].map((pair) => pair[0]!.slice(0, 1) === pair[1]!.slice(0, 1)),
      ).toEqual([true, true]);
    });
  });
});
