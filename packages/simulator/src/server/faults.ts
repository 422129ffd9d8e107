import { z } from 'zod';

/** Kinds of injectable faults. */
export const FaultKind = {
  /** Answer 500 `internal-error` instead of handling. */
  INTERNAL_ERROR: 'internal-error',
  /** Answer 500 `maintenance` instead of handling. */
  MAINTENANCE: 'maintenance',
  /** Wait `delayMs` (real time) before handling. */
  DELAY: 'delay',
  /** Handle the request (commit it), then destroy the socket without answering. */
  DROP_AFTER_COMMIT: 'drop-after-commit',
  /**
   * Handle the request (commit it), then hold the answer back for `delayMs`
   * (real time, default 1000) before sending it: a poll in between sees the
   * committed state before the client reads the answer.
   */
  DELAY_AFTER_COMMIT: 'delay-after-commit',
  /** Handle the request, then answer 200 with a truncated, invalid JSON body. */
  MALFORMED_BODY: 'malformed-body',
  /** Answer 429 `rate-limit-exceeded` whatever the buckets say. */
  RATE_LIMIT_BURST: 'rate-limit-burst',
  /** Answer 429 `edge-rate-limit-exceeded` (the edge's own limit) whatever the buckets say. */
  EDGE_RATE_LIMIT_BURST: 'edge-rate-limit-burst',
  /** Keep an order create/modify/cancel in progress for `delayMs` (real time). */
  SLOW_ORDER: 'slow-order',
  /** Orders created in the next `durationMs` (simulated) stay out of the lists for `durationMs`. */
  HIDE_NEW_ORDERS: 'hide-new-orders',
} as const;
/** One of the {@link FaultKind} values. */
export type FaultKind = (typeof FaultKind)[keyof typeof FaultKind];

/** Schema of a fault specification (control API input). */
export const faultSpecSchema = z.strictObject({
  kind: z.enum(Object.values(FaultKind) as [FaultKind, ...FaultKind[]]),
  /** Glob on the request path (without query): `*` matches any run of characters, `?` one. */
  path: z.string().min(1),
  /** HTTP method to match (any when absent). */
  method: z
    .string()
    .regex(/^[A-Za-z]+$/)
    .transform((m) => m.toUpperCase())
    .optional(),
  /** Probability 0..1 that a matching request is hit (seeded RNG); default 1. */
  rate: z.number().min(0).max(1).optional(),
  /** How many times the fault fires at most; unlimited when absent. */
  count: z.number().int().positive().optional(),
  delayMs: z.number().int().nonnegative().optional(),
  durationMs: z.number().int().nonnegative().optional(),
});

/** A fault specification: what to do to requests matching `path` (and `method`). */
export type FaultSpec = z.input<typeof faultSpecSchema>;

/** An active fault as listed by the control API. */
export interface ActiveFault {
  readonly id: string;
  readonly kind: FaultKind;
  readonly path: string;
  readonly method: string | null;
  readonly rate: number;
  /** Firings left, or null when unlimited. */
  readonly remaining: number | null;
  readonly delayMs: number | null;
  readonly durationMs: number | null;
  /** How many times it has fired. */
  readonly fired: number;
}

interface FaultEntry {
  id: string;
  kind: FaultKind;
  path: string;
  pattern: RegExp;
  method: string | null;
  rate: number;
  remaining: number | null;
  delayMs: number | null;
  durationMs: number | null;
  fired: number;
}

/** Converts a path glob to an anchored regular expression. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** A small seeded PRNG (mulberry32) returning floats in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The set of injected faults. For each request the server asks which faults
 * fire; a firing uses up one of the fault's `count`.
 */
export class FaultInjector {
  private readonly entries: FaultEntry[] = [];
  private readonly random: () => number;
  private nextId = 1;

  constructor(seed: number) {
    this.random = seededRandom(seed ^ 0x5eed_fa17);
  }

  /** Adds a fault (validated; throws a zod error on bad input) and returns its id. */
  add(spec: FaultSpec): string {
    const parsed = faultSpecSchema.parse(spec);
    const id = `fault-${this.nextId++}`;
    this.entries.push({
      id,
      kind: parsed.kind,
      path: parsed.path,
      pattern: globToRegExp(parsed.path),
      method: parsed.method ?? null,
      rate: parsed.rate ?? 1,
      remaining: parsed.count ?? null,
      delayMs: parsed.delayMs ?? null,
      durationMs: parsed.durationMs ?? null,
      fired: 0,
    });
    return id;
  }

  /** Removes one fault; returns whether it existed. */
  remove(id: string): boolean {
    const index = this.entries.findIndex((e) => e.id === id);
    if (index < 0) return false;
    this.entries.splice(index, 1);
    return true;
  }

  /** Removes every fault. */
  clear(): void {
    this.entries.length = 0;
  }

  /** The active faults. */
  list(): ActiveFault[] {
    return this.entries.map(({ pattern: _pattern, ...rest }) => ({ ...rest }));
  }

  /** The faults that fire for one request (each matching fault rolls its rate once). */
  fire(method: string, path: string): ActiveFault[] {
    if (this.entries.length === 0) return [];
    const fired: ActiveFault[] = [];
    for (const entry of [...this.entries]) {
      if (entry.method !== null && entry.method !== method) continue;
      if (!entry.pattern.test(path)) continue;
      if (entry.rate < 1 && this.random() >= entry.rate) continue;
      entry.fired++;
      if (entry.remaining !== null) {
        entry.remaining--;
        if (entry.remaining <= 0) this.remove(entry.id);
      }
      const { pattern: _pattern, ...rest } = entry;
      fired.push({ ...rest });
    }
    return fired;
  }
}
