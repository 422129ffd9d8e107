import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { linkedSignal, withLinkedSignal } from './linked-signal.js';

describe('linkedSignal', () => {
  it('aborts when any source aborts, with that source’s reason', () => {
    const a = new AbortController();
    const b = new AbortController();
    const link = linkedSignal([a.signal, b.signal]);
    expect(link.signal.aborted).toBe(false);
    b.abort('stopping');
    expect(link.signal.aborted).toBe(true);
    expect(link.signal.reason).toBe('stopping');
    // the links are gone once it fired
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(0);
  });

  it('is aborted at once when a source already is', () => {
    const a = new AbortController();
    a.abort('gone');
    const link = linkedSignal([new AbortController().signal, a.signal]);
    expect(link.signal.aborted).toBe(true);
    expect(link.signal.reason).toBe('gone');
  });

  it('leaves no listener on a long-lived source once released', () => {
    const stop = new AbortController();
    const refresh = new AbortController();
    for (let i = 0; i < 1_000; i++) linkedSignal([refresh.signal, stop.signal]).release();
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(refresh.signal, 'abort')).toHaveLength(0);
    const after = linkedSignal([stop.signal]);
    after.release();
    stop.abort();
    expect(after.signal.aborted).toBe(false);
  });
});

describe('withLinkedSignal', () => {
  it('releases the links when the operation resolves, rejects or throws', async () => {
    const stop = new AbortController();
    await expect(withLinkedSignal([stop.signal], async () => 1)).resolves.toBe(1);
    await expect(
      withLinkedSignal([stop.signal], async () => Promise.reject(new Error('no'))),
    ).rejects.toThrow('no');
    await expect(
      withLinkedSignal([stop.signal], () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('hands the operation a signal that a source aborts while it runs', async () => {
    const stop = new AbortController();
    const seen = withLinkedSignal(
      [stop.signal],
      (signal) =>
        new Promise<string>((resolve) =>
          signal.addEventListener('abort', () => resolve(String(signal.reason))),
        ),
    );
    stop.abort('halt');
    await expect(seen).resolves.toBe('halt');
  });
});
