/**
 * A token cache in a JSON file shared by processes on one machine: mode 0600, written atomically
 * (temporary file + rename) under an exclusive lock, with cross-process leases per key.
 *
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CachedToken, TokenCache } from '@hoga/core';
import lockfile from 'proper-lockfile';
import { ConnectorError } from '../errors.js';

// proper-lockfile loads signal-exit, which listens to SIGXFSZ and, when it is the only listener,
// ends the process with it: a write past a file-size limit (`ulimit -f`, systemd's LimitFSIZE),
// which Node otherwise ignores so that the write fails with EFBIG, then killed hoga a tick later
// (a run whose store write failed, instead of its own handling of the failure). A listener of ours
// keeps Node's behaviour.
process.on('SIGXFSZ', () => undefined);

type Store = Record<string, CachedToken>;

function isCachedToken(value: unknown): value is CachedToken {
  if (typeof value !== 'object' || value === null) return false;
  const t = value as Record<string, unknown>;
  return (
    typeof t.accessToken === 'string' &&
    typeof t.tokenType === 'string' &&
    typeof t.expiresAt === 'number' &&
    typeof t.issuedAt === 'number' &&
    (t.credentialFingerprint === undefined || typeof t.credentialFingerprint === 'string')
  );
}

function isAccountSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * Reads the cache file and, when group or others may read or write it (a copy, a restored backup,
 * a file made by hand), makes it 0600 first: the documented mode holds from the first read on,
 * not from the next write. A file that is not the user's own is read as it is (chmod is theirs);
 * a path that is no regular file keeps its mode.
 */
async function readPrivately(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const stat = await handle.stat();
    // only a file is made private: a directory given by mistake keeps its mode (before,
    // HOGA_TOKEN_FILE=/tmp made /tmp 0600); reading it then fails EISDIR
    if (stat.isFile() && (stat.mode & 0o077) !== 0) await handle.chmod(0o600).catch(() => undefined);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Words for the usual reasons the cache file cannot be read. */
const REASONS: Readonly<Record<string, string>> = {
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of its path is a file',
  EACCES: 'permission denied',
  EIO: 'input/output error',
};

/** Retry settings for taking a lock held by another process (about 30 s in total). */
const LOCK_RETRIES = { retries: 300, factor: 1, minTimeout: 25, maxTimeout: 100 } as const;

/** {@link TokenCache} backed by one JSON file (mode 0600). */
export class FileTokenCache implements TokenCache {
  /** @param path - the cache file; created on first write together with its directory (mode 0700) */
  constructor(private readonly path: string) {}

  /** @inheritdoc */
  async read(key: string): Promise<CachedToken | null> {
    const token = (await this.load())[key];
    if (token === undefined || !isCachedToken(token)) return null;
    // a remembered account that is no account number (a file edited by hand) is left out: the
    // client asks the broker for one again
    if (token.accountSeq === undefined || isAccountSeq(token.accountSeq)) return token;
    const { accountSeq: _, ...rest } = token;
    return rest;
  }

  /** @inheritdoc */
  async write(key: string, token: CachedToken): Promise<void> {
    await this.update((store) => {
      store[key] = token;
    });
  }

  /** @inheritdoc */
  async delete(key: string): Promise<void> {
    await this.update((store) => {
      delete store[key];
    });
  }

  /** @inheritdoc */
  async lock(key: string, ttlMs: number): Promise<() => Promise<void>> {
    const digest = createHash('sha256').update(key).digest('hex').slice(0, 16);
    return this.acquire(`${this.path}.${digest}`, ttlMs);
  }

  private async acquire(target: string, ttlMs: number): Promise<() => Promise<void>> {
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    try {
      const release = await lockfile.lock(target, {
        realpath: false,
        stale: Math.max(ttlMs, 5_000),
        update: Math.max(1_000, Math.floor(Math.max(ttlMs, 5_000) / 2)),
        retries: LOCK_RETRIES,
      });
      return async () => {
        await release().catch(() => undefined);
      };
    } catch (error) {
      throw new ConnectorError('token-cache-lock', `could not lock the token cache ${target}`, {
        cause: error,
      });
    }
  }

  private async load(): Promise<Store> {
    let text: string;
    try {
      text = await readPrivately(this.path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return {};
      const why =
        code === undefined ? '' : `: ${code}${REASONS[code] === undefined ? '' : `: ${REASONS[code]}`}`;
      throw new ConnectorError('token-cache-read', `could not read the token cache ${this.path}${why}`, {
        cause: error,
      });
    }
    try {
      const parsed: unknown = JSON.parse(text);
      // an array (a file emptied by hand as `[]`) is no store: a key set on it is lost by JSON.stringify
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Store) : {};
    } catch {
      // A corrupt cache only costs one token issue; start afresh.
      return {};
    }
  }

  private async update(change: (store: Store) => void): Promise<void> {
    const release = await this.acquire(`${this.path}.write`, 10_000);
    try {
      const store = await this.load();
      change(store);
      const tmp = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(tmp, JSON.stringify(store), { mode: 0o600 });
        await chmod(tmp, 0o600);
        await rename(tmp, this.path);
      } catch (error) {
        // a write that failed (a full disk) leaves no copy of the tokens behind
        await rm(tmp, { force: true }).catch(() => undefined);
        throw error;
      }
      await this.removeLeftCopies();
    } finally {
      await release();
    }
  }

  /**
   * Removes the temporary copies a writer killed between its write and its rename left beside the
   * file (`tokens.json.<12 hex>.tmp`): each holds tokens, and nothing else would ever remove them.
   * Called under the write lock, so no live writer's copy is among them.
   */
  private async removeLeftCopies(): Promise<void> {
    const dir = dirname(this.path);
    const name = basename(this.path);
    let entries: string[];
    try {
      entries = await readdir(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.length !== name.length + 17 || !entry.startsWith(`${name}.`)) continue;
      if (!/^[0-9a-f]{12}\.tmp$/.test(entry.slice(name.length + 1))) continue;
      await rm(join(dir, entry), { force: true }).catch(() => undefined);
    }
  }
}
