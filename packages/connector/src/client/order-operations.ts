/**
 * Order commands. Create is repeated only with its `clientOrderId`; modify and cancel are never
 * blindly repeated: after an unclear failure (no answer, or a 5xx) the order is read first, and the
 * request is sent again only if the order is still open and shows no sign of the first request.
 * Every command is listed while it is in flight: the broker may list the order it made before the
 * answer arrives, and `orderUpdates$` must not mistake that order for one placed elsewhere.
 * A modify whose answer was lost but which the order shows applied is told with its terms
 * (`modify-unanswered`): no answer names its replacement, and `orderUpdates$` looks for it by them.
 *
 * @module
 */
import { BrokerOrderStatus, type Clock, RateLimitGroup, TERMINAL_BROKER_ORDER_STATUSES } from '@hoga/core';
import type { ConnectorConfig } from '../config.js';
import { ConflictError, NetworkError, NetworkFailure, ServerError } from '../errors.js';
import { RequestPriority } from '../rate-limit/rate-limit-groups.js';
import {
  type CreateOrderRequest,
  type CreateOrderResult,
  CreateOrderResultSchema,
  type ModifyOrderRequest,
  OrderOperationResultSchema,
  type OrderRecord,
} from '../schemas/orders.js';
import { envelope } from '../schemas/primitives.js';
import { createOrderBody, modifyOrderBody } from './order-bodies.js';
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
  | { readonly type: 'modified' | 'canceled'; readonly orderId: string; readonly originalOrderId: string }
  /**
   * A modify whose answer was lost while the order, read instead, shows it applied
   * (`PENDING_REPLACE` or `REPLACED`): the broker made a replacement that no answer names, so it
   * can only be known by the modify's terms (`request`, on `order`'s symbol and side, placed at or
   * after `sentAtMs`).
   */
  | {
      readonly type: 'modify-unanswered';
      readonly originalOrderId: string;
      readonly request: ModifyOrderRequest;
      /** Domain-clock time the modify was first sent. */
      readonly sentAtMs: number;
      /** The original as read after the answer was lost. */
      readonly order: OrderRecord;
    };

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

/**
 * An order command sent to the broker whose answer has not arrived yet. The order it makes (a new
 * order, a replacement or a cancel order) may already be listed by the broker.
 */
export interface OrderCommandInFlight {
  /** Grows with every command sent through one client: tells commands apart. */
  readonly seq: number;
  readonly type: 'create' | 'modify' | 'cancel';
  /** The create's idempotency key; null for a create without one, and for modify and cancel. */
  readonly clientOrderId: string | null;
  /**
   * Settles once the command ended, after its {@link OrderCommandNotice} went out: the id of the
   * order it made, or null when it failed or was resolved by reading the order. Never rejects.
   */
  readonly orderId: Promise<string | null>;
}

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

/** The 409 a change sent again gets when the broker made the change already: maybe its first send's. */
function ownChangeRefused(operation: Operation, error: unknown): boolean {
  return (
    error instanceof ConflictError &&
    error.code === (operation === 'cancel' ? 'already-canceled' : 'already-modified')
  );
}

/** Sends create, modify and cancel requests; see the module description. */
export class OrderOperations {
  private readonly inFlight = new Map<number, OrderCommandInFlight>();
  private nextSeq = 1;

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

  /** The commands sent and not answered yet, oldest first. */
  commandsInFlight(): readonly OrderCommandInFlight[] {
    return [...this.inFlight.values()];
  }

