/**
 * The demo's Summon page: a Summon program (an example, editable) compiled in the browser with
 * summon-ts, run by two parties through mpc-framework on ChorusEngine. Three ways to run it:
 *
 * - "Run both parties here": alice and bob in this page, over an in-memory transport;
 * - "Invite links": one page per party, anywhere, over the Chorus relay used as a plain message
 *   transport (a room of two; the engine's own encrypted channels run inside, keyed with the
 *   secret in the link's fragment, which browsers never send to a server);
 * - "Two tabs of this browser": one tab per party over a `BroadcastChannel` — no server at all.
 *
 * A party page is `summon.html?program=…&party=alice|bob&transport=relay|broadcast&…#secret=…`;
 * an edited source travels in the fragment too (`&source=`, base64url).
 */
import * as summon from 'summon-ts';
import { Protocol } from 'mpc-framework';
import { ChorusEngine } from '@chorus/mpc-framework-engine';
import { createRoom, RelayConnection } from '@chorus/sdk';
import { PROGRAMS, WIDTH } from './summon-programs.js';

const $ = (id) => document.getElementById(id);
const PARTIES = ['alice', 'bob'];
let circuit;

function show(element, message) {
  element.textContent = message;
  element.hidden = false;
}

function randomHex(bytes) {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}

const toBase64Url = (text) => btoa(String.fromCharCode(...new TextEncoder().encode(text))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64Url = (text) =>
  new TextDecoder().decode(Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)));

/** Compiles the source box; returns whether it compiled. */
async function compileSource() {
  $('compile-alert').hidden = true;
  try {
    await summon.init();
    ({ circuit } = summon.compile({ path: '/src/main.ts', boolifyWidth: WIDTH, files: { '/src/main.ts': $('source').value } }));
    const ands = circuit.bristol.split('\n').filter((line) => line.endsWith(' AND')).length;
    $('compiled').textContent = `Compiled: ${circuit.info.inputs.length} inputs, ${circuit.info.outputs.length} outputs, ${ands} AND gates (${WIDTH}-bit numbers).`;
    return true;
  } catch (error) {
    circuit = undefined;
    $('compiled').textContent = '';
    show($('compile-alert'), `Summon could not compile the program: ${error.message ?? error}`);
    return false;
  }
}

/** Input fields of `parties`, from the compiled circuit's settings, with the example's values. */
function renderInputs(parties, example) {
  const box = $('inputs');
  box.replaceChildren();
  for (const party of parties) {
    const settings = circuit.mpcSettings.find((p) => p.name === party);
    if (settings === undefined) continue;
    const group = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.textContent = `${party}'s inputs`;
    group.append(legend);
    for (const name of settings.inputs) {
      const info = circuit.info.inputs.find((i) => i.name === name);
      const field = document.createElement('div');
      field.className = 'field';
      const label = document.createElement('label');
      label.htmlFor = `input-${party}-${name}`;
      label.textContent = `${name} (${info.type === 'bool' ? 'true or false' : `a whole number below ${2 ** info.width}`})`;
      const input = document.createElement('input');
      input.id = `input-${party}-${name}`;
      input.dataset.party = party;
      input.dataset.name = name;
      input.dataset.type = info.type;
      input.value = String(example?.[party]?.[name] ?? '');
      field.append(label, input);
      group.append(field);
    }
    box.append(group);
  }
}

/** The inputs of `party` from its fields, or throws with a message naming the field. */
function readInputs(party) {
  const values = {};
  for (const input of document.querySelectorAll(`#inputs input[data-party="${party}"]`)) {
    const text = input.value.trim();
    if (input.dataset.type === 'bool') {
      if (text !== 'true' && text !== 'false') throw new Error(`${input.dataset.name}: enter true or false`);
      values[input.dataset.name] = text === 'true';
    } else {
      if (!/^-?\d+$/.test(text)) throw new Error(`${input.dataset.name}: enter a whole number`);
      values[input.dataset.name] = Number(text);
    }
  }
  return values;
}

