//! The checks of one chunk, all run before any material is returned. Coins come from MiniMac's
//! commit-and-open coin toss ([`crate::proto::minimac::checks`]): every party committed to its
//! seeds at the start of the chunk, and seed 0 is opened only after every COPE column was sent,
//! so the coins are unknown to every party while it contributes.
//!
//! With `W_w` the shared value of slot `w` (the sum of the parties' contributions):
//!
//! - **(a) codeword check, `C` words** ([`PrepCheck::CodewordC`]): for each of
//!   [`CODEWORD_REPS`] repetitions open `Y = Σ r_w·W_w + M` over the `C` words (coins
//!   `r_w ∈ GF(2^8)`, `M` a fresh mask in `C` with random data from every party) and require
//!   `Y ∈ C`. If some `W_w ∉ C`, its class in `GF(2^8)^n / C` is nonzero and `Σ r_w·W̄_w + M̄ = 0`
//!   holds for at most a 1/256 fraction of `r_w`: 2^-40 over five repetitions. `Y` is uniform in
//!   `C` (honest `M`), so it reveals nothing.
//! - **(b) zero-data check, `R` words** ([`PrepCheck::ZeroDataCStar`]): the same over the
//!   `R` words with a zero-data mask in `C*`, requiring `Y ∈ C*` with zero data (the quotient is by
//!   the zero-data subspace of `C*`). 2^-40.
//! - **(c) TinyOT consistency** ([`PrepCheck::TinyOtConsistency`]): each plane word must carry
//!   the party's TinyOT share bits of its plane, each `c` word the byte `Σ_i 2^i·z_i` of its eight
//!   `z` share bits — the `c` word is checked against its bits directly (no eight `c` planes are
//!   contributed); at a position `p = 8j + i ≥ m` (unused, no TinyOT triple) the bit must be the
//!   public 0, so it enters the comparison as 0. For each of [`CONSISTENCY_REPS`] repetitions, with coins `ρ_w ∈ {0, 1}`: on
//!   the TinyOT side open, per position `j` and bit `i`, `O_{i,j} = ⊕_w ρ_w·bit_{w,i,j} ⊕ m_{i,j}`
//!   (planes have only bit 0; `m` fresh authenticated bits; each party sends every peer its share
//!   bits and a SHA-256 of its MACs under that peer's key, which the peer recomputes from its keys:
//!   [`PrepCheck::TinyOtMac`], forging needs a bit of `Δ`, 2^-127 with the pinned bit); on the
//!   MiniMac side open
//!   `Y = Σ_w ρ_w·W_w + M` with `M` the contributed `C` word of the mask bytes `Σ_i 2^i·m_{i,j}`;
//!   require `Y ∈ C` and `data(Y)_j = Σ_i 2^i·O_{i,j}`. A data error `e ≠ 0` of some word survives
//!   one repetition with probability ≤ 1/2 (flip its `ρ_w`): 2^-40. `Y` is `C(data(Y))` and its
//!   data is masked by the honest party's `m`.
//! - **(d) MAC check** ([`PrepCheck::Mac`]): every value opened in (a)–(c) goes through the batched
//!   SPDZ-style check of the online phase (`checks::batched_check`, seed 1, ρ = 17 combinations):
//!   commit to `σ = γ_P − α_P ∗ Y`, open, the sum must be 0. This is also MASCOT's Π_Auth argument
//!   for COPE: a party that used different `X_w[j]` in the columns of one position leaves the
//!   honest key holder with `Σ_l 2^l·α_{j,l}·X^{(l)}_w[j]`, not of the form `α_j·x`; every slot is
//!   in a check combination with a fresh coefficient, so passing needs predicting a non-constant
//!   function of the honest key bits, i.e. guessing them (each guess halves the chance of not
//!   aborting). Guessed bits are what the adversary learns; a later forgery of an opened codeword
//!   error needs `α` on its `≥ d*` nonzero positions, so leaked bits and forging trade one for one
//!   and the MAC layer keeps its `256^-d*` bound overall (2^-144 for (256, 120)).
//!
//! Statistical security of the provider: 40 bits (checks (a)–(c), and the TinyOT bucketing);
//! 136 for the batched MAC check.

use super::layout::{Layout, CODEWORD_REPS, CONSISTENCY_REPS, C_WORD};
#[cfg(test)]
use super::Cheat;
use crate::field::Gf256;
use crate::net::Network;
use crate::net::PartyId;
use crate::ot::any_tiny::{Bits, Triples};
use crate::ot::{ABit, Block};
use crate::proto::minimac::checks::{batched_check, open_coins, CheckContext, Coins, OpenLog, DIGEST_BYTES};
use crate::proto::minimac::error::{MiniMacError, PrepCheck, Step};
use crate::proto::minimac::msg::{Framer, Kind};
use crate::proto::minimac::params::MiniMacCode;
use crate::proto::minimac::prep::xor_into;
use rand_core::{CryptoRng, RngCore};
use sha2::{Digest, Sha256};

