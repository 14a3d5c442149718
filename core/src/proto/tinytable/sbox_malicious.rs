//! AES-128 with authenticated 8-bit S-box tables: the "optimized version" of TinyTable §5 with
//! malicious security from the §3 linear MAC scheme (k = 64) and the §3.3 batched opening.
//!
//! The lookups are those of the passive protocol ([`super::aes_tables`], §2.3): each party sends
//! its share of entry `e` of every table, `e` the public masked S-box input. Each sent entry `x_i`
//! is a MAC'd message of §3.2 (the sender holds `y_i = α·x_i + β_i` under the receiver's key), but
//! instead of sending `y_i` the sender accumulates `F(y_i)` and, with its last lookup message,
//! sends `H = ⊕ F(y_i)` over all 160·n entries it opened (§3.3). The receiver recomputes
//! `α·x_i + β_i` for every entry it received and compares the hashes. Only if they match does it
//! send its share of the (XOR-shared, MAC'd) output mask to the parties that learn the ciphertext,
//! whose check is again one batched hash.
//!
//! Rounds (asserted in tests), per party with the ciphertext revealed to both:
//! 1 input round + 10 lookup rounds + 1 output-opening round = **12**. §5 counts 10 + 2 "besides
//! the input phase" (a check round before and one after opening the result); we fold the first
//! check into lookup round 10 — a sender's hash covers only entries it sent itself, so it is known
//! before round 10's exchange, and nothing output-dependent has been released at that point because
//! the output mask is still shared. With `Reveal::To(p)` party `p` only receives in the output
//! round (11 sending rounds) and its peer only sends (12).
//!
//! Security against a malicious peer: any change of a sent table entry or output-mask share (or of
//! the hash) makes the check fail except with probability ≈ 2^{-64} (forging needs `α`; §3.2,
//! §3.3 in the random-permutation model for fixed-key AES), and then the honest party returns
//! [`TinyTableError::AuthenticationFailed`] without sending its output-mask share: a faulty
//! computation never reveals a ciphertext. The masked *inputs* are not authenticated — changing
//! them is input substitution, allowed in the ideal functionality. As in §5 the key owner inputs
//! the *expanded* key (11 masked round keys); a malicious key owner can therefore input round keys
//! that are not the schedule of any key (the paper's setting; computing the key schedule with 40
//! more tables would close this and is not implemented).
//!
//! Constant time: lookups index by public masked bytes; secret table entries and tags are read at
//! public indices; the verifier's `α·x` comes from a 256-entry table of multiples of its secret `α`
//! indexed by the peer's entry `x`, which the peer sent in the clear; hashes are compared by
//! XOR-fold.

use super::aes_tables::{
    initial_states, masked_inputs, next_round_state, round_major_keys, ROUND_KEYS, TABLE_ENTRIES,
};
use super::batch_open::BatchHash;
use super::error::{Step, TinyTableError};
use super::linear_mac::{byte_multiples, tags_equal, BYTE_TAG_MASK};
use super::msg::{check_two_parties, recv, send};
use super::prefetch::{prefetch, AHEAD};
use super::sbox_prep::{entry_index, entry_of, tag_of, MaliciousAesPrep, OUTPUT_INDEX};
use crate::aes::Block;
use crate::field::clmul::Backend;
use crate::net::Network;

/// Bytes of a batched-opening hash.
pub const HASH_BYTES: usize = 16;

/// The receiving side of a batched opening: recomputes the tags of the peer's opened values.
struct Verifier<'a> {
    prep: &'a MaliciousAesPrep,
    /// `α·x` for every byte `x` (indexed by the peer's public entries only).
    multiples: &'a [u128],
    hash: BatchHash,
}

impl Verifier<'_> {
    /// Absorbs the expected tags `α·x + β_i` of the peer's `values` at `indices` (projected onto
    /// [`BYTE_TAG_MASK`], as the peer's). Keys, tags and hash go chunk by chunk, so the
    /// intermediate values stay in L1.
    fn absorb(&mut self, indices: &[u64], values: &[u8]) {
        const CHUNK: usize = 256;
        let mut keys = [0u128; CHUNK];
        for (indices, values) in indices.chunks(CHUNK).zip(values.chunks(CHUNK)) {
            let keys = &mut keys[..indices.len()];
            self.prep.peer_keys.fill(indices, keys);
            for (k, &x) in keys.iter_mut().zip(values) {
                *k = (*k ^ self.multiples[usize::from(x)]) & BYTE_TAG_MASK;
            }
            self.hash.absorb(keys);
        }
    }

    fn matches(&self, received: &[u8]) -> bool {
        let theirs = u128::from_le_bytes(received.try_into().unwrap_or([0xff; 16]));
        tags_equal(u128::from_le_bytes(self.hash.digest()), theirs)
    }
}

