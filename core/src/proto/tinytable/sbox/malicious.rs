//! AES-128 with authenticated 8-bit S-box tables: the "optimized version" of TinyTable §5 with
//! malicious security from the §3 linear MAC scheme (k = 64) and the §3.3 batched opening.
//!
//! The lookups are those of the passive protocol ([`crate::proto::tinytable::sbox::tables`], §2.3): each party sends
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
//! round (11 sending rounds) and its peer only sends (12). Batches of at least
//! `2 · lanes::MIN_LANE_BLOCKS` blocks run their lookup rounds over two lanes ([`crate::proto::tinytable::sbox::lanes`]):
//! the same bytes in twice the messages, the hash with the last lane's round-10 message, and the
//! network's counter sees 1 + (1 + 2·9) + 1 rounds (the latency stays that of one lane's chain).
//!
//! Schedule of the local work (TinyTable §3.3 allows it because the batched hash is an XOR of
//! independent terms `F(y_i)`, in any order and split in any way): a round's message of a lane
//! reads this party's entries and absorbs their tags into its own hash in the same pass
//! ([`openings`]) that recomputes the tags `α·x_i ⊕ β_i` of the peer's entries of the lane's
//! *previous* round and absorbs them into the verifier's hash; so the random reads of one round
//! overlap the AES work of two. Round 10's peer entries are verified when they arrive, and the
//! hashes are compared after the last lane's.
//!
//! Security against a malicious peer: any change of a sent table entry or output-mask share (or of
//! the hash) makes the check fail except with probability ≈ 2^{-64} (forging needs `α`; §3.2,
//! §3.3 in the random-permutation model for fixed-key AES), and then the honest party returns
//! [`TinyTableError::AuthenticationFailed`] without sending its output-mask share: a faulty
//! computation never reveals a ciphertext. The masked *inputs* are not authenticated — changing
//! them is input substitution, allowed in the ideal functionality. As in §5 the key owner inputs
//! the *expanded* key (11 masked round keys) in [`encrypt_batch`]; a malicious key owner can
//! therefore input round keys that are not the schedule of any key (the paper's setting). With an
//! XOR-shared key ([`encrypt_batch_shared_key`]) the schedule runs on 40 more authenticated tables
//! per block ([`super::schedule`], 10 more rounds before the cipher's), so the round keys are
//! always the schedule of the key the two shares define.
//!
//! Constant time: lookups index by public masked bytes; secret table entries and tags are read at
//! public indices; the verifier's `α·x` comes from a 256-entry table of multiples of its secret `α`
//! indexed by the peer's entry `x`, which the peer sent in the clear; hashes are compared by
//! XOR-fold.

use crate::aes::{Block, Direction};
use crate::net::{Network, PartyId};
use crate::proto::tinytable::error::{Step, TinyTableError};
use crate::proto::tinytable::mac::batch_open::BatchHash;
use crate::proto::tinytable::mac::linear::{tags_equal, BYTE_TAG_MASK};
use crate::proto::tinytable::msg::{check_two_parties, recv, send};
use crate::proto::tinytable::sbox::lanes::{lanes, run_lanes, LaneRounds};
use crate::proto::tinytable::sbox::prep::MaliciousAesPrep;
use crate::proto::tinytable::sbox::schedule::masked_round_keys;
use crate::proto::tinytable::sbox::tables::{
    initial_states, masked_inputs, next_round_state, round_major_keys, ROUND_KEYS,
};
use core::ops::Range;
use openings::{Backend, Gather, Lookups, Openings, Verify};

mod openings;

/// Bytes of a batched-opening hash.
pub const HASH_BYTES: usize = 16;

