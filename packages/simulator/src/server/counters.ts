import type { RateLimitGroup } from '@hoga/core';

/** Request counts the HTTP layer keeps (the control API adds the brokerage's). */
export class ServerCounters {
  /** Requests received on the broker API (control routes excluded), including unknown paths. */
  requestsTotal = 0;
  /** 429 answers sent. */
  rateLimited = 0;
  /** Faults that fired. */
  faultsFired = 0;
  private readonly byGroup = new Map<RateLimitGroup, number>();

  /** Counts one request routed to `group`. */
  countGroup(group: RateLimitGroup): void {
    this.byGroup.set(group, (this.byGroup.get(group) ?? 0) + 1);
  }

  /** Requests per group (only groups that saw a request). */
  requestsByGroup(): Record<string, number> {
    return Object.fromEntries(this.byGroup);
  }

  /** Sets every count back to zero. */
  reset(): void {
    this.requestsTotal = 0;
    this.rateLimited = 0;
    this.faultsFired = 0;
    this.byGroup.clear();
  }
}
