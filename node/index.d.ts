/** Statistics of one job: protocol payload bytes, messages and rounds. */
export interface NativeStats {
  rounds: number;
  bytesSent: number;
  bytesReceived: number;
  messagesSent: number;
  messagesReceived: number;
}

/** What a job resolves with: the WASM module's result fields, or `error` when it failed. */
export interface NativeOutcome {
  ciphertext?: Uint8Array;
  outputs?: Array<Uint8Array | null>;
  stats?: NativeStats;
  onlineStats?: NativeStats;
  preprocessingStats?: NativeStats;
  transportStats?: NativeStats;
  error?: { kind: string; message: string; slot?: number; field?: string; check?: string };
}

/** What a job check returns: what the job runs (defaults filled in), or `error`. */
export interface NativeCheck {
  protocol?: string;
  variant?: string;
  security?: string;
  preprocessing?: string;
  error?: NativeOutcome['error'];
}

/**
 * One party's end of one session, with the calls of the WASM module's `Bridge`, except that the
 * job's frames and progress come through one callback, in order: `events(to, frame)` for a frame,
 * `events(0, undefined, stats)` for progress (when the job was started with `progress` true), and
 * `events(0)` just before the job's promise settles. It runs on the JS thread after the job queued
 * the event and must not throw (report failures with `fail`).
 */
export declare class Bridge {
  /** With `link`, the job's frames go through that relay link, without JS; `events` carries only progress. */
  constructor(
    party: number,
    parties: number,
    events: (to: number, frame?: Uint8Array, stats?: NativeStats) => void,
    link?: RelayLink | null,
  );
  deliver(from: number, frame: Uint8Array): void;
  peerLeft(slot: number): void;
  fail(reason: string): void;
  checkAes(spec: object, input: object): NativeCheck;
  checkCircuit(spec: object, input: object): NativeCheck;
  runAes(session: object, spec: object, input: object, progress?: boolean): Promise<NativeOutcome>;
  runCircuit(session: object, spec: object, input: object, progress?: boolean): Promise<NativeOutcome>;
  /** The running job's statistics as of its last received message, without a progress report. */
  liveStats(): NativeStats | null;
  free(): void;
}

/**
 * One party's membership of a Chorus relay room (protocol 2, with resume), joined and served by the
 * addon's Rust relay client, so the frames of a {@link Bridge} made with it never cross JS.
 * `events(kind, slot, detail?, roster?)` hears `marker` (an end marker from `slot`), `peer-left`,
 * `peer-away` (`detail`: the relay's reason), `peer-back`, `reconnecting`, `resumed` and `broken`
 * (`detail`: why), in order, on the JS thread.
 */
export declare class RelayLink {
  constructor(slot: number, parties: number, events: (kind: string, slot: number, detail?: string, roster?: number[]) => void);
  /**
   * Joins at `relay` (`http://`, `https://`, `ws://` or `wss://`, under a path prefix if any; TLS
   * certificates checked against Mozilla's roots and `NODE_EXTRA_CA_CERTS`) and resolves once the
   * room is ready.
   */
  open(
    relay: string,
    room: string,
    token: string,
    timeoutMs: number,
  ): Promise<{ maxPayloadBytes?: number; error?: { code: string; message: string } }>;
  /** Sends `frame` to `to` (an empty frame is an end marker); throws once closed. */
  send(to: number, frame: Uint8Array): void;
  /** Data frames and bytes in each direction, the header byte included. */
  stats(): { framesSent: number; bytesSent: number; framesReceived: number; bytesReceived: number };
  /** Closes after the queued frames (at most `timeoutMs`); a running job fails with `reason`. */
  close(reason: string, timeoutMs: number): Promise<void>;
}

/** The version of the Chorus core compiled into the addon. */
export declare function version(): string;