/// Encrypts `prep.blocks()` blocks. `inputs[i]` is this party's input of block `i`: the AES-128 key
/// if it is the key owner, else the plaintext. Returns per block the ciphertext if it is revealed to
/// this party, after every MAC check passed.
pub async fn encrypt_batch<N: Network>(
    net: &mut N,
    prep: &MaliciousAesPrep,
    inputs: &[Block],
) -> Result<Vec<Option<Block>>, TinyTableError> {
    check_two_parties(net)?;
    let party = net.party();
    let mismatch = |reason: String| TinyTableError::PrepMismatch { party, reason };
    if prep.party != party {
        return Err(mismatch(format!("material is for party {}", prep.party)));
    }
    prep.check_shape().map_err(mismatch)?;
    let n = prep.blocks;
    if inputs.len() != n {
        return Err(TinyTableError::BadInput {
            party,
            instance: inputs.len().min(n),
            reason: format!("{} input blocks for {n} instances", inputs.len()),
        });
    }
    let key_owner = prep.key_owner == party;
    let mask_len = if key_owner { 16 * ROUND_KEYS } else { 16 };
    let my_msg = masked_inputs(key_owner, inputs, prep.input_masks.chunks_exact(mask_len));
    send(net, Step::Input, my_msg.clone())?;
    let their_msg = recv(net, Step::Input, n * if key_owner { 16 } else { 16 * ROUND_KEYS }).await?;
    let (key_msg, pt_msg) = if key_owner { (&my_msg, &their_msg) } else { (&their_msg, &my_msg) };
    let mut states = initial_states(key_msg, pt_msg);
    let round_keys = round_major_keys(key_msg, n);

    let multiples = byte_multiples(Backend::detect(), prep.alpha);
    let mut my_hash = BatchHash::new(&prep.hash_key);
    let mut verifier = Verifier { prep, multiples: &multiples, hash: BatchHash::new(&prep.hash_key) };
    let mut indices = vec![0u64; 16 * n];
    let mut my_tags = vec![0u128; 16 * n];
    for round in 1..ROUND_KEYS {
        let step = Step::SboxRound(round);
        let last = round == ROUND_KEYS - 1;
        for (i, (state, idx)) in states.iter().zip(indices.chunks_exact_mut(16)).enumerate() {
            let base = entry_index(i, 16 * (round - 1), 0);
            for (j, (&e, index)) in state.iter().zip(idx).enumerate() {
                *index = (base + TABLE_ENTRIES * j + usize::from(e)) as u64;
            }
        }
        // An entry and its tag share one word. The words of the block `AHEAD` blocks on are
        // prefetched while this one is read, so many independent cache misses are in flight.
        let mut mine = Vec::with_capacity(16 * n + if last { HASH_BYTES } else { 0 });
        let distance = 16 * AHEAD;
        for (p, (tag, &k)) in my_tags.iter_mut().zip(&indices).enumerate() {
            if let Some(&later) = indices.get(p + distance) {
                prefetch(&prep.entries[later as usize]);
            }
            let word = prep.entries[k as usize];
            mine.push(entry_of(word));
            *tag = tag_of(word);
        }
        my_hash.absorb(&my_tags);
        if last {
            mine.extend(my_hash.digest());
        }
        // The message goes to the transport; our entries are kept in the states meanwhile.
        for (state, entries) in states.iter_mut().zip(mine.chunks_exact(16)) {
            state.copy_from_slice(entries);
        }
        let len = mine.len();
        send(net, step, mine)?;
        let theirs = recv(net, step, len).await?;
        verifier.absorb(&indices, &theirs[..16 * n]);
        let keys = &round_keys[n * (round - 1)..][..n];
        for ((state, b), key) in states.iter_mut().zip(theirs.chunks_exact(16)).zip(keys) {
            state.iter_mut().zip(b).for_each(|(a, b)| *a ^= b);
            next_round_state(state, key, last);
        }
        if last && !verifier.matches(&theirs[16 * n..]) {
            return Err(TinyTableError::AuthenticationFailed { party, step: Step::SboxMacCheck });
        }
    }

    // Output opening: masks shares with one batched hash of their tags, only after the check.
    let peer = 1 - party;
    if prep.reveal.includes(peer) {
        let mut msg = prep.output_mask_shares.clone();
        let mut hash = BatchHash::new(&prep.hash_key);
        let tags: Vec<u128> = prep.output_mask_tags.iter().map(|t| t & BYTE_TAG_MASK).collect();
        hash.absorb(&tags);
        msg.extend(hash.digest());
        send(net, Step::OutputOpening, msg)?;
    }
    if !prep.reveal.includes(party) {
        return Ok(vec![None; n]);
    }
    let theirs = recv(net, Step::OutputOpening, 16 * n + HASH_BYTES).await?;
    let output_indices: Vec<u64> = (0..16 * n as u64).map(|i| OUTPUT_INDEX | i).collect();
    let mut check = Verifier { prep, multiples: &multiples, hash: BatchHash::new(&prep.hash_key) };
    check.absorb(&output_indices, &theirs[..16 * n]);
    if !check.matches(&theirs[16 * n..]) {
        return Err(TinyTableError::AuthenticationFailed { party, step: Step::OutputOpening });
    }
    Ok(states
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (m, t) = (&prep.output_mask_shares[16 * i..][..16], &theirs[16 * i..][..16]);
            Some(core::array::from_fn(|j| s[j] ^ m[j] ^ t[j]))
        })
        .collect())
}
