//! MiniMac's **OT-based preprocessing among 2 to 8 parties** ([`OtPreprocessing`]): every kind of
//! material of [`super`] from oblivious transfer, with no trusted party, maliciously secure with
//! abort against all parties but one.
//!
//! The implementation study (`/work/shared/papers/minimac-implementation.txt`, §2.2
//! "Preprocessing") leaves the preprocessing out and notes that, MACs being set up as in TinyOT
//! and the field having characteristic 2, "it is straightforward to modify the TinyOT
//! preprocessing to obtain the one presently needed"; \[FKOS15\] (Frederiksen–Keller–Orsini–Scholl,
//! "A Unified Approach to MPC with Preprocessing using OT", ASIACRYPT 2015) does that for MiniMac
//! in general. This provider follows that route with the engine of [`crate::ot`], structured like
//! Coral's OT provider (`proto::coral::prep::ot`):
//!
//! 1. **TinyOT** ([`crate::ot::any_tiny`]: between two parties [`crate::ot::TinyOt`], KOS15 + the half-gate leaky
//!    AND with bucketing; among three or more [`crate::ot::multi::MultiTinyOt`], WRK17's n-party
//!    leaky AND with bucketing and the HSS17 consistency check of the pairwise MACs): one AND triple
//!    per MiniMac triple and *used* position — `m` = [`PrepRequest::instances`] (at most `8k`) per
//!    MiniMac triple, for positions `p = 8j + i < m` (bit `i` of data byte `j` of `a`, `b`,
//!    `c = a ∧ b`; see "Unused positions" below) — and authenticated bits for the COPE seeds and
//!    the consistency masks.
//! 2. **Authenticated contributions.** Party P contributes words `X ∈ GF(2^8)^n`; `[[X]]_P` has
//!    value shares `X` (P) and `0` (every peer), MAC shares `α_P ∗ X + Σ_Q t_Q` (P) and
//!    `q_Q = t_Q + α_Q ∗ X` (each peer Q), from COPE with per-position 8-bit keys between P and
//!    every Q (`cope`, MASCOT's Π_COPE; seeds from abits), so the MAC shares sum to `α ∗ X`.
//!    Per triple each party contributes `C(a_P↓i)`, `C(b_P↓i)` (`i = 0..7`, the codewords of its
//!    TinyOT share bit planes), `C(c_P)` (its share bytes of `c`, a word of `C ⊂ C*`) and three
//!    random zero-data words `R_{P,a}, R_{P,b}, R_{P,c}` of `C*`; then
//!    `[[a^i]] = 2^i·Σ_P [[C(a_P↓i)]]`, `[[a]]* = Σ_i [[a^i]] + Σ_P [[R_{P,a}]]` (uniform in `C*`
//!    with data `a`; the same for `b`) and `[[c]]* = Σ_P [[C(c_P)]] + Σ_P [[R_{P,c}]]`. Input
//!    masks: the owner alone contributes `C(r)`. Output masks for `p`: `p` contributes `C(s)`,
//!    every other party a zero-data `R`, so the sum is uniform in `C*` with data `s` known to `p`
//!    only.
//! 3. **Checks** ([`checks`], all before any material is returned): codeword checks of the `C`
//!    words and zero-data check of the `R` words (2^-40 each), consistency of the contributed data
//!    with the TinyOT bits, and with 0 at unused positions (2^-40), and the batched MAC check of
//!    every opened value (MASCOT's Π_Auth argument for inconsistent COPE columns). Among three or
//!    more parties each party's opening goes to every peer with a digest of its TinyOT MACs under
//!    that peer's key, and the MAC check compares the parties' hashes of every opened value, so
//!    equivocation towards one honest party makes every honest party abort.
//!
//! **Unused positions.** A batch of `m < 8k` instances uses positions `p = 8j + i < m` only. At
//! every other position of a triple every party's plane words and `c` words carry data 0 (their
//! `R` words and every non-data symbol are unchanged, so `a, b, c` stay uniform in `C*` outside
//! the data), so `a = b = c = 0` there; check (c) compares the contributed data at those positions
//! with the public 0, so a party that puts a nonzero bit there is caught like any other
//! inconsistency. Input and output masks stay random at every position. Why this is secure: in
//! the online phase an input owner sends `ε = r` at positions `≥ m` (its input there is 0), so
//! every wire's data at an unused position is a function of public constants and of data the
//! adversary chose (a corrupt owner's `ε`), never of an honest party's input. The opened
//! `ε = x + a`, `δ = y + b` of an AND gate reveal `x` and `y` there — nothing an honest party
//! input; the product there is correct because `0 ∧ 0 = 0`; and the codeword and MAC checks of
//! opened values, which do not look at data, are unchanged. Material for `m` instances is refused
//! by the online phase for a batch of more than `m` instances ([`super::PartyPrep::instances`]).
//!
//! **Chunks** (bounded memory): between two parties triples are made in chunks of at most
//! `TRIPLE_BATCH / 8k` MiniMac triples (273 with k = 120, 385 with k = 85), so at most
//! [`TRIPLE_BATCH`] TinyOT triples (`m` per MiniMac triple); among three or more in chunks of
//! `min(MAX_TRIPLES / m, N_CHUNK_TRIPLES)` (the n-party engine's bound per call,
//! [`crate::ot::multi::MAX_TRIPLES`], and [`N_CHUNK_TRIPLES`] for the words). Each chunk has its
//! own coin toss, COPE frames and checks, and its material is appended only once its checks
//! passed. Input and output masks are in the first chunk. Setup once per
//! [`OtPreprocessing::material`] call: TinyOT (base OTs with every peer) and `8n` abits for the
//! COPE seeds.
//!
//! **TinyOT per chunk:** `m` AND triples per MiniMac triple and `40·8k` abits (consistency masks).
//! **Communication per chunk** (to each peer, besides TinyOT): 64 (coin commitments) + `8n` per
//! contributed word in frames of [`cope::FRAME_WORDS`] words + 32 (coin seed) +
//! `50n + 40k + 32` (openings, [`checks::opening_bytes`]) + `32 + 32 + 17n + 32` (MAC check; 32
//! more for the view hash among three or more), each message with a
//! [`crate::proto::minimac::msg::HEADER_BYTES`]-byte header. Words per party and
//! chunk (independent of `m`): `20` per triple, plus its input masks and output-mask words, plus
//! 50 masks.
//!
//! **Trust model:** 2 to [`MAX_PARTIES`] parties, all but one may be malicious and collude (static
//! corruption); security with abort (a cheat seen by one honest party may make only that one
//! abort, the others failing when it leaves: no agreement on abort). Nothing is trusted but the
//! parties. Failures are typed: [`MiniMacError::Ot`] for the
//! engine (its own checks included), [`MiniMacError::PrepCheckFailed`] naming the check,
//! [`MiniMacError::Malformed`] / [`MiniMacError::FrameOutOfOrder`] for bad frames; no material is
//! returned after any error. Secrets (α, shares) never select a branch or an index; randomness
//! comes from the caller's ChaCha20 CSPRNG.

