/**
 * The simulated venue's event stream: an Observable whose emission calls its subscribers directly,
 * in the order they subscribed. An rxjs `Subject` does the same with more per event (an iterator
 * over a copy of its observers and a closure per `next`): the venue emits three events per order,
 * hundreds of thousands in a long backtest.
 *
 * @module
 */
import { Observable, type Subscriber } from 'rxjs';

/** A hot stream with direct emission (no replay: a late subscriber sees what comes after it). */
export class EventHub<T> {
  /** Replaced, never mutated, when a subscriber comes or goes: an emission walks a stable array. */
  private subscribers: readonly Subscriber<T>[] = [];
  private completed = false;

  /** The events, as they are emitted. */
  readonly events$: Observable<T> = new Observable<T>((subscriber) => {
    if (this.completed) {
      subscriber.complete();
      return undefined;
    }
    this.subscribers = [...this.subscribers, subscriber];
    return () => {
      this.subscribers = this.subscribers.filter((s) => s !== subscriber);
    };
  });

  /** Hands `value` to every subscriber, in the order they subscribed. */
  emit(value: T): void {
    const subscribers = this.subscribers;
    for (let i = 0; i < subscribers.length; i++) (subscribers[i] as Subscriber<T>).next(value);
  }

  /** Completes every subscriber; later subscribers complete at once. */
  complete(): void {
    if (this.completed) return;
    this.completed = true;
    const subscribers = this.subscribers;
    this.subscribers = [];
    for (const s of subscribers) s.complete();
  }
}
