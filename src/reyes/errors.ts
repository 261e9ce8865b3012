// Errors of the renderer that the command line maps to exit statuses.

/** The memory budget cannot hold even a one-pixel region (or a bucket, in bucket mode). */
export class BudgetTooSmallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BudgetTooSmallError';
  }
}
