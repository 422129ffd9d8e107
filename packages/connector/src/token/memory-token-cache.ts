/**
 * A token cache inside one process.
 *
 * @module
 */
import type { CachedToken, TokenCache } from '@hoga/core';

/** In-memory {@link TokenCache}; its lock serializes callers of this process only. */
export class MemoryTokenCache implements TokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly locks = new Map<string, Promise<void>>();

  /** @inheritdoc */
  async read(key: string): Promise<CachedToken | null> {
    return this.tokens.get(key) ?? null;
  }

  /** @inheritdoc */
  async write(key: string, token: CachedToken): Promise<void> {
    this.tokens.set(key, token);
  }

  /** @inheritdoc */
  async delete(key: string): Promise<void> {
    this.tokens.delete(key);
  }

  /** @inheritdoc */
  async lock(key: string, _ttlMs: number): Promise<() => Promise<void>> {
    for (;;) {
      const held = this.locks.get(key);
      if (held === undefined) break;
      await held;
    }
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.locks.set(key, done);
    return async () => {
      if (this.locks.get(key) === done) this.locks.delete(key);
      release();
    };
  }
}