/// The S-box rounds of one party on ranges of blocks (a whole batch, or a lane of it): the work
/// of a round's message ([`Self::message`]) and of the peer's ([`Self::absorb`]). The peer's
/// entries of round `r` are verified while this party reads its entries of round `r + 1`, in one
/// pass ([`Openings::pass`]); round 10's are verified when they arrive.
struct SboxRounds<'a> {
    party: PartyId,
    direction: Direction,
    blocks: usize,
    openings: Openings<'a>,
    /// Masked round keys 1..=10, round-major ([`round_major_keys`]).
    round_keys: Vec<[u8; 16]>,
    /// `inputs[r % 2]`: the masked S-box inputs of round `r`, per block (round `r − 1`'s are kept
    /// until the peer's entries of that round have been verified).
    inputs: [Vec<[u8; 16]>; 2],
    /// This party's entries of its latest round, per block.
    mine: Vec<[u8; 16]>,
    /// The peer's entries of its latest round, per block (verified with the next round's reads).
    theirs: Vec<[u8; 16]>,
    /// Masked states after round 10, per block.
    outputs: Vec<[u8; 16]>,
    /// Blocks whose round-10 entries have been verified.
    verified_last: usize,
}

impl LaneRounds for SboxRounds<'_> {
    /// Bytes of this party's (and the peer's) message of `round` for `lane`: 16 per block, plus
    /// the hash with round 10's message of the lane that ends the batch.
    fn expected_len(&self, lane: Range<usize>, round: usize) -> usize {
        let hash = round == ROUND_KEYS - 1 && lane.end == self.blocks;
        16 * lane.len() + if hash { HASH_BYTES } else { 0 }
    }

    /// This party's message of `round` for the blocks of `lane`: its entries, and with the last
    /// lane of round 10 the hash `H` of all its opened tags (§3.3). Verifies the peer's entries
    /// of round `round − 1` of the lane in the same pass.
    fn message(&mut self, lane: Range<usize>, round: usize) -> Result<Vec<u8>, TinyTableError> {
        let (cur, prev) = split_rounds(&mut self.inputs, round);
        let gather = Gather { round, inputs: cur, out: &mut self.mine };
        let verify = (round > 1).then(|| Verify {
            lookups: Lookups::Round { round: round - 1, inputs: prev },
            theirs: &self.theirs,
        });
        self.openings.pass(lane.clone(), Some(gather), verify);
        let len = self.expected_len(lane.clone(), round);
        let mut msg = Vec::with_capacity(len);
        msg.extend_from_slice(self.mine[lane].as_flattened());
        if len > msg.len() {
            msg.extend(self.openings.sent_digest());
        }
        Ok(msg)
    }

    /// Takes the peer's message of `round` for `lane` (length checked by the caller): the states
    /// of the next round, and in round 10 the verification of the lane's entries and, after the
    /// last lane, the check of the peer's hash.
    fn absorb(&mut self, lane: Range<usize>, round: usize, theirs: Vec<u8>) -> Result<(), TinyTableError> {
        let last = round == ROUND_KEYS - 1;
        let keys = &self.round_keys[self.blocks * (round - 1)..][..self.blocks];
        let next = if last { &mut self.outputs } else { &mut self.inputs[(round + 1) % 2] };
        for (i, b) in lane.clone().zip(theirs.chunks_exact(16)) {
            let t = &mut self.theirs[i];
            t.copy_from_slice(b);
            let state = &mut next[i];
            *state = core::array::from_fn(|j| self.mine[i][j] ^ t[j]);
            next_round_state(self.direction, state, &keys[i], last);
        }
        if last {
            let verify = Verify {
                lookups: Lookups::Round { round, inputs: &self.inputs[round % 2] },
                theirs: &self.theirs,
            };
            self.openings.pass(lane.clone(), None, Some(verify));
            self.verified_last += lane.len();
            if self.verified_last == self.blocks {
                let hash = theirs.get(16 * lane.len()..).unwrap_or_default();
                if !digests_match(&self.openings.expected_digest(), hash) {
                    let party = self.party;
                    return Err(TinyTableError::AuthenticationFailed { party, step: Step::SboxMacCheck });
                }
            }
        }
        Ok(())
    }
}

