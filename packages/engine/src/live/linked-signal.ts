/**
 * A signal aborted when any of its sources aborts, whose links to the sources are undone when the
 * operation it guards has settled.
 *
 * `AbortSignal.any()` keeps every composite it made reachable from a long-lived source: on Node
 * 22.23, 100,000 composites of one long-lived signal, each listened to and let go, kept about 30 MB
 * of heap after a full collection (Node 24.21 frees them). A live or paper run combines its stop
 * signal with every background read, several a second for as long as it runs, so it links and
 * unlinks by hand instead.
 *
 * @module
 */

/** A linked signal and how to let go of it. */
export interface LinkedSignal {
  /** Aborted once any source is (at once when one already was), with that source's reason. */
  readonly signal: AbortSignal;
  /** Removes the listeners on the sources (call when the guarded operation has settled). */
  release(): void;
}

/**
 * Links a signal to `sources`.
 *
 * @param sources - the signals to follow
 */
export function linkedSignal(sources: readonly AbortSignal[]): LinkedSignal {
  const controller = new AbortController();
  const already = sources.find((s) => s.aborted);
  if (already !== undefined) {
    controller.abort(already.reason);
    return { signal: controller.signal, release: () => {} };
  }
  const listeners = sources.map((source) => {
    const onAbort = () => {
      release();
      controller.abort(source.reason);
    };
    source.addEventListener('abort', onAbort, { once: true });
    return { source, onAbort };
  });
  const release = () => {
    for (const { source, onAbort } of listeners) source.removeEventListener('abort', onAbort);
  };
  return { signal: controller.signal, release };
}

/**
 * Runs `operation` with a signal linked to `sources`, releasing the links once it settles.
 *
 * @param sources - the signals to follow
 * @param operation - what to run with the linked signal
 */
export function withLinkedSignal<T>(
  sources: readonly AbortSignal[],
  operation: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const link = linkedSignal(sources);
  let running: Promise<T>;
  try {
    running = operation(link.signal);
  } catch (error) {
    link.release();
    return Promise.reject(error);
  }
  return running.finally(link.release);
}
