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

/**
 * One party's end of one session, with the calls of the WASM module's `Bridge`. `send` runs on the
 * JS thread after the job queued the frame; it must not throw (report failures with `fail`).
 */
export declare class Bridge {
  constructor(party: number, parties: number, send: (to: number, frame: Uint8Array) => void);
  deliver(from: number, frame: Uint8Array): void;
  peerLeft(slot: number): void;
  fail(reason: string): void;
  takeUnread(): Array<[number, Uint8Array]>;
  runAes(session: object, spec: object, input: object, onProgress?: (stats: NativeStats) => void): Promise<NativeOutcome>;
  runCircuit(session: object, spec: object, input: object, onProgress?: (stats: NativeStats) => void): Promise<NativeOutcome>;
  free(): void;
}

/** The version of the Chorus core compiled into the addon. */
export declare function version(): string;
