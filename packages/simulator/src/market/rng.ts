/**
 * Stateless seeded randomness: every draw is a pure function of integer keys, so any instant of
 * the simulated market can be evaluated without replaying history.
 *
 * @module
 */

/** Mixes one 32-bit integer into a hash state (murmur3-style). */
function mix(h: number, k: number): number {
  let x = Math.imul(k | 0, 0xcc9e2d51);
  x = (x << 15) | (x >>> 17);
  x = Math.imul(x, 0x1b873593);
  let y = (h ^ x) | 0;
  y = (y << 13) | (y >>> 19);
  return (Math.imul(y, 5) + 0xe6546b64) | 0;
}

/** Final avalanche of a hash state. */
function finish(h: number): number {
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/**
 * A 32-bit hash of up to five integer keys.
 *
 * @param a - first key (usually the stream seed)
 * @returns an unsigned 32-bit integer
 */
export function hash32(a: number, b = 0, c = 0, d = 0, e = 0): number {
  let h = mix(0x9747b28c, a);
  h = mix(h, b);
  h = mix(h, c);
  h = mix(h, d);
  h = mix(h, e);
  return finish(h ^ 20);
}

/** A 32-bit hash of a string (FNV-1a), to turn symbols into integer keys. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A uniform draw in [0, 1) keyed by integers. */
export function uniform(a: number, b = 0, c = 0, d = 0, e = 0): number {
  return hash32(a, b, c, d, e) / 4294967296;
}

/** A standard normal draw keyed by integers (Box–Muller on two keyed uniforms). */
export function normal(a: number, b = 0, c = 0, d = 0, e = 0): number {
  const u1 = (hash32(a, b, c, d, e) + 1) / 4294967297;
  const u2 = hash32(a ^ 0x5bd1e995, b, c, d, e) / 4294967296;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** Stream tags: keep draws for different purposes independent. */
export const Stream = {
  DAILY: 1,
  BRIDGE: 2,
  GAP: 3,
  AFTER: 4,
  TRADE_COUNT: 5,
  TRADE_TIME: 6,
  TRADE_PRICE: 7,
  TRADE_VOLUME: 8,
  DAILY_VOLUME: 9,
  BOOK: 10,
  FX: 11,
  LEVEL: 12,
} as const;