function showResult(results, ms) {
  $('result-section').hidden = false;
  const list = $('outputs');
  list.replaceChildren();
  for (const [party, outputs] of results) {
    for (const [name, value] of Object.entries(outputs)) {
      const term = document.createElement('dt');
      term.textContent = `${name} (${party} learns)`;
      const detail = document.createElement('dd');
      detail.className = 'mono';
      detail.textContent = String(value);
      list.append(term, detail);
    }
  }
  $('costs').textContent = ms;
}

function costsOf(session, ms) {
  const report = session.report();
  if (report === undefined) return `${Math.round(ms)} ms`;
  const { stats, protocol, runtime } = report.result;
  return `${protocol} (${runtime}), ${Math.round(ms)} ms in all; this party sent ${(stats.bytesSent / 1024).toFixed(1)} KiB and received ${(stats.bytesReceived / 1024).toFixed(1)} KiB in ${stats.rounds} rounds.`;
}

/** Both parties in this page over an in-memory transport. */
async function runHere() {
  $('run-alert').hidden = true;
  if (!(await compileSource())) return;
  let inputs;
  try {
    inputs = Object.fromEntries(PARTIES.map((p) => [p, readInputs(p)]));
  } catch (error) {
    return show($('run-alert'), error.message);
  }
  $('status').textContent = 'Running both parties…';
  const protocol = new Protocol(circuit, new ChorusEngine({ secret: randomHex(32) }));
  const sessions = {};
  const started = performance.now();
  for (const party of PARTIES) {
    sessions[party] = protocol.join(party, inputs[party], (to, msg) => {
      const copy = msg.slice();
      setTimeout(() => sessions[to].handleMessage(party, copy), 0);
    });
  }
  try {
    const outputs = await Promise.all(PARTIES.map((p) => sessions[p].output()));
    const ms = performance.now() - started;
    showResult(PARTIES.map((p, i) => [p, outputs[i]]), costsOf(sessions.alice.engineSession, ms));
    $('status').textContent = 'Done.';
  } catch (error) {
    $('status').textContent = '';
    show($('run-alert'), `The run failed: ${error.message ?? error}`);
  }
}

/** The link of `party`'s page with `transport` parameters and the fragment. */
function partyLink(party, params, fragment) {
  const url = new URL('/summon.html', location.href);
  url.search = new URLSearchParams({ program: $('program').value, party, ...params }).toString();
  const program = PROGRAMS[$('program').value];
  const extra = $('source').value !== program.source ? { source: toBase64Url($('source').value) } : {};
  url.hash = new URLSearchParams({ ...fragment, ...extra }).toString();
  return url.toString();
}

function listLinks(links) {
  const list = $('links');
  list.replaceChildren();
  for (const [party, href] of links) {
    const item = document.createElement('li');
    const anchor = document.createElement('a');
    anchor.className = 'invite';
    anchor.href = href;
    anchor.target = '_blank';
    anchor.rel = 'noopener';
    anchor.textContent = `${party}: ${href}`;
    item.append(anchor);
    list.append(item);
  }
  list.hidden = false;
}

async function makeInvites() {
  $('run-alert').hidden = true;
  if (!(await compileSource())) return;
  try {
    const room = await createRoom({ relay: location.origin, parties: 2 });
    const secret = randomHex(32);
    listLinks(PARTIES.map((party, slot) => [party, partyLink(party, { transport: 'relay', room: room.room, slot: String(slot), token: room.tokens[slot] }, { secret })]));
  } catch (error) {
    show($('run-alert'), `Could not create a room on the relay: ${error.message ?? error}`);
  }
}

async function makeTabs() {
  if (!(await compileSource())) return;
  const channel = randomHex(8);
  const secret = randomHex(32);
  listLinks(PARTIES.map((party) => [party, partyLink(party, { transport: 'broadcast', channel }, { secret })]));
}

/**
 * The app's transport between the two party pages: `send(to, bytes)` and a handler for what
 * arrives; `ready` resolves once the other party is there.
 */
