// Errors of the renderer that the command line maps to exit statuses.

/** The memory budget cannot hold even a one-pixel region (or a bucket, in bucket mode). */
export class BudgetTooSmallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BudgetTooSmallError';
  }
}

/** A buffer every stage binds whole (the primitive records, their auxiliary values, a pipeline's
 * parameter blocks) is larger than one storage binding of the device. */
export class BindingLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BindingLimitError';
  }
}
