/**
 * When to try the store again after it refused a write: a pause of 1 s after the first refused try,
 * doubled after each further one, at most 30 s (real ms). A locked file blocks each try for the
 * busy timeout: a try each second kept a run on a locked file blocked most of the time. Shared by
 * the paper store ({@link PaperStore}) and the run's kept writes ({@link StoreWriteBacklog}).
 *
 * @module
 */

/** The first pause after a refused try, real ms. */
const FIRST_PAUSE_MS = 1_000;
/** The longest pause between tries, real ms. */
const MAX_PAUSE_MS = 30_000;

/** See the module documentation. */
export class RetryPause {
  /** No try before this (real ms); 0 while the store takes writes. */
  private until = 0;
  /** The pause after the next refused try (real ms). */
  private next = FIRST_PAUSE_MS;
  private refusedLast = false;

  /** @param now - real time, ms (tests give their own) */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Whether the store refused the last try. */
  get refusing(): boolean {
    return this.refusedLast;
  }

  /** Whether a try is due: the store took the last one, or the pause after its refusal is over. */
  due(): boolean {
    return this.now() >= this.until;
  }

  /** The store refused a try: the next waits out the pause, and the one after a pause twice as long. */
  refused(): void {
    this.refusedLast = true;
    this.until = this.now() + this.next;
    this.next = Math.min(this.next * 2, MAX_PAUSE_MS);
  }

  /** The store took a try: the next is due at once, and a later refusal pauses 1 s again. */
  stored(): void {
    this.refusedLast = false;
    this.until = 0;
    this.next = FIRST_PAUSE_MS;
  }
}