async function openTransport(params, party) {
  const peer = PARTIES.find((p) => p !== party);
  if (params.get('transport') === 'broadcast') {
    const channel = new BroadcastChannel(`chorus-summon-${params.get('channel')}`);
    let onMessage = () => undefined;
    let peerThere;
    const ready = new Promise((resolve) => (peerThere = resolve));
    let greeted = false;
    channel.onmessage = ({ data }) => {
      if (data.to !== party) return;
      if (data.type === 'here') {
        if (!greeted) channel.postMessage({ type: 'here', to: peer });
        greeted = true;
        peerThere();
      } else onMessage(data.from, data.bytes);
    };
    channel.postMessage({ type: 'here', to: peer });
    return {
      ready,
      send: (to, bytes) => channel.postMessage({ type: 'message', from: party, to, bytes }),
      listen: (handler) => (onMessage = handler),
    };
  }
  const slot = Number(params.get('slot'));
  const connection = await RelayConnection.open({
    relay: location.origin,
    room: params.get('room'),
    slot,
    token: params.get('token'),
    parties: 2,
  });
  let onMessage = () => undefined;
  connection.onFrame((from, bytes) => onMessage(PARTIES[from], bytes));
  return {
    ready: connection.ready(),
    send: (to, bytes) => connection.send(PARTIES.indexOf(to), bytes),
    listen: (handler) => (onMessage = handler),
  };
}

async function setupPartyPage(params) {
  const party = params.get('party');
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.has('source')) $('source').value = fromBase64Url(fragment.get('source'));
  $('source').readOnly = true;
  $('program').disabled = true;
  $('share-buttons').hidden = true;
  $('run-here').hidden = true;
  $('run').hidden = false;
  $('run').disabled = true;
  if (!(await compileSource())) return;
  renderInputs([party], PROGRAMS[params.get('program')]?.inputs);
  show($('party-note'), `You are ${party}. Your inputs stay in this page; the other party learns only the outputs.`);
  $('status').textContent = 'Waiting for the other party…';
  let transport;
  try {
    transport = await openTransport(params, party);
    await transport.ready;
  } catch (error) {
    return show($('run-alert'), `Could not reach the other party: ${error.message ?? error}`);
  }
  // Messages can arrive before this party presses Run: they wait for its session.
  const early = [];
  let session;
  transport.listen((from, bytes) => (session === undefined ? early.push([from, bytes]) : session.handleMessage(from, bytes)));
  $('status').textContent = 'The other party is here.';
  $('run').disabled = false;
  $('run').addEventListener('click', async () => {
    $('run-alert').hidden = true;
    let input;
    try {
      input = readInputs(party);
    } catch (error) {
      return show($('run-alert'), error.message);
    }
    $('run').disabled = true;
    $('status').textContent = 'Running…';
    const started = performance.now();
    const engine = new ChorusEngine({ secret: fragment.get('secret') ?? undefined });
    session = new Protocol(circuit, engine).join(party, input, (to, bytes) => transport.send(to, bytes));
    for (const [from, bytes] of early.splice(0)) session.handleMessage(from, bytes);
    try {
      const outputs = await session.output();
      showResult([[party, outputs]], costsOf(session.engineSession, performance.now() - started));
      $('status').textContent = 'Done.';
    } catch (error) {
      $('status').textContent = '';
      show($('run-alert'), `The run failed: ${error.message ?? error}`);
    }
  });
}

function setup() {
  const params = new URLSearchParams(location.search);
  const select = $('program');
  for (const [key, program] of Object.entries(PROGRAMS)) select.add(new Option(program.title, key));
  const chosen = PROGRAMS[params.get('program')] ? params.get('program') : 'millionaires';
  select.value = chosen;
  const load = async () => {
    const program = PROGRAMS[select.value];
    $('about').textContent = program.about;
    $('source').value = program.source;
    if (await compileSource()) renderInputs(PARTIES, program.inputs);
  };
  if (params.has('party')) {
    $('about').textContent = PROGRAMS[chosen].about;
    $('source').value = PROGRAMS[chosen].source;
    void setupPartyPage(params);
    return;
  }
  select.addEventListener('change', load);
  $('source').addEventListener('change', async () => {
    if (await compileSource()) renderInputs(PARTIES, PROGRAMS[select.value].inputs);
  });
  $('run-here').addEventListener('click', runHere);
  $('invite').addEventListener('click', makeInvites);
  $('tabs').addEventListener('click', makeTabs);
  void load();
}

setup();