/// `(inputs of round r, inputs of round r − 1)` from the two alternating buffers.
fn split_rounds(inputs: &mut [Vec<[u8; 16]>; 2], round: usize) -> (&[[u8; 16]], &[[u8; 16]]) {
    let [even, odd] = inputs;
    if round.is_multiple_of(2) {
        (even, odd)
    } else {
        (odd, even)
    }
}

/// Whether a received 16-byte hash equals the expected one (without early exit; a hash of any
/// other length never matches).
fn digests_match(expected: &[u8; 16], received: &[u8]) -> bool {
    let theirs = u128::from_le_bytes(received.try_into().unwrap_or([0xff; 16]));
    let ok = tags_equal(u128::from_le_bytes(*expected), theirs);
    ok && received.len() == HASH_BYTES
}

/// Checks `prep` against this party and a batch of `inputs` blocks of the key kind
/// `shared_key`; returns this party's id.
fn check_material<N: Network>(
    net: &N,
    prep: &MaliciousAesPrep,
    inputs: usize,
    shared_key: bool,
) -> Result<PartyId, TinyTableError> {
    check_two_parties(net)?;
    let party = net.party();
    let mismatch = |reason: String| TinyTableError::PrepMismatch { party, reason };
    if prep.party != party {
        return Err(mismatch(format!("material is for party {}", prep.party)));
    }
    prep.check_shape().map_err(mismatch)?;
    if prep.shared_key() != shared_key {
        let kind =
            |shared: bool| if shared { "an XOR-shared key" } else { "a key input expanded by its owner" };
        return Err(mismatch(format!(
            "material is for {}, the call for {}",
            kind(prep.shared_key()),
            kind(shared_key)
        )));
    }
    let n = prep.blocks;
    if inputs != n {
        return Err(TinyTableError::BadInput {
            party,
            instance: inputs.min(n),
            reason: format!("{inputs} input blocks for {n} instances"),
        });
    }
    Ok(party)
}

/// Encrypts `prep.blocks()` blocks (decrypts them, with material made for decryption). `inputs[i]`
/// is this party's input of block `i`: the AES-128 key if it is the key owner, else the plaintext
/// (ciphertext). Returns per block the output if it is revealed to this party, after every MAC
/// check passed.
pub async fn encrypt_batch<N: Network>(
    net: &mut N,
    prep: &MaliciousAesPrep,
    inputs: &[Block],
) -> Result<Vec<Option<Block>>, TinyTableError> {
    let party = check_material(net, prep, inputs.len(), false)?;
    let n = prep.blocks;
    let key_owner = prep.key_owner == party;
    let mask_len = if key_owner { 16 * ROUND_KEYS } else { 16 };
    let my_msg = masked_inputs(prep.direction, key_owner, inputs, prep.input_masks.chunks_exact(mask_len));
    send(net, Step::Input, my_msg.clone())?;
    let their_msg = recv(net, Step::Input, n * if key_owner { 16 } else { 16 * ROUND_KEYS }).await?;
    let (key_msg, pt_msg) = if key_owner { (&my_msg, &their_msg) } else { (&their_msg, &my_msg) };
    cipher_rounds(net, prep, key_msg, pt_msg).await
}

