/**
 * The Chorus joint-AES browser demo. Served by the relay (`--static demo/dist`), so the room API,
 * the WebSocket and this page share one origin.
 *
 * Without invite parameters the page offers "Create a session" (POST /rooms, then one invite link
 * per party) and "Run all parties here" (one Web Worker per party in this tab). With an invite
 * (`?room=…&slot=…&token=…&parties=…#secret=…`) it is that party's page. The session secret travels
 * in the URL fragment, which browsers never send to a server; the relay token is in the query.
 *
 * Inputs are exactly one AES block: a key share is 32 hex digits; the plaintext is 32 hex digits,
 * or up to 16 bytes of UTF-8 text, zero-padded to 16 bytes. Every protocol run happens in a Web
 * Worker (`party-worker.js`), one per party.
 *
 * Protocols (chosen on the create view, carried in the invite as `protocol=`): MAESTRO (three
 * parties, honest majority; key shares from parties 0 and 1, plaintext from party 2; S-box
 * `variant=` and `security=`, by default the SDK's malicious LUT-16); TinyTable with OT
 * preprocessing (`tinytable`: two parties and nobody else — party 0 inputs the key, party 1 the
 * plaintext, and they make the preprocessing between themselves over oblivious transfer;
 * semi-honest); or TinyTable with a trusted dealer (`tinytable-dealer`, the weaker trust model:
 * slot 2 deals the preprocessing, knows every mask and must not collude with either party); or
 * MiniMac with a trusted dealer (`minimac-dealer`: the same roles, malicious with abort online,
 * the dealer knows the MAC key and every triple); or Coral (`coral`: two parties and nobody else,
 * RMFE-packed boolean circuits, malicious with abort, its material made over OT between them); or
 * Coral among three (`coral-3`: MAESTRO's roles — key shares from parties 0 and 1, the plaintext
 * from party 2 — but no honest majority and no dealer: the three make the material among
 * themselves over OT, and security holds while any one of them is honest); or TinyOT among three
 * (`tinyot-3`: the same roles and trust, the AES circuit on n-party TinyOT's authenticated bits
 * and AND triples, one AND layer per round — the fastest dealer-free run for one block).
 */
const PROTOCOLS = {
  maestro: {
    members: 3,
    keyHolders: [0, 1],
    plaintextOwner: 2,
    dealer: undefined,
  },
  tinytable: {
    protocol: 'tinytable',
    members: 2,
    preprocessing: 'ot',
    keyHolders: [0],
    plaintextOwner: 1,
    dealer: undefined,
    /** Spec agreement, OT setup and TinyOT triples, Fig. 8, the input exchange and 60 AND layers. */
    expectedRounds: 77,
    title: 'TinyTable (two parties, preprocessing over OT, semi-honest)',
  },
  'tinytable-dealer': {
    protocol: 'tinytable',
    members: 3,
    preprocessing: 'dealer',
    keyHolders: [0],
    plaintextOwner: 1,
    dealer: 2,
    /** Spec agreement, the dealer's material, the input exchange and 60 AND layers. */
    expectedRounds: 63,
    title: 'TinyTable with a trusted dealer (weaker trust model, semi-honest)',
  },
  'minimac-dealer': {
    protocol: 'minimac',
    members: 3,
    preprocessing: 'dealer',
    keyHolders: [0],
    plaintextOwner: 1,
    dealer: 2,
    /** Spec agreement, the dealer's triples, inputs, 60 multiplication rounds and the MAC checks. */
    expectedRounds: 70,
    title: 'MiniMac with a trusted dealer (weaker trust model, malicious with abort)',
  },
  coral: {
    protocol: 'coral',
    members: 2,
    preprocessing: 'ot',
    keyHolders: [0],
    plaintextOwner: 1,
    dealer: undefined,
    /** Spec agreement, the OT-based preprocessing (base OT, COPE, triples, checks), inputs and the online phase. */
    expectedRounds: 111,
    title: 'Coral (two parties, preprocessing over OT, malicious with abort)',
  },
  'coral-3': {
    protocol: 'coral',
    members: 3,
    preprocessing: 'ot',
    keyHolders: [0, 1],
    plaintextOwner: 2,
    dealer: undefined,
    /** Spec agreement, the three parties' OT-based preprocessing (n-party TinyOT, COPE between every pair, checks), inputs and the online phase. */
    expectedRounds: 177,
    title: 'Coral (three parties, preprocessing over OT among them, no dealer, malicious with abort)',
  },
  'tinyot-3': {
    protocol: 'tinyot',
    members: 3,
    preprocessing: 'ot',
    keyHolders: [0, 1],
    plaintextOwner: 2,
    dealer: undefined,
    /** Spec agreement, the three parties' OT setup, authenticated bits and triples (leaky ANDs, buckets), inputs and 60 AND layers. */
    expectedRounds: 108,
    title: 'TinyOT (three parties, preprocessing over OT among them, no dealer, malicious with abort)',
  },
};
/**
 * MAESTRO's choices, `variant:security` as in the variant selector, with the communication rounds
 * of one AES-128 block at party 0 (spec agreement, setup, preprocessing, inputs, key schedule, the
 * 10 AES rounds, verification when malicious, reveal) for the progress bars.
 */