  /**
   * Places an order. With a `clientOrderId` the same request is repeated on transient failures
   * and 409 `request-in-progress` inside the 10-minute window; without one only a 429 is repeated.
   *
   * @param request - the order
   * @param options - signal, timeout
   */
  async create(request: CreateOrderRequest, options?: CallOptions): Promise<CreateOrderResult> {
    const json = createOrderBody(request);
    const keyed = request.clientOrderId !== undefined;
    const retryUntilMs = this.clock.nowMs() + this.config.clientOrderIdWindowMs - 30_000;
    return this.tracked('create', request.clientOrderId ?? null, async (announce) => {
      const body = await this.executor.execute(
        {
          endpoint: 'createOrder',
          group: RateLimitGroup.ORDER,
          method: 'POST',
          path: '/api/v1/orders',
          json,
          auth: true,
          account: true,
          schema: envelope(CreateOrderResultSchema),
          priority: RequestPriority.ORDER,
          retry: keyed ? RetryMode.KEYED_CREATE : RetryMode.UNSAFE,
          ...(keyed ? { retryUntilMs } : {}),
        },
        options,
      );
      const clientOrderId = body.result.clientOrderId ?? request.clientOrderId ?? null;
      announce(body.result.orderId, {
        type: 'created',
        orderId: body.result.orderId,
        clientOrderId,
        request,
      });
      return body.result;
    });
  }

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
    return this.run('modify', orderId, modifyOrderBody(request), options, request);
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

  /**
   * Runs a command listed in {@link commandsInFlight} until it ends; `announce` sends its notice
   * and names the order it made (the listing ends only after the notice went out).
   */
  private async tracked<T>(
    type: OrderCommandInFlight['type'],
    clientOrderId: string | null,
    body: (announce: (orderId: string, notice: OrderCommandNotice) => void) => Promise<T>,
  ): Promise<T> {
    let settle: (orderId: string | null) => void = () => undefined;
    const orderId = new Promise<string | null>((resolve) => {
      settle = resolve;
    });
    const seq = this.nextSeq++;
    this.inFlight.set(seq, { seq, type, clientOrderId, orderId });
    let made: string | null = null;
    try {
      return await body((id, notice) => {
        made = id;
        this.notify(notice);
      });
    } finally {
      this.inFlight.delete(seq);
      settle(made);
    }
  }

  private run(
    operation: Operation,
    orderId: string,
    json: Record<string, unknown>,
    options: CallOptions | undefined,
    request?: ModifyOrderRequest,
  ): Promise<OrderOperationOutcome> {
    return this.tracked(operation, null, (announce) =>
      this.attempt(operation, orderId, json, options, announce, request),
    );
  }

  private async attempt(
    operation: Operation,
    orderId: string,
    json: Record<string, unknown>,
    options: CallOptions | undefined,
    announce: (orderId: string, notice: OrderCommandNotice) => void,
    /** A modify's request: told with the order read when its answer is lost. */
    request?: ModifyOrderRequest,
  ): Promise<OrderOperationOutcome> {
    const sentAtMs = this.clock.nowMs();
    const deadline = sentAtMs + this.config.clientOrderIdWindowMs;
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
        announce(id, {
          type: operation === 'cancel' ? 'canceled' : 'modified',
          orderId: id,
          originalOrderId: orderId,
        });
        return { kind: 'acknowledged', orderId: id, originalOrderId: orderId };
      } catch (error) {
        // A send again refused as already done: the first send, which timed out still on its way,
        // may have reached the broker before this one and made the change. Resolved by reading the
        // order, as a lost answer is (before, the 409 was the answer: the engine refused the change
        // and took the replacement or cancel record the first send made for another channel's).
        const ownChange = attempt > 0 && ownChangeRefused(operation, error);
        if (
          !ownChange &&
          (!unclear(error) || attempt >= this.config.maxRetries || this.clock.nowMs() > deadline)
        )
          throw error;
        const order = await this.readOrder(orderId, { ...options, priority: RequestPriority.ORDER });
        if (APPLIED[operation].has(order.status)) {
          // no answer names the replacement: `orderUpdates$` looks for it by the modify's terms
          if (request !== undefined)
            this.notify({ type: 'modify-unanswered', originalOrderId: orderId, request, sentAtMs, order });
          return { kind: 'resolved-by-state', applied: true, order };
        }
        if (ownChange || TERMINAL_BROKER_ORDER_STATUSES.has(order.status))
          return { kind: 'resolved-by-state', applied: false, order };
        // Still open with no trace of the request: it never reached the broker, so send it again.
      }
    }
  }
}