pub mod checks;
mod cope;
mod layout;
mod words;

pub use checks::opening_bytes;
pub use cope::FRAME_WORDS;
pub use layout::{CODEWORD_REPS, CONSISTENCY_REPS};

use super::{MiniMacPreprocessing, PartyPrep, PrepRequest, TRIPLE_WORDS};
use crate::field::Gf256;
use crate::net::{Network, PartyId};
use crate::ot::any_tiny::{Tiny, Triples};
use crate::ot::multi::MAX_PARTIES;
use crate::ot::{Extension, OtError};
use crate::proto::minimac::checks::Coins;
use crate::proto::minimac::error::{MiniMacError, Step};
use crate::proto::minimac::msg::{Framer, Kind};
use crate::proto::minimac::params::MiniMacCode;
use layout::Layout;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

/// Most TinyOT triples per chunk (bounds memory: the engine holds `3·B` abits per triple while it
/// makes a batch; see Coral's provider for the bucket sizes).
pub const TRIPLE_BATCH: usize = 1 << 18;

/// Most MiniMac triples per chunk among three or more parties (each makes at most
/// [`crate::ot::multi::MAX_TRIPLES`] TinyOT triples, `m` per MiniMac triple; this bounds the
/// chunk's words when `m` is small: 20 words of `n` bytes per triple, shares and COPE outputs
/// per peer besides).
pub const N_CHUNK_TRIPLES: usize = 1024;

/// A deviation of a test attacker inside the provider.
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cheat {
    /// Add 1 to a non-data symbol of the first plane word (not a codeword any more).
    NonCodewordPlane,
    /// Add the constant codeword (data all 1) to the first `R_a` word.
    RData,
    /// Flip data bit 0 of the first plane word, as a codeword of `C`.
    PlaneData,
    /// Set a data bit at an unused position (`8(k - 1)`) of the first plane word, as a codeword of
    /// `C`.
    UnusedPlaneData,
    /// Add 1 to data byte 0 of the first `c` word, as a codeword of `C`.
    CData,
    /// Flip one bit of column `(j, 0)` of the first word of every COPE frame, for every position `j`.
    CopeColumn,
    /// Shift this party's share of the first opened value by a codeword of `C`.
    OpenedValue,
    /// Flip a bit of this party's MAC share of the first opened value.
    OpenedMac,
    /// Send the first COPE frame twice.
    ReplayCopeFrame,
}