const MAESTRO_CHOICES = {
  'lut16:malicious': 74,
  'gf16-circuit:malicious': 112,
  'gf256-circuit:malicious': 92,
  'lut256-33:malicious': 67,
  'lut256:malicious': 61,
  'gf256-circuit:semi-honest': 64,
  'gf16-circuit:semi-honest': 84,
  'lut16:semi-honest': 46,
  'lut256:semi-honest': 31,
  'lut256-33:semi-honest': 37,
};
const DEFAULT_CHOICE = 'lut16:malicious';
let protocol = 'maestro';
let variant = 'lut16';
let security = 'malicious';
const config = () => PROTOCOLS[protocol];
/** Session members of the chosen protocol. */
const members = () => config().members;
/** Whether the key is XOR-shared between two key holders (MAESTRO's roles). */
const sharedKey = () => config().keyHolders.length > 1;
const expectedRounds = () => (protocol === 'maestro' ? MAESTRO_CHOICES[`${variant}:${security}`] : config().expectedRounds);
/** The options every member passes to `session.aes` besides its own input. */
function jobOptions() {
  const { keyHolders, plaintextOwner, preprocessing } = config();
  return protocol === 'maestro'
    ? { protocol, variant, security, keyHolders, plaintextOwner }
    : { protocol: config().protocol, preprocessing, keyHolders, plaintextOwner };
}

const $ = (id) => document.getElementById(id);