/// [`encrypt_batch`] with an XOR-shared key, on material with the key-schedule tables
/// ([`super::schedule`]): `key_shares[i]` is this party's share of block `i`'s key, and
/// `plaintexts[i]` its plaintext (ciphertext) at the plaintext owner (empty at the other party).
/// The input round carries the masked key shares (and plaintexts), ten key-schedule rounds turn
/// them into masked round keys, and the cipher's rounds follow as in [`encrypt_batch`].
pub async fn encrypt_batch_shared_key<N: Network>(
    net: &mut N,
    prep: &MaliciousAesPrep,
    key_shares: &[Block],
    plaintexts: &[Block],
) -> Result<Vec<Option<Block>>, TinyTableError> {
    let party = check_material(net, prep, key_shares.len(), true)?;
    let n = prep.blocks;
    let plaintext_owner = prep.key_owner != party;
    if plaintexts.len() != if plaintext_owner { n } else { 0 } {
        return Err(TinyTableError::BadInput {
            party,
            instance: plaintexts.len().min(n),
            reason: format!("{} plaintext blocks at party {party} for {n} instances", plaintexts.len()),
        });
    }
    let per_block = prep.input_bytes();
    let mut my_msg = Vec::with_capacity(per_block * n);
    for (i, masks) in prep.input_masks.chunks_exact(per_block).enumerate() {
        my_msg.extend(key_shares[i].iter().zip(masks).map(|(k, m)| k ^ m));
        if plaintext_owner {
            my_msg.extend(plaintexts[i].iter().zip(&masks[16..]).map(|(x, m)| x ^ m));
        }
    }
    send(net, Step::Input, my_msg.clone())?;
    let their_msg = recv(net, Step::Input, n * prep.input_masks_of(1 - party)).await?;
    let (pt_side, key_side) = if plaintext_owner { (&my_msg, &their_msg) } else { (&their_msg, &my_msg) };
    let mut masked_keys = Vec::with_capacity(n);
    let mut pt_msg = Vec::with_capacity(16 * n);
    for (pt_block, key_share) in pt_side.chunks_exact(32).zip(key_side.chunks_exact(16)) {
        masked_keys.push(core::array::from_fn(|j| pt_block[j] ^ key_share[j]));
        pt_msg.extend_from_slice(&pt_block[16..]);
    }
    let schedule = prep.schedule.as_ref().expect("checked: shared-key material");
    let key_msg = masked_round_keys(net, prep, schedule, &masked_keys).await?;
    cipher_rounds(net, prep, &key_msg, &pt_msg).await
}

