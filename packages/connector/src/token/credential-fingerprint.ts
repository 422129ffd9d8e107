/**
 * Fingerprints of client credentials for the shared token cache: scrypt over the client id and
 * secret with a random salt per cache entry, stored beside the hash. The secret never reaches the
 * cache, and a leaked cache file does not give it away cheaply.
 *
 * @module
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/** The credentials a token is issued to. */
export interface TokenCredentials {
  readonly clientId: string;
  /** Secret: never log or store it. */
  readonly clientSecret: string;
}

/** scrypt cost of new fingerprints (about 16 MiB and a few tens of ms, once per issued token). */
const COST = { N: 16_384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Costs above these in a cache entry are refused rather than computed (a tampered file). */
const MAX_N = 1 << 17;
const MAX_R = 16;
const MAX_P = 4;

function derive(credentials: TokenCredentials, salt: Buffer, cost: ScryptOptions): Promise<Buffer> {
  const input = JSON.stringify([credentials.clientId, credentials.clientSecret]);
  const maxmem = 256 * (cost.N ?? COST.N) * (cost.r ?? COST.r) + 16 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(input, salt, KEY_BYTES, { ...cost, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * A new fingerprint of `credentials` with a fresh random salt:
 * `scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>`.
 *
 * @param credentials - client id and secret
 */
export async function credentialFingerprint(credentials: TokenCredentials): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(credentials, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/**
 * Whether `fingerprint` was made from `credentials`. False for a missing or malformed fingerprint
 * (an entry that proves nothing).
 *
 * @param fingerprint - a fingerprint from {@link credentialFingerprint}, or undefined
 * @param credentials - client id and secret
 */
export async function fingerprintMatches(
  fingerprint: string | undefined,
  credentials: TokenCredentials,
): Promise<boolean> {
  const parts = fingerprint?.split('$') ?? [];
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const valid = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max;
  if (!valid(N, MAX_N) || (N & (N - 1)) !== 0 || N < 2 || !valid(r, MAX_R) || !valid(p, MAX_P)) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (salt.length === 0 || expected.length !== KEY_BYTES) return false;
  const actual = await derive(credentials, salt, { N, r, p });
  return timingSafeEqual(actual, expected);
}
