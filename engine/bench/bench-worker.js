// One party of the engine benchmark in a Web Worker (bundled by chromium.mjs): the page sends
// {type:'run', engine, circuit, name, peer, input, port} and gets {ms, outputs, messages, bytes}
// back; the two parties' workers talk over the MessagePort the page gave them. {type:'warm',
// circuit} runs ChorusEngine's warm-up of the circuit in this worker's WASM module and answers
// {timeMs}.
import { Protocol } from 'mpc-framework';
import { EmpWasmEngine } from 'emp-wasm-engine';
import { ChorusEngine } from '@chorus/mpc-framework-engine';

const engines = {
  'chorus-wasm': () => new ChorusEngine({ runtime: 'wasm' }),
  emp: () => new EmpWasmEngine(),
};

self.onmessage = async ({ data }) => {
  if (data.type === 'warm') {
    try {
      const { timeMs, warmed } = await new ChorusEngine({ runtime: 'wasm' }).warmUp(data.circuit);
      self.postMessage(warmed ? { ok: true, timeMs } : { ok: false, error: 'the warm-up did not run' });
    } catch (error) {
      self.postMessage({ ok: false, error: String(error?.stack ?? error) });
    }
    return;
  }
  if (data.type !== 'run') return;
  const { engine, circuit, name, peer, input, port } = data;
  let messages = 0;
  let bytes = 0;
  try {
    const started = performance.now();
    const session = new Protocol(circuit, engines[engine]()).join(name, input, (_to, msg) => {
      messages += 1;
      bytes += msg.length;
      port.postMessage(msg);
    });
    port.onmessage = (event) => session.handleMessage(peer, event.data);
    const outputs = await session.output();
    self.postMessage({ ok: true, ms: performance.now() - started, outputs, messages, bytes });
  } catch (error) {
    self.postMessage({ ok: false, error: String(error?.stack ?? error) });
  } finally {
    port.close();
  }
};
