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

/** What a lookup decided. */
export type IdempotencyDecision =
  | { readonly kind: 'new' }
  | { readonly kind: 'replay'; readonly result: CreateResult };

/**
 * The 10-minute `clientOrderId` window, per account: same id and same content
 * replays the first result; while the first is processing → 409
 * `request-in-progress`; other content → 422 `idempotency-key-conflict`; after
 * the window the id is free again.
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
    if (entry.fingerprint !== fingerprint) {
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
    this.entries.set(key, { key, fingerprint, firstSeenMs: nowMs, result: null });
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
