import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { HttpError } from '../http/errors.ts';

/**
 * Seconds a client is told to wait when the upload budget is spent: bytes are given back only as
 * uploads finish, and an upload from a phone can take minutes.
 */
export const UPLOAD_BUDGET_RETRY_AFTER_SECONDS = 15;

/** The 503 of an upload that does not fit in the budget. */
export function uploadBudgetExceeded(): HttpError {
  return new HttpError(503, WALL_MESSAGES.mediaBusy, { 'retry-after': String(UPLOAD_BUDGET_RETRY_AFTER_SECONDS) });
}

/**
 * The bytes of uploaded files this instance holds at once (UPLOAD_BYTES_IN_FLIGHT): every file
 * byte is charged as it arrives, before it is written to its temporary file, and given back when
 * the request's files are removed. A body withheld halfway holds only what it actually sent, and
 * however many fans upload at once, no more than `capacity` bytes of their files are held.
 */
export class UploadBudget {
  private held = 0;

  constructor(readonly capacity: number) {}

  /** Bytes held now. */
  get inFlight(): number {
    return this.held;
  }

  /** Bytes still free. */
  get free(): number {
    return this.capacity - this.held;
  }

  /** Takes `bytes`, or nothing and false when they do not fit. */
  tryTake(bytes: number): boolean {
    if (bytes > this.free) return false;
    this.held += bytes;
    return true;
  }

  /** Gives back `bytes` taken earlier. */
  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }

  /** One request's share: what it took, given back at once by `close` (idempotent). */
  lease(): UploadLease {
    return new UploadLease(this);
  }
}

export class UploadLease {
  private taken = 0;
  private closed = false;

  constructor(private readonly budget: UploadBudget) {}

  /** Bytes this request holds. */
  get bytes(): number {
    return this.taken;
  }

  /** Charges `bytes` more; throws 503 (Retry-After) when the instance's budget has no room for them. */
  charge(bytes: number): void {
    if (this.closed || !this.budget.tryTake(bytes)) throw uploadBudgetExceeded();
    this.taken += bytes;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.budget.give(this.taken);
    this.taken = 0;
  }
}
