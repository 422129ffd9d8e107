import { describe, expect, it } from 'vitest';
import { tokenCacheKey } from './token-cache.js';

describe('tokenCacheKey', () => {
  it('joins base URL and client id with a bar', () => {
    expect(tokenCacheKey('http://127.0.0.1:18080', 'sim-client')).toBe('http://127.0.0.1:18080|sim-client');
  });
});
