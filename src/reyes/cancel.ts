// Cancelling a render: RenderOptions.signal is checked at every region (dicing, sampling, bucket) and
// between stages (after dicing, after shading, before filtering); an aborted render rejects with an
// AbortError (a DOMException, as fetch rejects), after releasing what it allocated.

/** Throws an AbortError when `signal` has been aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DOMException('the render was cancelled', 'AbortError');
}

/** Whether `error` is the AbortError of a cancelled render. */
export function isCancelled(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
