/**
 * Keyed Brownian motion: a random walk that can be read at any step in O(log n), and Brownian
 * bridges filled in O(n), both without iterating history.
 *
 * @module
 */
import { normal } from './rng.js';

/** Steps covered by {@link brownianAt}: 2^16 days ≈ 179 years from 1970. */
const DEPTH = 16;
const SPAN = 2 ** DEPTH;

/**
 * A standard Brownian motion W on the integers 0..2^16, keyed by `key`, evaluated at `step`
 * by midpoint displacement (W(0) = 0, unit variance per step).
 *
 * @param key - stream key (seed and symbol mixed)
 * @param stream - stream tag (see `Stream`)
 * @param step - integer step in [0, 65536]
 */
export function brownianAt(key: number, stream: number, step: number): number {
  let lo = 0;
  let hi = SPAN;
  let wLo = 0;
  let wHi = Math.sqrt(SPAN) * normal(key, stream, 0, SPAN);
  const target = Math.min(Math.max(Math.trunc(step), 0), SPAN);
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    const wMid = (wLo + wHi) / 2 + Math.sqrt((hi - lo) / 4) * normal(key, stream, lo, hi);
    if (target === mid) return wMid;
    if (target < mid) {
      hi = mid;
      wHi = wMid;
    } else {
      lo = mid;
      wLo = wMid;
    }
  }
  return target === lo ? wLo : wHi;
}

/**
 * Fills `out[start..start+steps]` with a Brownian bridge from `from` to `to` with variance
 * `sigma²` per step (exact conditional variances, midpoint by midpoint).
 *
 * @param out - the array to fill
 * @param start - index of the first point (set to `from`)
 * @param steps - number of steps; `out[start + steps]` is set to `to`
 * @param from - value at the start
 * @param to - value at the end
 * @param sigma - standard deviation per step
 * @param key - stream key
 * @param stream - stream tag
 */
export function fillBridge(
  out: Float64Array,
  start: number,
  steps: number,
  from: number,
  to: number,
  sigma: number,
  key: number,
  stream: number,
): void {
  out[start] = from;
  out[start + steps] = to;
  const fill = (a: number, b: number): void => {
    if (b - a < 2) return;
    const m = (a + b) >>> 1;
    const wa = out[a] ?? 0;
    const wb = out[b] ?? 0;
    const mean = wa + ((wb - wa) * (m - a)) / (b - a);
    const variance = ((m - a) * (b - m)) / (b - a);
    out[m] = mean + sigma * Math.sqrt(variance) * normal(key, stream, a, b);
    fill(a, m);
    fill(m, b);
  };
  fill(start, start + steps);
}
