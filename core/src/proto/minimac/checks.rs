//! The malicious-security checks: a commit-and-open coin toss and the batched codeword and MAC
//! check of everything opened so far, run before any output is opened (gate openings) and before
//! any output is returned (output openings).
//!
//! **Coins.** At the start every party commits to two 32-byte seeds,
//! `SHA-256(tag, party, index, seed)` (hiding by the seed's entropy, binding by collision
//! resistance), in its input message. A check opens seed `index`; the coins are a ChaCha20 stream
//! keyed by `SHA-256(tag, all seeds in party order)`, so they are fixed once the last honest seed
//! is, and unknown to everybody while the checked values are sent. (The OT engine's coin toss in
//! `crate::ot::coins` is the asymmetric two-party form of the same idea; MiniMac needs a symmetric
//! one for n parties.)
//!
//! **Batched check.** For `ρ` = [`COMBINATIONS`] independent coin vectors `r^(l)` over GF(2^8)
//! every party computes `V_l = Σ_j r^(l)_j c_j` of the opened values `c_j` (public) and
//! `M_l = Σ_j r^(l)_j γ_{j,p}` of its MAC shares, then
//! 1. checks `V_l ∈ C*` (else [`MiniMacError::CodewordCheckFailed`]);
//! 2. commits to `σ_l = M_l - α_p ∗ V_l` (with its view hash when n ≥ 3 and a 32-byte nonce),
//!    then opens it; all commitments must match ([`MiniMacError::CommitmentMismatch`]), all view
//!    hashes agree ([`MiniMacError::TranscriptMismatch`]) and `Σ_p σ_l = 0` for every `l`
//!    ([`MiniMacError::MacCheckFailed`]).
//!
//! Soundness: let the adversary add errors `e_j` to opened values. If some `e_j ∉ C*`, a random
//! combination lands in `C*` with probability at most 1/256, so all `ρ` do with at most `256^-ρ`.
//! If all `e_j ∈ C*` and some `E_l = Σ_j r^(l)_j e_j ≠ 0`, that `E_l` is a nonzero codeword of
//! weight `≥ d*`, and passing the MAC equation needs the adversary's `σ` offset to equal `α ∗ E_l`
//! in all those positions, i.e. guessing `d*` symbols of `α`: `256^-d*`. All `E_l = 0` happens with
//! at most `256^-ρ`. Total `≤ 256^-ρ + 256^-d*` (§2: "accept an incorrect value … with
//! probability at most S^-d").

use super::error::{MiniMacError, Step};
use super::msg::{Framer, Kind};
use super::params::{MiniMacCode, COMBINATIONS};
use crate::field::Gf256;
use crate::net::{Network, PartyId};
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};
use sha2::{Digest, Sha256};

const SEED_TAG: &[u8] = b"chorus/minimac/coin-seed/v1";
const COINS_TAG: &[u8] = b"chorus/minimac/coins/v1";
const SIGMA_TAG: &[u8] = b"chorus/minimac/mac-check/v1";
const VIEW_TAG: &[u8] = b"chorus/minimac/view/v1";

/// Bytes of a seed, commitment, nonce or view hash.
pub const DIGEST_BYTES: usize = 32;

/// Values opened since the last check, with this party's MAC shares of them.
pub(crate) struct OpenLog {
    n: usize,
    /// Per opened value `2n` bytes: the value, then this party's MAC share of it.
    entries: Vec<u8>,
    /// Hash of every public value this party saw (only with three or more parties: with two, each
    /// party's view is its own and there is nobody to disagree with).
    view: Option<Sha256>,
}

impl OpenLog {
    pub(crate) fn new(n: usize, parties: usize) -> Self {
        let view = (parties > 2).then(|| {
            let mut h = Sha256::new();
            h.update(VIEW_TAG);
            h
        });
        OpenLog { n, entries: Vec::new(), view }
    }

    /// Records an opened value `c` (`n` bytes) and this party's MAC share of it.
    pub(crate) fn push(&mut self, value: &[u8], mac: &[u8]) {
        self.entries.extend_from_slice(value);
        self.entries.extend_from_slice(mac);
        self.observe(value);
    }

    /// Records a public value that has no MAC (an input difference), for the view hash.
    pub(crate) fn observe(&mut self, public: &[u8]) {
        if let Some(h) = &mut self.view {
            h.update(public);
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len() / (2 * self.n)
    }
}

/// This party's two coin seeds and every party's commitments to theirs.
pub(crate) struct Coins {
    own: [[u8; DIGEST_BYTES]; 2],
    commitments: Vec<[[u8; DIGEST_BYTES]; 2]>,
}

fn seed_commitment(party: PartyId, index: usize, seed: &[u8]) -> [u8; DIGEST_BYTES] {
    let mut h = Sha256::new();
    h.update(SEED_TAG);
    h.update((party as u64).to_le_bytes());
    h.update((index as u64).to_le_bytes());
    h.update(seed);
    h.finalize().into()
}

impl Coins {
    /// Fresh seeds; returns the 64-byte commitment message.
    pub(crate) fn new<R: RngCore + CryptoRng>(
        party: PartyId,
        parties: usize,
        rng: &mut R,
    ) -> (Self, Vec<u8>) {
        let mut own = [[0u8; DIGEST_BYTES]; 2];
        for s in &mut own {
            rng.fill_bytes(s);
        }
        let mine = [seed_commitment(party, 0, &own[0]), seed_commitment(party, 1, &own[1])];
        let mut commitments = vec![[[0u8; DIGEST_BYTES]; 2]; parties];
        commitments[party] = mine;
        (Coins { own, commitments }, mine.concat())
    }

