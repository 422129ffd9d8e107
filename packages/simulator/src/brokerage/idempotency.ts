import { businessRule, conflict } from './brokerage-errors.js';

/** How long a `clientOrderId` replays its first result (simulated time). */
export const IDEMPOTENCY_WINDOW_MS = 10 * 60 * 1000;

/** The answer of an order creation, as replayed. */
export interface CreateResult {
  readonly orderId: string;
  readonly clientOrderId: string | null;
}

/** One remembered `clientOrderId` (persisted when done). */
export interface IdempotencyEntry {
  readonly key: string;
  readonly fingerprint: string;
  readonly firstSeenMs: number;
  /** null while the first request is still processing. */
  result: CreateResult | null;
}

/**
 * The defaults of an order-creation body: a request that spells one out is the same order as one
 * that leaves it out.
 */
const CREATE_DEFAULTS: Readonly<Record<string, unknown>> = {
  timeInForce: 'DAY',
  confirmHighValueOrder: false,
};

/**
 * The content of a create request as the window compares it: the canonical text of the request
 * (`[[key, value], ...]` sorted by key, absent and null fields left out) with the defaults applied,
 * so that `timeInForce: "DAY"` and `confirmHighValueOrder: false` equal their absence. A text of
 * another shape is compared as it is.
 *
 * @param fingerprint - the canonical text of the request
 */
export function normalizedContent(fingerprint: string): string {
  let pairs: unknown;
  try {
    pairs = JSON.parse(fingerprint);
  } catch {
    return fingerprint;
  }
  if (
    !Array.isArray(pairs) ||
    !pairs.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string')
  ) {
    return fingerprint;
  }
  const fields = new Map<string, unknown>(Object.entries(CREATE_DEFAULTS));
  for (const [key, value] of pairs as [string, unknown][]) {
    if (value !== null && value !== undefined) fields.set(key, value);
  }
  return JSON.stringify([...fields.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** What a lookup decided. */
export type IdempotencyDecision =
  | { readonly kind: 'new' }
  | { readonly kind: 'replay'; readonly result: CreateResult };

/**
 * The 10-minute `clientOrderId` window, per account: same id and same content
 * replays the first result; while the first is processing → 409
 * `request-in-progress`; other content → 422 `idempotency-key-conflict`; after
 * the window the id is free again. Content is compared with the defaults applied
 * ({@link normalizedContent}).
 */
export class IdempotencyWindow {
  private readonly entries = new Map<string, IdempotencyEntry>();

  constructor(entries: readonly IdempotencyEntry[] = []) {
    for (const entry of entries) this.entries.set(entry.key, entry);
  }

  private static key(accountSeq: number, clientOrderId: string): string {
    return `${accountSeq}|${clientOrderId}`;
  }

  /** Decides a request with a `clientOrderId`; throws the 409/422 cases. */
  check(accountSeq: number, clientOrderId: string, fingerprint: string, nowMs: number): IdempotencyDecision {
    const entry = this.entries.get(IdempotencyWindow.key(accountSeq, clientOrderId));
    if (!entry || nowMs - entry.firstSeenMs >= IDEMPOTENCY_WINDOW_MS) return { kind: 'new' };
    if (normalizedContent(entry.fingerprint) !== normalizedContent(fingerprint)) {
      throw businessRule(
        'idempotency-key-conflict',
        `clientOrderId ${JSON.stringify(clientOrderId)} was used for a different order within 10 minutes`,
      );
    }
    if (entry.result === null) {
      throw conflict(
        'request-in-progress',
        `An order with clientOrderId ${JSON.stringify(clientOrderId)} is still processing`,
      );
    }
    return { kind: 'replay', result: entry.result };
  }

  /** Marks a request as processing (the first of its window). */
  begin(accountSeq: number, clientOrderId: string, fingerprint: string, nowMs: number): void {
    const key = IdempotencyWindow.key(accountSeq, clientOrderId);
    this.entries.set(key, {
      key,
      fingerprint: normalizedContent(fingerprint),
      firstSeenMs: nowMs,
      result: null,
    });
  }

  /** Records the result of a processed request. */
  complete(accountSeq: number, clientOrderId: string, result: CreateResult): void {
    const entry = this.entries.get(IdempotencyWindow.key(accountSeq, clientOrderId));
    if (entry) entry.result = result;
  }

  /** Forgets a request that failed, so that a retry is judged afresh. */
  abandon(accountSeq: number, clientOrderId: string): void {
    const key = IdempotencyWindow.key(accountSeq, clientOrderId);
    if (this.entries.get(key)?.result === null) this.entries.delete(key);
  }

  /** Completed entries still inside their window, for the state file. */
  snapshot(nowMs: number): IdempotencyEntry[] {
    return [...this.entries.values()].filter(
      (e) => e.result !== null && nowMs - e.firstSeenMs < IDEMPOTENCY_WINDOW_MS,
    );
  }
}
