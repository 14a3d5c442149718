/**
 * Small promise utilities shared by the transport: settle-later promises, waits cancelled by an
 * `AbortSignal`, and reporting errors thrown by user callbacks without disturbing the caller.
 */
import { abortError } from './errors.js';

/** A promise with its `resolve` and `reject` exposed. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** A new {@link Deferred} whose rejection never counts as unhandled. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Callers may never await a wait they did not need; its rejection must not be "unhandled".
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** Rejects with the wait's own abort error as soon as `signal` aborts. */
export function withSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal, what));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal, what));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Rethrows a user callback's error outside the transport, as `EventTarget` does. */
export function reportAsync(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}