/// The cipher's ten lookup rounds and the output opening, from the masked round keys (`key_msg`,
/// 176 bytes per block) and the masked plaintexts (`pt_msg`, 16 per block).
async fn cipher_rounds<N: Network>(
    net: &mut N,
    prep: &MaliciousAesPrep,
    key_msg: &[u8],
    pt_msg: &[u8],
) -> Result<Vec<Option<Block>>, TinyTableError> {
    let party = net.party();
    let n = prep.blocks;
    let backend = Backend::detect();
    let mut rounds = SboxRounds {
        party,
        direction: prep.direction,
        blocks: n,
        openings: Openings::new(prep, backend),
        round_keys: round_major_keys(key_msg, n),
        inputs: [vec![[0u8; 16]; n], initial_states(key_msg, pt_msg)],
        mine: vec![[0u8; 16]; n],
        theirs: vec![[0u8; 16]; n],
        outputs: vec![[0u8; 16]; n],
        verified_last: 0,
    };
    run_lanes(net, &mut rounds, &lanes(n), 1..ROUND_KEYS, Step::SboxRound).await?;
    let states = rounds.outputs;

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
    let shares: Vec<[u8; 16]> =
        theirs[..16 * n].chunks_exact(16).map(|b| b.try_into().expect("16 bytes")).collect();
    let mut check = Openings::new(prep, backend);
    check.pass(0..n, None, Some(Verify { lookups: Lookups::Output, theirs: &shares }));
    if !digests_match(&check.expected_digest(), &theirs[16 * n..]) {
        return Err(TinyTableError::AuthenticationFailed { party, step: Step::OutputOpening });
    }
    Ok(states
        .iter()
        .zip(&shares)
        .enumerate()
        .map(|(i, (s, t))| {
            let m = &prep.output_mask_shares[16 * i..][..16];
            Some(core::array::from_fn(|j| s[j] ^ m[j] ^ t[j]))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::memory::run_session;
    use crate::net::NetStats;
    use crate::proto::tinytable::prep::TrustedDealer;
    use crate::proto::tinytable::sbox::lanes::MIN_LANE_BLOCKS;
    use crate::proto::tinytable::sbox::tests::Tamper;
    use crate::proto::tinytable::spec::Reveal;
    use ::aes::cipher::{BlockEncrypt, KeyInit};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    type Outcome = (Result<Vec<Option<Block>>, TinyTableError>, NetStats);

    /// Both parties (party 0 owns the keys); party 1 flips the last byte of its message `flip`.
    fn run(preps: &[MaliciousAesPrep; 2], keys: &[Block], pts: &[Block], flip: Option<u64>) -> Vec<Outcome> {
        run_session(2, |net| async move {
            let party = net.party();
            let inputs = if party == 0 { keys } else { pts };
            let target = flip.filter(|_| party == 1).unwrap_or(u64::MAX);
            let flip_last = |msg: &mut Vec<u8>| {
                if let Some(b) = msg.last_mut() {
                    *b ^= 1;
                }
            };
            let mut net = Tamper::new(net, target, flip_last);
            let r = encrypt_batch(&mut net, &preps[party], inputs).await;
            (r, net.stats())
        })
    }

    fn aes(key: &Block, pt: &Block) -> Block {
        let mut b = (*pt).into();
        ::aes::Aes128::new(key.into()).encrypt_block(&mut b);
        b.into()
    }

    /// Party 0 aborted at the round-10 MAC check without sending its output-mask share.
    fn assert_honest_abort(out: &[Outcome], what: &str) {
        let (r, stats) = &out[0];
        assert_eq!(
            r,
            &Err(TinyTableError::AuthenticationFailed { party: 0, step: Step::SboxMacCheck }),
            "{what}"
        );
        // Input, then 10 rounds of 2 lanes; never the output opening.
        assert_eq!(stats.messages_sent, 1 + 2 * 10, "{what}");
    }

    #[test]
    fn two_lanes_encrypt_with_exact_counts_and_detect_cheating_in_either_lane() {
        let n = 2 * MIN_LANE_BLOCKS + 2;
        let mut rng = ChaCha20Rng::seed_from_u64(31);
        let (mut keys, mut pts) = (vec![[0u8; 16]; n], vec![[0u8; 16]; n]);
        keys.iter_mut().chain(pts.iter_mut()).for_each(|b| rng.fill_bytes(b));
        let preps = TrustedDealer::new(ChaCha20Rng::seed_from_u64(32))
            .malicious_aes_tables(Direction::Encrypt, 0, Reveal::Both, n)
            .expect("dealer");
        let want: Vec<Option<Block>> = keys.iter().zip(&pts).map(|(k, p)| Some(aes(k, p))).collect();
        for (party, (r, stats)) in run(&preps, &keys, &pts, None).iter().enumerate() {
            assert_eq!(r.as_ref().expect("honest run"), &want, "party {party}");
            // The lanes' exchanges count separately (`lanes`): input, 1 + 2·9 lookup rounds, output.
            assert_eq!(stats.rounds, 1 + 1 + 2 * 9 + 1, "party {party}");
            assert_eq!(stats.messages_sent, 1 + 2 * 10 + 1, "party {party}");
            let input = if party == 0 { 176 * n } else { 16 * n };
            assert_eq!(stats.bytes_sent as usize, input + 10 * 16 * n + HASH_BYTES + 16 * n + HASH_BYTES);
        }

        // A wrong entry (with its old tag) of one table in a block of each lane.
        for (block, table) in [(3, 21), (n - 1, 150)] {
            let mut forged = preps.clone();
            for e in 0..256 {
                let i = forged[1].position(block, table, e);
                forged[1].set_entry(i, forged[1].entry(i) ^ 0x40);
            }
            assert_honest_abort(&run(&forged, &keys, &pts, None), &format!("entry of block {block}"));
        }
        // A wrong hash: the last byte of the last lane's round-10 message.
        assert_honest_abort(&run(&preps, &keys, &pts, Some(2 * 10)), "hash");
        // A wrong entry in the first lane's round-10 message (its last byte is an entry).
        assert_honest_abort(&run(&preps, &keys, &pts, Some(2 * 10 - 1)), "first lane's entry");
    }
}
