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
  constructor(party: number, parties: number, events: (to: number, frame?: Uint8Array, stats?: NativeStats) => void);
  deliver(from: number, frame: Uint8Array): void;
  peerLeft(slot: number): void;
  fail(reason: string): void;
  checkAes(spec: object, input: object): NativeCheck;
  checkCircuit(spec: object, input: object): NativeCheck;
  runAes(session: object, spec: object, input: object, progress?: boolean): Promise<NativeOutcome>;
  runCircuit(session: object, spec: object, input: object, progress?: boolean): Promise<NativeOutcome>;
  free(): void;
}

/** The version of the Chorus core compiled into the addon. */
export declare function version(): string;
