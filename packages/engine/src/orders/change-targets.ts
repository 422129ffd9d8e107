/**
 * Which broker order a modify or cancel goes to. A logical order addresses its newest broker order,
 * and another process on the same store (`hoga order`, another engine) may have modified it since
 * this one last looked, or be modifying it right now: the target is read from the store file, and
 * one the broker shows replaced (`REPLACED`; a refusal `already-modified`, or the order read after
 * a change's answer was lost) or being changed (`already-processing`) is followed to its
 * replacement once that process has stored it.
 *
 * @module
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConflictError } from '@hoga/connector';
import type { OrderManager } from './order-manager.js';
import { endedOrderCode, STORE_UNAVAILABLE } from './order-manager-options.js';
import type { StoredCommand, StoredExecution } from './order-manager-store.js';

/** How often the store is read for a newer broker order while one is waited for (real ms). */
const READ_EVERY_MS = 50;

/** A refusal of a modify or cancel: the code and reason its rejection event carries. */
export interface ChangeRefusal {
  readonly code: string;
  readonly reason: string;
}

/**
 * Whether the broker refused a modify or cancel because its target is no longer the order's
 * newest broker order (`already-modified`), or is being modified or cancelled (`already-processing`).
 */
export function superseded(error: unknown): boolean {
  return (
    error instanceof ConflictError &&
    (error.code === 'already-modified' || error.code === 'already-processing')
  );
}

/** See the module description. */
export class ChangeTargets {
  /** @param m - the order manager (store, options) */
  constructor(private readonly m: OrderManager) {}

  /**
   * The broker order a new modify or cancel of the logical order goes to: its newest as the store
   * file holds it; one a modify replaced whose answer is not stored yet (that process is still
   * waiting for it) is followed to the replacement, waited for up to `newestOrderWaitMs`. A
   * refusal (`order-not-open`) when no open broker order of it is known; `store-unavailable` when
   * the store cannot be read (an I/O error): nothing is sent. Before, the read's error failed the
   * run as a throw in the strategy's hook.
   */
  async of(clientOrderId: string, kind: 'modify' | 'cancel'): Promise<StoredExecution | ChangeRefusal> {
    try {
      return await this.newestOpen(clientOrderId, kind);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        code: STORE_UNAVAILABLE,
        reason: `the ${kind} was not sent: the store cannot be read (${why})`,
      };
    }
  }

  /** See {@link of}; throws the store's error. */
  private async newestOpen(
    clientOrderId: string,
    kind: 'modify' | 'cancel',
  ): Promise<StoredExecution | ChangeRefusal> {
    let target = this.m.newestExecution(clientOrderId);
    if (target?.closed === true && target.status === 'REPLACED')
      target = await this.newerThan(clientOrderId, target.brokerOrderId);
    if (target !== null && !target.closed) return target;
    const reason =
      target?.status === 'REPLACED'
        ? `its broker order ${target.brokerOrderId} was replaced by a modify not stored here (from another channel?): the next poll adopts the replacement`
        : `no open broker order to ${kind}`;
    return { code: 'order-not-open', reason };
  }

  /**
   * After the broker refused a sent modify or cancel as superseded ({@link superseded}), or the
   * engine found its target `REPLACED` after its answer was lost: the broker order to send it to
   * again, the logical order's newer one once it is stored (waited for up to `waitMs`, by default
   * `newestOrderWaitMs`; `already-processing` goes to the same one again after the wait). A
   * refusal with `refused.code` when no newer one is stored (modified from another channel: the
   * next poll adopts the replacement) or the newest one is closed already (the broker's code for
   * its status, `already-filled`, … as if the change had been sent to it).
   *
   * @param refused - the broker's refusal (its code and message), or what the engine found
   */
  async after(
    stored: StoredCommand,
    refused: ChangeRefusal,
    waitMs = this.m.options.newestOrderWaitMs,
  ): Promise<StoredExecution | ChangeRefusal> {
    const target = stored.targetBrokerOrderId ?? '';
    const newest = await this.newerThan(stored.clientOrderId, target, waitMs);
    if (newest === null || (newest.brokerOrderId === target && refused.code !== 'already-processing')) {
      return {
        code: refused.code,
        reason: `${refused.reason}; no newer broker order of ${stored.clientOrderId} is stored (modified from another channel?): the next poll adopts it`,
      };
    }
    if (newest.closed)
      return {
        code: endedOrderCode(newest.status),
        reason: `the order went on to broker order ${newest.brokerOrderId}, already ${newest.status}`,
      };
    return newest;
  }

  /**
   * The logical order's newest stored broker order once it is not `brokerOrderId`, or after
   * `waitMs` (default `newestOrderWaitMs`) of real time, on the process's monotonic timer (the
   * store is written by another process, or by this one when an answer arrives).
   */
  private async newerThan(
    clientOrderId: string,
    brokerOrderId: string,
    waitMs = this.m.options.newestOrderWaitMs,
  ): Promise<StoredExecution | null> {
    const deadline = performance.now() + waitMs;
    let newest = this.m.newestExecution(clientOrderId);
    while (newest !== null && newest.brokerOrderId === brokerOrderId && performance.now() < deadline) {
      await sleep(READ_EVERY_MS);
      newest = this.m.newestExecution(clientOrderId);
    }
    return newest;
  }
}
