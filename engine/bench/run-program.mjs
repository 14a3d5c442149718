// One timed run of a program on an mpc-framework engine with both parties in this JS realm (a
// Node process, or a page), over an in-memory transport that counts what crosses it. Shared by the
// Node benchmark (scripts/bench-engine.mjs) and its Chromium page.

/**
 * Runs every party of `circuit` on `engine` with `inputs`; resolves with the wall time (setup
 * included: `Protocol.join` to every `output()`), the outputs of each party, and the transport's
 * counts: messages, bytes, and flights (maximal runs of messages in one direction: the rounds a
 * network would see).
 */
export async function timedRun(Protocol, engine, circuit, inputs) {
  const names = circuit.mpcSettings.map((p, i) => p.name ?? String(i));
  const protocol = new Protocol(circuit, engine);
  const sessions = {};
  let messages = 0;
  let bytes = 0;
  let flights = 0;
  let lastSender;
  const started = performance.now();
  for (const name of names) {
    sessions[name] = protocol.join(name, inputs[name], (to, msg) => {
      messages += 1;
      bytes += msg.length;
      if (name !== lastSender) {
        flights += 1;
        lastSender = name;
      }
      const copy = msg.slice();
      // The next turn of the event loop, like a socket's data event (setTimeout would add Node's
      // 1 ms clamp to every message, a latency no loopback transport has).
      setImmediate(() => sessions[to].handleMessage(name, copy));
    });
  }
  const outputs = await Promise.all(names.map((name) => sessions[name].output()));
  const ms = performance.now() - started;
  return { ms, outputs, messages, bytes, flights };
}

/** Median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