/// The OT-based provider among 2 to [`MAX_PARTIES`] parties (see the module docs).
pub struct OtPreprocessing {
    rng: ChaCha20Rng,
    session: Vec<u8>,
    runs: u64,
    #[cfg(test)]
    pub(crate) cheat: Option<Cheat>,
}

impl core::fmt::Debug for OtPreprocessing {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OtPreprocessing").field("runs", &self.runs).finish_non_exhaustive()
    }
}

impl OtPreprocessing {
    /// A provider with its CSPRNG; every party uses the same `session` tag (unique per session
    /// and job; each [`MiniMacPreprocessing::material`] call appends a run counter).
    pub fn new(rng: ChaCha20Rng, session: &[u8]) -> Self {
        OtPreprocessing {
            rng,
            session: session.to_vec(),
            runs: 0,
            #[cfg(test)]
            cheat: None,
        }
    }

    async fn run<N: Network>(
        &mut self,
        net: &mut N,
        request: &PrepRequest,
    ) -> Result<PartyPrep, MiniMacError> {
        let (me, parties) = (net.party(), net.parties());
        if !(2..=MAX_PARTIES).contains(&parties) || request.parties != parties {
            return Err(MiniMacError::BadInput(format!(
                "the OT-based provider runs among 2 to {MAX_PARTIES} parties; the session has \
                 {parties}, the request {}",
                request.parties
            )));
        }
        if let Some(p) = request
            .input_owners
            .iter()
            .chain(request.output_recipients.iter().flatten())
            .find(|&&p| p >= parties)
        {
            return Err(MiniMacError::BadInput(format!(
                "an input owner or output recipient is party {p}; the session has {parties} parties"
            )));
        }
        let max = request.code.code().instances();
        if request.instances == 0 || request.instances > max {
            return Err(MiniMacError::BadInput(format!(
                "material for {} instances; a batch holds 1 to {max}",
                request.instances
            )));
        }
        let ot = |source: OtError| MiniMacError::Ot { party: me, source };
        let session = [&self.session[..], b"/run-", &self.runs.to_le_bytes()].concat();
        self.runs += 1;
        let mut seed = [0u8; 32];
        self.rng.fill_bytes(&mut seed);
        let mut rng = ChaCha20Rng::from_seed(seed);
        let code = request.code.code();
        let (n, k) = (code.n(), code.k());

        let mut engine = Tiny::setup(net, &[&session[..], b"/tinyot"].concat(), Extension::Kos15, &mut rng)
            .await
            .map_err(ot)?;
        let delta = engine.delta();
        let seeds = engine.abits(net, 8 * n, &mut rng).await.map_err(ot)?;
        let mut cope = cope::Cope::from_abits(&seeds, delta, (me, parties), n);
        drop(seeds);
        let alpha = cope.alpha().to_vec();

        let per_chunk = match engine.most_triples() {
            None => TRIPLE_BATCH / (8 * k),
            Some(most) => (most / request.instances).min(N_CHUNK_TRIPLES),
        }
        .max(1);
        let chunks = request.and_gates.div_ceil(per_chunk).max(1);
        let outputs: Vec<PartyId> = request.output_recipients.iter().flatten().copied().collect();
        let mut out = PartyPrep {
            party: me,
            parties,
            code: request.code,
            alpha,
            and_gates: request.and_gates,
            instances: request.instances,
            triples: Vec::with_capacity(request.and_gates * TRIPLE_WORDS * 2 * n),
            input_owners: request.input_owners.clone(),
            input_masks: Vec::new(),
            own_masks: Vec::new(),
            output_recipients: request.output_recipients.clone(),
            output_masks: Vec::new(),
            own_output_masks: Vec::new(),
        };
        let mut framer = Framer::new(parties);
        for chunk in 0..chunks {
            let first = chunk * per_chunk;
            let layout = Layout {
                triples: per_chunk.min(request.and_gates - first.min(request.and_gates)),
                instances: request.instances,
                inputs: if chunk == 0 { request.input_owners.clone() } else { Vec::new() },
                outputs: if chunk == 0 { outputs.clone() } else { Vec::new() },
            };
            let m = self
                .chunk(net, &mut engine, &mut cope, &mut framer, code, &out.alpha, &layout, &mut rng)
                .await?;
            out.triples.extend_from_slice(&m.triples);
            out.input_masks.extend_from_slice(&m.input_masks);
            out.own_masks.extend_from_slice(&m.own_masks);
            out.output_masks.extend_from_slice(&m.output_masks);
            out.own_output_masks.extend_from_slice(&m.own_output_masks);
        }
        Ok(out)
    }

