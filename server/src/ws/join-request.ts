/**
 * The join request of a WebSocket upgrade (`/ws?room=…&slot=…&token=…[&protocol=2][&resume=N]`),
 * its parsing, and the refusal close codes and messages.
 */
import { CloseCode, PROTOCOL_VERSION, type ErrorCode, type ErrorMessage } from "../protocol.js";
import type { JoinRefusal } from "../rooms.js";

/** Close code and message of each refusal of a join. */
export const REFUSALS: Record<JoinRefusal, { close: number; message: string }> = {
  "unknown-room": { close: CloseCode.UnknownRoom, message: "no such room (it may have expired or emptied)" },
  "bad-slot": { close: CloseCode.BadSlot, message: "slot is outside this room's range" },
  "bad-token": { close: CloseCode.BadToken, message: "token does not match this room slot" },
  "slot-taken": { close: CloseCode.SlotTaken, message: "another connection holds this slot" },
};

/** Query parameters of a join request, parsed but not yet checked against the rooms. */
export interface JoinRequest {
  room: string;
  slot: number;
  token: string;
  /** Protocol version the client speaks (1 when the URL names none). */
  protocol: number;
  /** Protocol 2 resume: the data frames the client received in the slot's session. */
  resume: number | undefined;
}

/** A join the relay refuses before looking at rooms. */
export interface JoinProblem {
  code: ErrorCode;
  close: number;
  message: string;
}

/** Parses the join query; `minProtocol` is the lowest version admitted. */
export function parseJoin(params: URLSearchParams, minProtocol: number): JoinRequest | JoinProblem {
  const bad = (message: string): JoinProblem => ({ code: "bad-request", close: CloseCode.BadRequest, message });
  const room = params.get("room");
  const slot = params.get("slot");
  const token = params.get("token");
  const protocolText = params.get("protocol");
  const resumeText = params.get("resume");
  if (room === null || room === "") return bad("missing query parameter 'room'");
  if (token === null || token === "") return bad("missing query parameter 'token'");
  if (slot === null || !/^\d{1,3}$/.test(slot)) return bad("query parameter 'slot' must be a decimal slot number");
  if (protocolText !== null && !/^\d{1,3}$/.test(protocolText)) {
    return bad("query parameter 'protocol' must be a decimal version number");
  }
  const protocol = protocolText === null ? 1 : Number(protocolText);
  if (protocol < minProtocol || protocol > PROTOCOL_VERSION) {
    const versions = Array.from({ length: PROTOCOL_VERSION - minProtocol + 1 }, (_, i) => minProtocol + i);
    return {
      code: "unsupported-protocol",
      close: CloseCode.UnsupportedProtocol,
      message: `this relay speaks protocol ${versions.join(" and ")}; the client asked for ${protocol}` +
        (protocolText === null ? " (no 'protocol' in the join URL): upgrade the client" : ""),
    };
  }
  let resume: number | undefined;
  if (resumeText !== null) {
    if (protocol < 2) return bad("'resume' needs protocol 2");
    if (!/^\d{1,15}$/.test(resumeText)) return bad("query parameter 'resume' must be a decimal frame count");
    resume = Number(resumeText);
  }
  return { room, slot: Number(slot), token, protocol, resume };
}

/** The JSON text of an error frame. */
export function errorFrame(code: ErrorCode, message: string, fatal: boolean, slot?: number): string {
  const frame: ErrorMessage = { type: "error", code, message, fatal };
  if (slot !== undefined) frame.slot = slot;
  return JSON.stringify(frame);
}