    /// Stores `from`'s 64-byte commitment message.
    pub(crate) fn set_commitments(&mut self, from: PartyId, msg: &[u8]) {
        self.commitments[from][0].copy_from_slice(&msg[..DIGEST_BYTES]);
        self.commitments[from][1].copy_from_slice(&msg[DIGEST_BYTES..2 * DIGEST_BYTES]);
    }
}

/// Everything a check needs besides the network.
pub(crate) struct CheckContext<'a> {
    pub(crate) code: &'static MiniMacCode,
    pub(crate) alpha: &'a [u8],
    pub(crate) framer: &'a mut Framer,
    pub(crate) coins: &'a Coins,
}

/// Opens this party's coin seed `index`, checks every peer's against its commitment, and returns
/// the common coin stream of that index (one round).
pub(crate) async fn open_coins<N: Network>(
    net: &mut N,
    framer: &mut Framer,
    coins: &Coins,
    index: usize,
    step: Step,
) -> Result<ChaCha20Rng, MiniMacError> {
    let (me, parties) = (net.party(), net.parties());
    framer.send_all(net, Kind::Seed, &coins.own[index], step)?;
    let mut seeds = vec![[0u8; DIGEST_BYTES]; parties];
    seeds[me] = coins.own[index];
    for p in (0..parties).filter(|&p| p != me) {
        let seed = framer.recv(net, p, Kind::Seed, DIGEST_BYTES, step).await?;
        if seed_commitment(p, index, &seed) != coins.commitments[p][index] {
            return Err(MiniMacError::CommitmentMismatch { from: p, step, what: "coin seed" });
        }
        seeds[p].copy_from_slice(&seed);
    }
    let mut h = Sha256::new();
    h.update(COINS_TAG);
    h.update((index as u64).to_le_bytes());
    for s in &seeds {
        h.update(s);
    }
    Ok(ChaCha20Rng::from_seed(h.finalize().into()))
}

/// Runs the batched check of `log` with seed `index` (0: gate openings, 1: output openings).
pub(crate) async fn batched_check<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    ctx: CheckContext<'_>,
    log: OpenLog,
    index: usize,
    step: Step,
    rng: &mut R,
) -> Result<(), MiniMacError> {
    let (me, parties) = (net.party(), net.parties());
    let peers: Vec<PartyId> = (0..parties).filter(|&p| p != me).collect();
    let n = ctx.code.n();

    // Round 1: open the seeds.
    let mut stream = open_coins(net, ctx.framer, ctx.coins, index, step).await?;

    // The combinations `(V_l, M_l)` (2n symbols each), entry by entry so every opened value is
    // read once; value and MAC share take the same coin, so one product covers both.
    let count = log.len();
    let mut coins = vec![0u8; COMBINATIONS * count];
    stream.fill_bytes(&mut coins);
    let mut acc = vec![Gf256(0); COMBINATIONS * 2 * n];
    for (j, entry) in log.entries.chunks_exact(2 * n).enumerate() {
        let entry = Gf256::from_bytes(entry);
        for (l, combination) in acc.chunks_exact_mut(2 * n).enumerate() {
            Gf256::mul_add_scalar_slice(combination, entry, Gf256(coins[l * count + j]));
        }
    }
    let mut reveal = Vec::with_capacity(COMBINATIONS * n + 2 * DIGEST_BYTES);
    let alpha = Gf256::from_bytes(ctx.alpha);
    for combination in acc.chunks_exact_mut(2 * n) {
        let (v, m) = combination.split_at_mut(n);
        if ctx.code.star.check(v).is_err() {
            return Err(MiniMacError::CodewordCheckFailed { step });
        }
        // σ_l = M_l - α_p ∗ V_l.
        Gf256::mul_add_slices(m, alpha, v);
        reveal.extend_from_slice(Gf256::as_bytes(m));
    }
    if let Some(view) = log.view {
        reveal.extend_from_slice(&view.finalize());
    }
    let mut nonce = [0u8; DIGEST_BYTES];
    rng.fill_bytes(&mut nonce);
    reveal.extend_from_slice(&nonce);
    let commit = |party: PartyId, body: &[u8]| -> [u8; DIGEST_BYTES] {
        let mut h = Sha256::new();
        h.update(SIGMA_TAG);
        h.update((party as u64).to_le_bytes());
        h.update((index as u64).to_le_bytes());
        h.update(body);
        h.finalize().into()
    };

    // Round 2: commit; round 3: open.
    ctx.framer.send_all(net, Kind::Commit, &commit(me, &reveal), step)?;
    let mut commitments = vec![[0u8; DIGEST_BYTES]; parties];
    for &p in &peers {
        commitments[p].copy_from_slice(&ctx.framer.recv(net, p, Kind::Commit, DIGEST_BYTES, step).await?);
    }
    ctx.framer.send_all(net, Kind::Reveal, &reveal, step)?;
    let sigma_len = COMBINATIONS * n;
    let mut total = reveal[..sigma_len].to_vec();
    let mut first_error = None;
    for &p in &peers {
        let theirs = ctx.framer.recv(net, p, Kind::Reveal, reveal.len(), step).await?;
        if commit(p, &theirs) != commitments[p] {
            return Err(MiniMacError::CommitmentMismatch { from: p, step, what: "MAC check value" });
        }
        if theirs[sigma_len..reveal.len() - DIGEST_BYTES] != reveal[sigma_len..reveal.len() - DIGEST_BYTES] {
            first_error.get_or_insert(MiniMacError::TranscriptMismatch { from: p, step });
        }
        super::prep::xor_into(&mut total, &theirs[..sigma_len]);
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    if total.iter().any(|&b| b != 0) {
        return Err(MiniMacError::MacCheckFailed { step });
    }
    Ok(())
}
