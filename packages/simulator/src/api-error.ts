/**
 * An error the simulated broker answers with: rendered by the HTTP layer as
 * `{ "error": { requestId, code, message, data? } }` with the given status.
 * Handlers throw it; nothing else is turned into a 4xx.
 */
export class SimApiError extends Error {
  constructor(
    /** HTTP status, e.g. 400, 409, 422. */
    readonly status: number,
    /** The spec's kebab-case error code, e.g. `invalid-request`. */
    readonly code: string,
    message: string,
    /** Optional hint object: `field`, `allowedValues`, `constraint`, ... */
    readonly data?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'SimApiError';
  }
}
