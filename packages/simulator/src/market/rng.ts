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

/** Acklam's rational approximation of the standard normal quantile function. */
function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const [a0, a1, a2, a3, a4, a5] = a as [number, number, number, number, number, number];
  const [b0, b1, b2, b3, b4] = b as [number, number, number, number, number];
  const [c0, c1, c2, c3, c4, c5] = c as [number, number, number, number, number, number];
  const [d0, d1, d2, d3] = d as [number, number, number, number];
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) /
      ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
    );
  }
  if (p > 1 - 0.02425) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) /
    (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1)
  );
}

const NORMAL_BITS = 16;
/**
 * Standard normal quantiles at the midpoints of 2^16 equal-probability cells, made at the first
 * draw (about 70 ms of a core): a process that only loads the simulator (every `hoga` command's
 * start) does not pay for them.
 */
let normalTable: Float64Array | null = null;

function makeNormalTable(): Float64Array {
  const n = 2 ** NORMAL_BITS;
  const table = new Float64Array(n);
  for (let i = 0; i < n; i++) table[i] = normalQuantile((i + 0.5) / n);
  normalTable = table;
  return table;
}

/**
 * A standard normal draw keyed by integers: the quantile of one keyed 16-bit cell, by table
 * lookup (tails end near ±4.4σ, which suits a market simulation).
 */
export function normal(a: number, b = 0, c = 0, d = 0, e = 0): number {
  const table = normalTable ?? makeNormalTable();
  return table[hash32(a, b, c, d, e) >>> (32 - NORMAL_BITS)] ?? 0;
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
