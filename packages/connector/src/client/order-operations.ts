/**
 * Modify and cancel, which are never blindly repeated: after an unclear failure (no answer, or a
 * 5xx) the order is read first, and the request is sent again only if the order is still open and
 * shows no sign of the first request.
 *
 * @module
 */
import type { Clock } from '@hoga/core';
import type { ConnectorConfig } from '../config.js';
import { NetworkError, NetworkFailure, ServerError } from '../errors.js';
import { RateLimitGroup, RequestPriority } from '../rate-limit/rate-limit-groups.js';
import {
  BrokerOrderStatus,
  type CreateOrderRequest,
  type ModifyOrderRequest,
  OrderOperationResultSchema,
  type OrderRecord,
  TERMINAL_ORDER_STATUSES,
} from '../schemas/orders.js';
import { envelope } from '../schemas/primitives.js';
import { modifyOrderBody } from './order-bodies.js';
import type { CallOptions, RequestExecutor } from './request-executor.js';
import { RetryMode } from './retry-policy.js';

/** What an order command through the client produced (for `orderUpdates$` and journals). */
export type OrderCommandNotice =
  | {
      readonly type: 'created';
      readonly orderId: string;
      readonly clientOrderId: string | null;
      readonly request: CreateOrderRequest;
    }
  | { readonly type: 'modified' | 'canceled'; readonly orderId: string; readonly originalOrderId: string };

/** Result of a modify or cancel. */
export type OrderOperationOutcome =
  /** The broker acknowledged the request; `orderId` is the new (modify or cancel) order's id. */
  | { readonly kind: 'acknowledged'; readonly orderId: string; readonly originalOrderId: string }
  /**
   * The answer was lost and the order was read instead: `applied` says whether its state shows the
   * change (`PENDING_CANCEL`, `CANCELED` / `PENDING_REPLACE`, `REPLACED`); when false, the order
   * had already reached a final state and nothing more was sent.
   */
  | { readonly kind: 'resolved-by-state'; readonly applied: boolean; readonly order: OrderRecord };

type Operation = 'modify' | 'cancel';

const APPLIED: Readonly<Record<Operation, ReadonlySet<string>>> = {
  cancel: new Set([BrokerOrderStatus.PENDING_CANCEL, BrokerOrderStatus.CANCELED]),
  modify: new Set([BrokerOrderStatus.PENDING_REPLACE, BrokerOrderStatus.REPLACED]),
};

function unclear(error: unknown): boolean {
  return (
    (error instanceof NetworkError && error.failure !== NetworkFailure.ABORTED) ||
    error instanceof ServerError
  );
}

/** Sends modify and cancel requests; see the module description. */
export class OrderOperations {
  /**
   * @param executor - request machinery
   * @param clock - domain clock
   * @param config - connector configuration (retry cap)
   * @param readOrder - `GET /orders/{id}`
   * @param notify - reports acknowledged commands
   */
  constructor(
    private readonly executor: RequestExecutor,
    private readonly clock: Clock,
    private readonly config: ConnectorConfig,
    private readonly readOrder: (orderId: string, options?: CallOptions) => Promise<OrderRecord>,
    private readonly notify: (notice: OrderCommandNotice) => void,
  ) {}

  /**
   * Changes price (and, for KR, quantity) of an open order.
   *
   * @param orderId - the order to change
   * @param request - the change
   * @param options - signal, timeout
   */
  modify(
    orderId: string,
    request: ModifyOrderRequest,
    options?: CallOptions,
  ): Promise<OrderOperationOutcome> {
    return this.run('modify', orderId, modifyOrderBody(request), options);
  }

  /**
   * Cancels an order (ahead of every other queued request of the ORDER group).
   *
   * @param orderId - the order to cancel
   * @param options - signal, timeout
   */
  cancel(orderId: string, options?: CallOptions): Promise<OrderOperationOutcome> {
    return this.run('cancel', orderId, {}, options);
  }

  private async run(
    operation: Operation,
    orderId: string,
    json: Record<string, unknown>,
    options: CallOptions | undefined,
  ): Promise<OrderOperationOutcome> {
    const deadline = this.clock.nowMs() + this.config.clientOrderIdWindowMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const body = await this.executor.execute(
          {
            endpoint: `${operation}Order`,
            group: RateLimitGroup.ORDER,
            method: 'POST',
            path: `/api/v1/orders/${encodeURIComponent(orderId)}/${operation}`,
            json,
            auth: true,
            account: true,
            schema: envelope(OrderOperationResultSchema),
            priority: operation === 'cancel' ? RequestPriority.CANCEL : RequestPriority.ORDER,
            retry: RetryMode.UNSAFE,
          },
          options,
        );
        const id = body.result.orderId;
        this.notify({
          type: operation === 'cancel' ? 'canceled' : 'modified',
          orderId: id,
          originalOrderId: orderId,
        });
        return { kind: 'acknowledged', orderId: id, originalOrderId: orderId };
      } catch (error) {
        if (!unclear(error) || attempt >= this.config.maxRetries || this.clock.nowMs() > deadline)
          throw error;
        const order = await this.readOrder(orderId, { ...options, priority: RequestPriority.ORDER });
        if (APPLIED[operation].has(order.status)) return { kind: 'resolved-by-state', applied: true, order };
        if (TERMINAL_ORDER_STATUSES.has(order.status))
          return { kind: 'resolved-by-state', applied: false, order };
        // Still open with no trace of the request: it never reached the broker, so send it again.
      }
    }
  }
}