    /// One chunk: coin commitments, TinyOT triples and masks, contributions, COPE, checks.
    #[allow(clippy::too_many_arguments)]
    async fn chunk<N: Network>(
        &self,
        net: &mut N,
        engine: &mut Tiny,
        cope: &mut cope::Cope,
        framer: &mut Framer,
        code: &'static MiniMacCode,
        alpha: &[u8],
        layout: &Layout,
        rng: &mut ChaCha20Rng,
    ) -> Result<words::ChunkMaterial, MiniMacError> {
        let (me, parties) = (net.party(), net.parties());
        let ot = |source: OtError| MiniMacError::Ot { party: me, source };
        let (n, k) = (code.n(), code.k());
        let step = Step::PrepCope;
        let (mut coins, commitment) = Coins::new(me, parties, rng);
        framer.send_all(net, Kind::PrepCommit, &commitment, step)?;
        for peer in (0..parties).filter(|&p| p != me) {
            let theirs = framer.recv(net, peer, Kind::PrepCommit, commitment.len(), step).await?;
            coins.set_commitments(peer, &theirs);
        }

        let triples = if layout.triples > 0 {
            engine.and_triples(net, layout.triples * layout.instances, rng).await.map_err(ot)?
        } else {
            Triples::none()
        };
        let masks = engine.abits(net, CONSISTENCY_REPS * 8 * k, rng).await.map_err(ot)?;
        let contributions = words::contributions(
            code,
            layout,
            &triples,
            &masks,
            me,
            rng,
            #[cfg(test)]
            self.cheat,
        )?;
        let shares = self.authenticate(net, cope, framer, layout, alpha, &contributions.words, n).await?;
        drop(contributions.words);

        let view = checks::ChunkView {
            code,
            layout,
            shares: &shares,
            triples: &triples,
            masks: &masks,
            delta: engine.delta(),
            alpha,
        };
        checks::run(
            net,
            framer,
            &coins,
            view,
            rng,
            #[cfg(test)]
            self.cheat,
        )
        .await?;
        Ok(words::assemble(layout, &shares, n, contributions.own_masks, contributions.own_output_masks))
    }

    /// COPE with every peer in both directions, in frames of [`FRAME_WORDS`] words
    /// ([`cope::Cope::extend`]): returns this party's `2n`-byte share of every slot.
    #[allow(clippy::too_many_arguments)]
    async fn authenticate<N: Network>(
        &self,
        net: &mut N,
        cope: &mut cope::Cope,
        framer: &mut Framer,
        layout: &Layout,
        alpha: &[u8],
        own: &[u8],
        n: usize,
    ) -> Result<Vec<u8>, MiniMacError> {
        let (me, parties) = (net.party(), net.parties());
        let slots = layout.len();
        let words: Vec<usize> =
            (0..parties).map(|p| (0..slots).filter(|&s| layout.who(s).includes(p)).count()).collect();
        let mut frames = cope::CopeFrames {
            framer,
            #[cfg(test)]
            n,
            #[cfg(test)]
            exchanges: 0,
            #[cfg(test)]
            cheat: self.cheat,
        };
        // `out.own[p]`: this party's COPE outputs for its own words under peer p's key;
        // `out.peer[p]`: its outputs for peer p's words under its own key.
        let out = cope.extend(&mut frames, net, own, &words).await?;
        let mut t = vec![0u8; own.len()];
        for own_p in out.own.iter().filter(|v| !v.is_empty()) {
            super::xor_into(&mut t, own_p);
        }
        let mut shares = vec![0u8; slots * 2 * n];
        let mut next = vec![0usize; parties];
        for (s, share) in shares.chunks_exact_mut(2 * n).enumerate() {
            let who = layout.who(s);
            let (value, mac) = share.split_at_mut(n);
            if who.includes(me) {
                let w = next[me];
                let x = &own[w * n..(w + 1) * n];
                value.copy_from_slice(x);
                Gf256::mul_slices(Gf256::from_bytes_mut(mac), Gf256::from_bytes(alpha), Gf256::from_bytes(x));
                super::xor_into(mac, &t[w * n..(w + 1) * n]);
                next[me] += 1;
            }
            for p in (0..parties).filter(|&p| p != me && who.includes(p)) {
                super::xor_into(mac, &out.peer[p][next[p] * n..(next[p] + 1) * n]);
                next[p] += 1;
            }
        }
        Ok(shares)
    }
}

impl MiniMacPreprocessing for OtPreprocessing {
    async fn material<N: Network>(
        &mut self,
        net: &mut N,
        request: &PrepRequest,
    ) -> Result<PartyPrep, MiniMacError> {
        self.run(net, request).await
    }
}
