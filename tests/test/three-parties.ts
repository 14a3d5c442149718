/** Runs the SDK parties of one room (three, or two for TinyTable with OT preprocessing) in this process. */
import { connect, createRoom, type AesOptions, type AesResult, type ConnectOptions, type Session } from "@chorus/sdk";
import { freshSecret } from "./relay-process.js";

/** Creates a 3-party room on `relay` and connects all three parties with one session secret. */
export async function connectThree(
  relay: string,
  secret: string,
  overrides: (slot: number) => Partial<ConnectOptions> = () => ({}),
): Promise<Session[]> {
  const room = await createRoom({ relay, parties: 3 });
  return Promise.all([0, 1, 2].map((slot) => connect({ ...room.invite(slot), secret, ...overrides(slot) })));
}

/** Creates a 2-party room on `relay` and connects both parties (TinyTable with OT preprocessing). */
export async function connectTwo(relay: string, secret: string): Promise<Session[]> {
  const room = await createRoom({ relay, parties: 2 });
  return Promise.all([0, 1].map((slot) => connect({ ...room.invite(slot), secret })));
}

/** Starts `aes` at every party with its own options. */
export function runAes(sessions: Session[], options: AesOptions[]): Promise<AesResult>[] {
  return sessions.map((session, slot) => session.aes(options[slot]));
}

/** Closes every session (idempotent). */
export async function closeAll(sessions: Session[]): Promise<void> {
  await Promise.all(sessions.map((s) => s.close()));
}

/** Runs `run` on the two sessions of a fresh 2-party room on `relay`, closing both afterwards. */
export async function withTwo<T>(relay: string, run: (sessions: Session[]) => Promise<T>): Promise<T> {
  const sessions = await connectTwo(relay, freshSecret());
  try {
    return await run(sessions);
  } finally {
    await closeAll(sessions);
  }
}
