/**
 * Request priorities inside a rate-limit group.
 *
 * @module
 */

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