const MAC_DIGEST_TAG: &[u8] = b"chorus/minimac/ot-prep/tinyot-macs/v1";

/// Everything the checks of one chunk read.
pub(crate) struct ChunkView<'a> {
    pub code: &'static MiniMacCode,
    pub layout: &'a Layout,
    /// Per slot `2n` bytes: this party's value share, then its MAC share.
    pub shares: &'a [u8],
    /// This chunk's TinyOT triples (`x`, `y`, `z` apart), [`Layout::tiny`]`(t, 8j + i)` for bit
    /// `i` of data byte `j` of triple `t` (used positions only).
    pub triples: &'a Triples,
    /// The consistency masks, `(h·k + j)·8 + i`.
    pub masks: &'a Bits,
    /// This party's TinyOT `Δ`.
    pub delta: Block,
    /// `α_P`.
    pub alpha: &'a [u8],
}

/// The bytes of one party's opening message for a chunk with code length `n` and dimension `k`.
pub fn opening_bytes(n: usize, k: usize) -> usize {
    (2 * CODEWORD_REPS + CONSISTENCY_REPS) * n + CONSISTENCY_REPS * k + DIGEST_BYTES
}

fn mac_digest(macs: impl Iterator<Item = Block>) -> [u8; DIGEST_BYTES] {
    let mut h = Sha256::new();
    h.update(MAC_DIGEST_TAG);
    for m in macs {
        h.update(m.to_le_bytes());
    }
    h.finalize().into()
}

/// `acc += c·src` on `2n`-byte shares.
fn axpy(acc: &mut [u8], src: &[u8], c: u8) {
    Gf256::mul_add_scalar_slice(Gf256::from_bytes_mut(acc), Gf256::from_bytes(src), Gf256(c));
}