function hexOf(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function bytesOfHex(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function randomHex(bytes) {
  return hexOf(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** Checks one block of hex; returns an error message, or undefined when valid. */
function hexBlockProblem(value, what) {
  if (value.length === 0) return `Enter the ${what}: 32 hex digits (16 bytes).`;
  if (!/^[0-9a-fA-F]*$/.test(value)) return `The ${what} must contain only hex digits 0-9 and a-f.`;
  if (value.length !== 32) return `The ${what} must be exactly 32 hex digits (16 bytes); it has ${value.length}.`;
  return undefined;
}

/** The plaintext block as hex from the party's input, or `{ problem }`. */
function plaintextBlock(value, format) {
  if (format === 'hex') {
    const problem = hexBlockProblem(value, 'plaintext');
    return problem ? { problem } : { hex: value.toLowerCase() };
  }
  const bytes = new TextEncoder().encode(value);
  if (bytes.length === 0) return { problem: 'Enter the plaintext: up to 16 bytes of text.' };
  if (bytes.length > 16) return { problem: `The text is ${bytes.length} bytes in UTF-8; one AES block holds at most 16.` };
  const block = new Uint8Array(16);
  block.set(bytes);
  return { hex: hexOf(block) };
}

function showAlert(element, message) {
  element.textContent = message;
  element.hidden = false;
}

function hideAlert(element) {
  element.textContent = '';
  element.hidden = true;
}

function roleOf(slot) {
  const { keyHolders, plaintextOwner, dealer } = config();
  if (keyHolders.includes(slot)) {
    return keyHolders.length > 1 ? 'key holder: inputs one XOR share of the AES key' : 'key holder: inputs the AES key';
  }
  if (slot === plaintextOwner) return 'plaintext owner: inputs the 16-byte plaintext block';
  if (slot === dealer) return 'trusted dealer: deals the preprocessing, sees no input and no output, and must not collude with either party';
  return 'helper';
}

function shortRole(slot) {
  const { keyHolders, plaintextOwner, dealer } = config();
  if (keyHolders.includes(slot)) return 'key holder';
  if (slot === plaintextOwner) return 'plaintext owner';
  return slot === dealer ? 'trusted dealer' : 'helper';
}

function inviteUrl(room, slot, token, secret) {
  const query = new URLSearchParams({ room, slot: String(slot), token, parties: String(members()), protocol });
  if (protocol === 'maestro') {
    query.set('variant', variant);
    query.set('security', security);
  }
  return `${location.origin}/?${query}#secret=${secret}`;
}

async function createRoom() {
  const response = await fetch('/rooms', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ parties: members() }),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(`the relay refused to create a room (${response.status} ${body.error ?? ''}): ${body.message ?? ''}`);
  return body;
}

/**
 * Starts a party's worker and joins the room. For a MAESTRO job (`job`: its options) the worker
 * warms its WASM up for the job while the room fills, so that the job runs optimized code from its
 * first round; jobs with OT preprocessing optimize within themselves, and a warm-up would cost
 * seconds there (see `Session.warmUp`).
 */
function spawnParty(invite, secret, onMessage, job) {
  const worker = new Worker('/party-worker.js', { type: 'module', name: `party ${invite.slot}` });
  worker.addEventListener('message', (event) => onMessage(event.data));
  worker.addEventListener('error', (event) => onMessage({ type: 'error', kind: 'worker', message: `The party worker failed: ${event.message}` }));
  const warmUp = job?.protocol === 'maestro' ? { job: 'aes', ...job } : undefined;
  worker.postMessage({ type: 'connect', invite, secret, warmUp });
  return worker;
}

// ---- Create view -------------------------------------------------------------------------------

function readProtocolChoice() {
  const checked = document.querySelector('input[name="protocol"]:checked')?.value;
  protocol = checked in PROTOCOLS ? checked : 'maestro';
  [variant, security] = (MAESTRO_CHOICES[$('variant').value] === undefined ? DEFAULT_CHOICE : $('variant').value).split(':');
  $('variant').disabled = protocol !== 'maestro';
  $('local-key-label').textContent = sharedKey()
    ? 'AES-128 key (32 hex digits; split into two random shares)'
    : 'AES-128 key (32 hex digits; party 0 inputs it)';
}

function setupCreateView() {
  $('create-view').hidden = false;
  for (const radio of document.querySelectorAll('input[name="protocol"]')) radio.addEventListener('change', readProtocolChoice);
  $('variant').addEventListener('change', readProtocolChoice);
  readProtocolChoice();
  $('create').addEventListener('click', async () => {
    const alert = $('create-alert');
    hideAlert(alert);
    $('create').disabled = true;
    try {
      const room = await createRoom();
      const secret = randomHex(32);
      const list = $('invites');
      list.replaceChildren();
      for (let slot = 0; slot < members(); slot++) {
        const url = inviteUrl(room.room, slot, room.tokens[slot], secret);
        const item = document.createElement('li');
        const title = document.createElement('strong');
        title.textContent = `${slot === config().dealer ? 'Dealer' : 'Party'} ${slot} (${shortRole(slot)}): `;
        const link = document.createElement('a');
        link.href = url;
        link.target = '_blank';
        link.rel = 'noopener';
        link.className = 'invite mono';
        link.dataset.slot = String(slot);
        link.textContent = url;
        item.append(title, link);
        list.append(item);
      }
      list.hidden = false;
      $('invite-note').hidden = false;
    } catch (error) {
      showAlert(alert, `Could not create a session: ${error.message}`);
    } finally {
      $('create').disabled = false;
    }
  });
  $('run-local').addEventListener('click', runAllHere);
}

async function referenceCiphertext(keyHex, plaintextHex) {
  // AES-CBC with a zero IV on one block is AES-ECB of that block; the padding block is dropped.
  const key = await crypto.subtle.importKey('raw', bytesOfHex(keyHex), 'AES-CBC', false, ['encrypt']);
  const out = await crypto.subtle.encrypt({ name: 'AES-CBC', iv: new Uint8Array(16) }, key, bytesOfHex(plaintextHex));
  return hexOf(new Uint8Array(out).slice(0, 16));
}

let localWorkers = [];

async function runAllHere() {
  const alert = $('local-alert');
  hideAlert(alert);
  const keyHex = $('local-key').value.trim().toLowerCase();
  const plaintextHex = $('local-plaintext').value.trim().toLowerCase();
  const problem = hexBlockProblem(keyHex, 'key') ?? hexBlockProblem(plaintextHex, 'plaintext');
  $('local-key').setAttribute('aria-invalid', String(hexBlockProblem(keyHex, 'key') !== undefined));
  $('local-plaintext').setAttribute('aria-invalid', String(hexBlockProblem(plaintextHex, 'plaintext') !== undefined));
  if (problem) return showAlert(alert, problem);

  for (const worker of localWorkers) worker.terminate();
  localWorkers = [];
  const button = $('run-local');
  button.disabled = true;
  $('local-result').hidden = true;
  readProtocolChoice();
  const rounds = expectedRounds();
  const share0 = sharedKey() ? randomHex(16) : keyHex;
  const share1 = hexOf(bytesOfHex(keyHex).map((k, i) => k ^ bytesOfHex(share0)[i]));
  const options = jobOptions();
  const inputs = sharedKey()
    ? [{ ...options, key: share0 }, { ...options, key: share1 }, { ...options, plaintext: plaintextHex }]
    : [{ ...options, key: keyHex }, { ...options, plaintext: plaintextHex }, options].slice(0, members());
  const parties = members();
  const cards = $('local-parties');
  cards.replaceChildren();
  try {
    const room = await createRoom();
    const secret = randomHex(32);
    const results = await new Promise((resolve, reject) => {
      const done = new Array(parties);
      let finished = 0;
      for (let slot = 0; slot < parties; slot++) {
        const card = document.createElement('div');
        card.className = 'party-card';
        const name = slot === config().dealer ? `Dealer ${slot} (trusted)` : `Party ${slot}`;
        card.innerHTML = `<strong>${name}</strong> <span class="state">connecting…</span>
          <progress max="${rounds}" value="0" aria-label="Party ${slot} rounds"></progress>
          <span class="numbers mono"></span>`;
        cards.append(card);
        const invite = { relay: location.origin, room: room.room, slot, token: room.tokens[slot], parties };
        const worker = spawnParty(invite, secret, (message) => {
          const state = card.querySelector('.state');
          if (message.type === 'ready') {
            state.textContent = 'running';
            worker.postMessage({ type: 'run', input: inputs[slot] });
          } else if (message.type === 'progress') {
            card.querySelector('progress').value = Math.min(message.round, rounds);
            card.querySelector('.numbers').textContent = `${message.bytesSent} B sent, round ${message.round}`;
          } else if (message.type === 'result') {
            state.textContent = 'done';
            card.querySelector('progress').value = rounds;
            card.querySelector('.numbers').textContent =
              `${message.stats.bytesSent} B sent, ${message.stats.bytesReceived} B received, ${message.stats.rounds} rounds, ${Math.round(message.stats.timeMs)} ms`;
            done[slot] = message;
            if (++finished === parties) resolve(done);
          } else if (message.type === 'error') {
            state.textContent = 'failed';
            reject(new Error(`party ${slot}: ${message.message}`));
          }
        }, options);
        localWorkers.push(worker);
      }
    });
    const ciphertexts = new Set(results.filter((_, slot) => slot !== config().dealer).map((r) => r.ciphertextHex));
    if (ciphertexts.size !== 1) throw new Error(`the parties disagree on the ciphertext: ${[...ciphertexts].join(', ')}`);
    const ciphertext = results[0].ciphertextHex;
    const reference = await referenceCiphertext(hexOf(bytesOfHex(share0).map((s, i) => s ^ bytesOfHex(share1)[i])), plaintextHex);
    $('local-ciphertext').textContent = ciphertext;
    $('local-reference').textContent = reference;
    const check = $('local-check');
    check.textContent = ciphertext === reference ? 'match' : 'MISMATCH';
    check.className = ciphertext === reference ? 'ok' : 'bad';
    $('local-result').hidden = false;
  } catch (error) {
    showAlert(alert, `The joint computation failed: ${error.message}`);
    for (const worker of localWorkers) worker.terminate();
    localWorkers = [];
  } finally {
    button.disabled = false;
  }
}

// ---- Party view --------------------------------------------------------------------------------

function parseInvite() {
  const query = new URLSearchParams(location.search);
  if (!query.has('room')) return undefined;
  const secret = new URLSearchParams(location.hash.slice(1)).get('secret') ?? '';
  const slot = Number(query.get('slot'));
  const parties = Number(query.get('parties') ?? 3);
  const invite = { relay: location.origin, room: query.get('room') ?? '', slot, token: query.get('token') ?? '', parties };
  const chosen = query.get('protocol') ?? 'maestro';
  if (!(chosen in PROTOCOLS)) return { problem: `This invite link names an unknown protocol (${chosen}).` };
  protocol = chosen;
  [variant, security] = DEFAULT_CHOICE.split(':');
  variant = query.get('variant') ?? variant;
  security = query.get('security') ?? security;
  if (protocol === 'maestro' && MAESTRO_CHOICES[`${variant}:${security}`] === undefined) {
    return { problem: `This invite link names a MAESTRO variant and security level the demo does not offer (${variant}, ${security}).` };
  }
  if (!Number.isInteger(slot) || slot < 0 || slot >= parties) return { problem: 'This invite link has no valid party number.' };
  if (parties !== members()) {
    return { problem: `This demo runs ${protocol} in ${members()}-member sessions; the link is for ${parties}.` };
  }
  if (!/^[0-9a-f]{32,}$/i.test(secret)) return { problem: 'This invite link lacks the session secret (the part after #). Ask for the full link.' };
  return { invite, secret };
}

function renderRoster(roster, me) {
  const list = $('roster');
  list.replaceChildren();
  for (let slot = 0; slot < members(); slot++) {
    const on = roster.includes(slot);
    const item = document.createElement('li');
    item.className = on ? 'on' : 'off';
    item.dataset.slot = String(slot);
    const name = slot === config().dealer ? `Dealer ${slot}` : `Party ${slot}`;
    item.textContent = `${name}${slot === me ? ' (you)' : ''}: ${on ? 'connected' : 'not connected'}`;
    list.append(item);
  }
}

function setupPartyView(parsed) {
  $('party-view').hidden = false;
  const alert = $('party-alert');
  if (parsed.problem) {
    $('status').textContent = '';
    return showAlert(alert, parsed.problem);
  }
  const { invite, secret } = parsed;
  const me = invite.slot;
  const isKeyHolder = config().keyHolders.includes(me);
  const isDealer = me === config().dealer;
  const rounds = expectedRounds();
  $('progress').max = rounds;
  $('progress-text').textContent = `0 / ${rounds}`;
  document.title = `Chorus — party ${me}`;
  $('party-title').textContent = `Party ${me}`;
  const name = protocol === 'maestro' ? `MAESTRO (${variant}, ${security})` : config().title;
  $('party-role').textContent = `${name}. You are the ${roleOf(me)}. Room ${invite.room}.`;
  const format = $('plaintext-format');
  if (isDealer) {
    $('input-field').hidden = true;
  } else if (isKeyHolder) {
    $('input-label').textContent = config().keyHolders.length > 1 ? 'Your key share (32 hex digits)' : 'The AES-128 key (32 hex digits)';
    $('input-help').textContent = 'One XOR share of the AES-128 key; the other key holder has the other share.';
  } else {
    $('input-label').textContent = 'Plaintext (one 16-byte block)';
    format.hidden = false;
    const help = () => {
      $('input-help').textContent = format.value === 'hex'
        ? '32 hex digits (16 bytes).'
        : 'Up to 16 bytes of text (UTF-8), zero-padded to 16 bytes.';
    };
    format.addEventListener('change', help);
    help();
  }
  renderRoster([], me);

  let ready = false;
  let running = false;
  let finished = false;
  const worker = spawnParty(invite, secret, (message) => {
    if (message.type === 'roster') {
      renderRoster(message.roster, me);
    } else if (message.type === 'ready') {
      ready = true;
      renderRoster(Array.from({ length: members() }, (_, slot) => slot), me);
      $('run').disabled = false;
      $('status').textContent = 'All parties are connected. Enter your input and press Run.';
    } else if (message.type === 'peer-left') {
      renderRoster(message.roster, me);
      if (!finished) {
        showAlert(alert, `Party ${message.slot} left the session; the computation cannot finish. Create a new session to try again.`);
        $('run').disabled = true;
        $('status').textContent = 'Session ended.';
      }
    } else if (message.type === 'progress') {
      $('progress').value = Math.min(message.round, rounds);
      $('progress-text').textContent = `${message.round} / ${rounds}`;
      $('stat-sent').textContent = String(message.bytesSent);
      $('stat-received').textContent = String(message.bytesReceived);
      $('stat-rounds').textContent = String(message.round);
      $('stat-elapsed').textContent = `${Math.round(message.elapsedMs)} ms`;
    } else if (message.type === 'result') {
      finished = true;
      $('progress').value = rounds;
      $('progress-text').textContent = `done in ${message.stats.rounds} rounds`;
      $('stat-sent').textContent = String(message.stats.bytesSent);
      $('stat-received').textContent = String(message.stats.bytesReceived);
      $('stat-rounds').textContent = String(message.stats.rounds);
      $('stat-elapsed').textContent = `${Math.round(message.stats.timeMs)} ms`;
      $('ciphertext').textContent = message.ciphertextHex ?? 'not revealed to this party';
      $('status').textContent = 'Done.';
    } else if (message.type === 'error') {
      if (!finished) showAlert(alert, message.message);
      $('run').disabled = true;
      $('status').textContent = 'Session ended.';
      worker.terminate();
    }
  }, jobOptions());

  $('party-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!ready || running) return;
    hideAlert(alert);
    const field = $('party-input');
    const value = field.value.trim();
    let input;
    let problem;
    if (isDealer) {
      input = {};
    } else if (isKeyHolder) {
      problem = hexBlockProblem(value, 'key share');
      input = { key: value.toLowerCase() };
    } else {
      const block = plaintextBlock(format.value === 'hex' ? value : field.value, format.value);
      problem = block.problem;
      input = { plaintext: block.hex };
    }
    field.setAttribute('aria-invalid', String(problem !== undefined));
    if (problem) {
      showAlert(alert, problem);
      field.focus();
      return;
    }
    input = { ...jobOptions(), ...input };
    running = true;
    $('run').disabled = true;
    field.readOnly = true;
    $('status').textContent = 'Running: waiting for the other parties…';
    worker.postMessage({ type: 'run', input });
  });
}

const parsed = parseInvite();
if (parsed === undefined) setupCreateView();
else setupPartyView(parsed);
