/**
 * Request priorities inside a rate-limit group.
 *
 * @module
 */

// The groups and the spec's table of limits are core's (shared with the simulator); re-exported here
// for the connector's modules that name a group next to a priority.
export { type GroupLimit, RATE_LIMITS, RateLimitGroup } from '@hoga/core';

/** Queue priorities inside a group: lower runs first. */
export const RequestPriority = {
  /** Cancelling an order. */
  CANCEL: 0,
  /** Creating or modifying an order. */
  ORDER: 1,
  /** A call made by a user or strategy. */
  NORMAL: 2,
  /** Background polling by the streams. */
  POLL: 3,
} as const;
/** One of {@link RequestPriority}. */
export type RequestPriority = (typeof RequestPriority)[keyof typeof RequestPriority];