/// Runs checks (a)–(d) of the module docs.
pub(crate) async fn run<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    framer: &mut Framer,
    coins: &Coins,
    view: ChunkView<'_>,
    rng: &mut R,
    #[cfg(test)] cheat: Option<Cheat>,
) -> Result<(), MiniMacError> {
    let step = Step::PrepCheck;
    let (me, parties) = (net.party(), net.parties());
    let code = view.code;
    let (n, k) = (code.n(), code.k());
    let share = |slot: usize| &view.shares[slot * 2 * n..(slot + 1) * 2 * n];
    let mut stream = open_coins(net, framer, coins, 0, step).await?;
    let masks = view.layout.masks();

    // (a) and (b): random GF(2^8) combinations plus one mask each.
    let mut opened: Vec<Vec<u8>> = Vec::with_capacity(2 * CODEWORD_REPS + CONSISTENCY_REPS);
    for (words, first_mask) in
        [(view.layout.c_words(), masks), (view.layout.r_words(), masks + CODEWORD_REPS)]
    {
        let mut r = vec![0u8; words.len()];
        for rep in 0..CODEWORD_REPS {
            stream.fill_bytes(&mut r);
            let mut acc = share(first_mask + rep).to_vec();
            for (&w, &c) in words.iter().zip(&r) {
                axpy(&mut acc, share(w), c);
            }
            opened.push(acc);
        }
    }

    // (c): {0, 1} combinations of plane and c words, on both sides; the TinyOT side once per
    // peer, in the two-party format towards it (share, MAC under its key, key for its share).
    let t_count = view.layout.triples;
    let peers: Vec<PartyId> = (0..parties).filter(|&p| p != me).collect();
    let mut bits: Vec<Vec<ABit>> =
        peers.iter().map(|_| Vec::with_capacity(CONSISTENCY_REPS * 8 * k)).collect();
    let mut rho = vec![0u8; t_count * (C_WORD + 1)];
    for rep in 0..CONSISTENCY_REPS {
        stream.fill_bytes(&mut rho);
        let selected: Vec<(usize, usize)> = (0..t_count)
            .flat_map(|t| (0..=C_WORD).map(move |w| (t, w)))
            .filter(|&(t, w)| rho[t * (C_WORD + 1) + w] & 1 == 1)
            .collect();
        let mut acc = share(masks + 2 * CODEWORD_REPS + rep).to_vec();
        for &(t, w) in &selected {
            axpy(&mut acc, share(view.layout.triple(t, w)), 1);
        }
        opened.push(acc);
        for (bits, &q) in bits.iter_mut().zip(&peers) {
            let first = rep * 8 * k;
            let mut tiny: Vec<ABit> = (first..first + 8 * k).map(|e| view.masks.pair(e, q)).collect();
            // One loop per engine's layout, so the element access inlines.
            match view.triples {
                Triples::Two(t) => fold_selected(&mut tiny, view.layout, &selected, |which, at| t[at][which]),
                Triples::Many(t) => {
                    fold_selected(&mut tiny, view.layout, &selected, |which, at| t[which].pair(at, q))
                }
            }
            bits.extend(tiny);
        }
    }

    // One opening message per peer: value shares, TinyOT share bits (packed), digest of their MACs
    // under that peer's key.
    #[cfg(test)]
    match cheat {
        // Shift the value share of the first (a) opening by a codeword of C: (a) still passes.
        Some(Cheat::OpenedValue) => {
            let plane = code.c.encode_bit_plane(&vec![Gf256(1); k], 0)?;
            xor_into(&mut opened[0][..n], Gf256::as_bytes(&plane));
        }
        Some(Cheat::OpenedMac) => opened[0][n] ^= 1,
        _ => {}
    }
    let mut body = Vec::with_capacity(opening_bytes(n, k));
    for o in &opened {
        body.extend_from_slice(&o[..n]);
    }
    // The share bits are the same towards every peer.
    let mut packed = vec![0u8; bits[0].len() / 8];
    for (i, b) in bits[0].iter().enumerate() {
        packed[i / 8] |= u8::from(b.bit) << (i % 8);
    }
    body.extend_from_slice(&packed);
    for (towards, &q) in bits.iter().zip(&peers) {
        let mut message = body.clone();
        message.extend_from_slice(&mac_digest(towards.iter().map(|b| b.mac)));
        framer.send_to(net, q, Kind::PrepOpen, &message, step)?;
    }

    // TinyOT side: each peer's MACs on its bits, then the opened bits (the XOR of every share);
    // MiniMac side: the sum of every party's value shares.
    let mut values: Vec<Vec<u8>> = opened.iter().map(|o| o[..n].to_vec()).collect();
    let mut combined = packed.clone();
    for (towards, &q) in bits.iter().zip(&peers) {
        let theirs = framer.recv(net, q, Kind::PrepOpen, opening_bytes(n, k), step).await?;
        let (their_values, rest) = theirs.split_at(opened.len() * n);
        let (their_bits, their_digest) = rest.split_at(packed.len());
        let their_bit = |i: usize| (their_bits[i / 8] >> (i % 8)) & 1 == 1;
        let expected =
            mac_digest(towards.iter().enumerate().map(|(i, b)| b.key ^ (view.delta & mask(their_bit(i)))));
        if expected[..] != their_digest[..] {
            return Err(MiniMacError::PrepCheckFailed { check: PrepCheck::TinyOtMac });
        }
        xor_into(&mut combined, their_bits);
        for (v, theirs) in values.iter_mut().zip(their_values.chunks_exact(n)) {
            xor_into(v, theirs);
        }
    }
    let mut log = OpenLog::new(n, parties);
    for (v, o) in values.iter().zip(&opened) {
        log.push(v, &o[n..]);
    }
    for (i, v) in values.iter().enumerate() {
        let v = Gf256::from_bytes(v);
        let ok = match i / CODEWORD_REPS {
            0 => code.c.check(v).is_ok(),
            1 => code.star.check(v).is_ok() && v[..k].iter().all(|x| x.0 == 0),
            _ => code.c.check(v).is_ok(),
        };
        if !ok {
            let check = if i / CODEWORD_REPS == 1 { PrepCheck::ZeroDataCStar } else { PrepCheck::CodewordC };
            return Err(MiniMacError::PrepCheckFailed { check });
        }
    }
    for (rep, v) in values[2 * CODEWORD_REPS..].iter().enumerate() {
        for (j, &data) in v[..k].iter().enumerate() {
            // Bits `(rep·k + j)·8 .. + 8` of the opened bits: one whole byte.
            if combined[rep * k + j] != data {
                return Err(MiniMacError::PrepCheckFailed { check: PrepCheck::TinyOtConsistency });
            }
        }
    }

    // (d): the batched MAC check of every opened value.
    let ctx = CheckContext { code, alpha: view.alpha, framer, coins };
    batched_check(net, ctx, log, 1, step, rng).await.map_err(|e| match e {
        MiniMacError::MacCheckFailed { .. } => MiniMacError::PrepCheckFailed { check: PrepCheck::Mac },
        e => e,
    })
}

/// Check (c)'s TinyOT side of one repetition: `tiny[8j + i] ⊕=` component `which` of the TinyOT
/// triple at position `8j + i` of every `selected` (triple, word) — bit 0 of each data byte for a
/// plane word (`which` = 0 for `a`, 1 for `b`), all eight bits for the `c` word (`z`). Unused
/// positions have no TinyOT bit: their data is compared with 0 (public).
fn fold_selected(
    tiny: &mut [ABit],
    layout: &Layout,
    selected: &[(usize, usize)],
    bit: impl Fn(usize, usize) -> ABit,
) {
    let k = tiny.len() / 8;
    for &(t, w) in selected {
        for j in 0..k {
            if w < C_WORD {
                if let Some(at) = layout.tiny(t, 8 * j + w % 8) {
                    tiny[j * 8] = tiny[j * 8].xor(bit(w / 8, at));
                }
            } else {
                for i in 0..8 {
                    if let Some(at) = layout.tiny(t, 8 * j + i) {
                        tiny[j * 8 + i] = tiny[j * 8 + i].xor(bit(2, at));
                    }
                }
            }
        }
    }
}

/// All ones if `bit`, else zero.
fn mask(bit: bool) -> Block {
    0u128.wrapping_sub(bit as u128)
}
