/**
 * A small typed event emitter that runs unchanged in browsers and Node (it does not use Node's
 * `events` module). Event names and payload types come from an event map, for example
 * `{ 'peer-left': PeerLeftEvent }`, so `on('peer-left', e => ...)` is checked at compile time.
 */
import { reportAsync } from './async.js';

/** Maps event names to payload types. */
export type EventMap = { [name: string]: unknown };

/** A listener for payloads of type `T`. */
export type Listener<T> = (payload: T) => void;

/** Removes the listener it was returned for. Calling it again does nothing. */
export type Unsubscribe = () => void;

/**
 * A typed event emitter. Listeners run synchronously in registration order. A listener that throws
 * does not stop the others or the emitter's owner: its error is rethrown from a microtask, where the
 * host reports it as an uncaught error (the browser console, Node's `uncaughtException`), the same
 * way `EventTarget` reports listener errors.
 */
export class Emitter<Events extends EventMap> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();

  /** Calls `listener` for every `name` event until the returned function is called. */
  on<K extends keyof Events>(name: K, listener: Listener<Events[K]>): Unsubscribe {
    let set = this.listeners.get(name);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(name, set);
    }
    // A wrapper keeps registrations distinct, so the same function registered twice runs twice
    // and each unsubscribe removes exactly one registration.
    const entry: Listener<Events[K]> = (payload) => listener(payload);
    set.add(entry as Listener<never>);
    return () => {
      set.delete(entry as Listener<never>);
    };
  }

  /** Calls `listener` for the next `name` event only. */
  once<K extends keyof Events>(name: K, listener: Listener<Events[K]>): Unsubscribe {
    const unsubscribe = this.on(name, (payload) => {
      unsubscribe();
      listener(payload);
    });
    return unsubscribe;
  }

  /** The number of listeners registered for `name`. */
  listenerCount(name: keyof Events): number {
    return this.listeners.get(name)?.size ?? 0;
  }

  /** Removes every listener, of one event or of all events. */
  removeAllListeners(name?: keyof Events): void {
    if (name === undefined) this.listeners.clear();
    else this.listeners.delete(name);
  }

  /** Delivers `payload` to the listeners of `name`. */
  emit<K extends keyof Events>(name: K, payload: Events[K]): void {
    const set = this.listeners.get(name);
    if (set === undefined) return;
    // Iterate over a snapshot so listeners added during this emit wait for the next one; skip
    // listeners removed during this emit.
    for (const listener of [...set] as Listener<Events[K]>[]) {
      if (!set.has(listener as Listener<never>)) continue;
      try {
        listener(payload);
      } catch (error) {
        reportAsync(error);
      }
    }
  }
}
