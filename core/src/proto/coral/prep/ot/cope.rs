//! COPE over F = GF(2^42) between every pair of parties, in both directions at once (the pairs'
//! plumbing is [`crate::ot::cope::pairwise`]): the paper's
//! vectorised COPEe (§4.3.3 "Vectorizing MFE-based offline phase"; Fig. 16 F_vCOPEe, Fig. 18
//! Π_vCOPEe over Fig. 17's F_2-vOLE) with the **(195, 42)_2-MFE** (σ, ρ) of Table 1, Example
//! Param. 1 — the MFE route of Fig. 1 / \[20\]: t = 195 bits per element and direction.
//!
//! The MFE is the one of [`CoralParams::embedding`]; its field F_{2^42} is, by construction
//! ([`crate::embed::ParamSet::build`] checks it), the RMFE's, i.e. Coral's MAC field, in the same
//! binary representation. σ: F → F_2^t and ρ: F_2^t → F are F_2-linear with
//! `ρ(σ(x) ⊙ σ(y)) = x·y`.
//!
//! **Setup.** Party P holds its key share α_P and encodes `a = σ(α_P) ∈ F_2^t`. For each h < t the
//! parties run one random base OT (Masny–Rindal, [`crate::ot::base`]) in which P is the
//! *receiver* with choice bit a_h: P learns the seed `k_h^{a_h}`, the peer learns both seeds
//! `(k_h^0, k_h^1)`. Both directions are set up with every peer (2·195 base OTs per pair); the
//! choice bits enter only masks, never branches.
//!
//! **Extension** (Fig. 18 step 2: one F_2-vOLE per column h with scalar a_h and the column
//! `X_{*h} ∈ F_2^L` of the bit matrix `X = σ(x_1..x_L)`): the peer (input side, inputs x_j) expands
//! the bit streams `t^b_h = G(k_h^b) ∈ F_2^L` and sends `u_h = t^0_h ⊕ t^1_h ⊕ X_{*h}`; P computes
//! `q_h = t^{a_h}_h ⊕ a_h·u_h = t^0_h ⊕ a_h·X_{*h}`. Step 3 (ρ row-wise): P's output for element j
//! is `ρ(q_j)`, the input side's `ρ(t_j)` (rows of the L×t matrices Q and T = (t^0_h)_h), and
//! `ρ(q_j) = ρ(t_j) + ρ(σ(α_P) ⊙ σ(x_j)) = ρ(t_j) + α_P·x_j`. One frame
//! ([`Step::CopeColumns`]) per direction and chunk of L ≤ [`CHUNK`] elements carries the t columns
//! bit-packed back to back, exactly `⌈t·L/8⌉` bytes; a truncated or padded frame (or non-zero
//! padding bits) is a typed [`CoralError::Malformed`], a replayed one an
//! [`CoralError::UnexpectedFrame`].
//!
//! The seeds and each column's expansion (`u_h`, `q_h`) are the shared layer of
//! [`crate::ot::cope::columns`] (one-bit lanes, 128 per block); this module adds what a column
//! carries and how outputs are read from the columns.
//!
//! **Evaluation.** Everything after the PRG is bit-sliced: x is transposed into 42 bit columns
//! (64×64 transposes), `X_{*h}` is the XOR of the x-columns i with σ(e_i)_h = 1, and ρ is
//! accumulated column by column (`out_i ⊕= q_h` for the public bits ρ(e_h)_i = 1) into 42 output
//! columns, transposed back once. Only public matrix entries select branches; secrets are XORed.
//!
//! **What this alone guarantees** (F_vCOPEe, Fig. 16, "with errors"):
//! - a corrupt *input side* may send columns of any bit matrix X ∈ F_2^{L×t}, not of the form
//!   σ(x); the honest key holder then holds `ρ(t_j) + ρ(σ(α_P) ⊙ X_j)`, whose error against any
//!   x_j is `ρ(σ(α_P) ⊙ E_j)` (E_j = X_j − σ(x_j)), an F_2-linear function of α_P;
//! - a corrupt *key holder* may choose any `a ∈ F_2^t` (its base-OT choices), not necessarily a
//!   σ-image; the honest input side's peer then holds `ρ(q_j) = ρ(t_j) + ρ(a ⊙ σ(x_j))`, an
//!   F_2-linear but in general not F-linear function of the honest x_j.
//!
//! Both are dealt with in [`super::auth`] (the Π_Auth check and the key-linearity test), not here.
//!
//! **Not covered:** VOLE-style (silent) OT extension behind the F_2-vOLEs — here each vOLE is an
//! IKNP-style column (L bits sent per column and direction), so the byte counts are those of the
//! paper's "\[20\] w/ IKNP-OT" input-authentication row, not Coral's Table 3 figures.

use rand_core::{CryptoRng, RngCore};

use crate::net::{Network, PartyId};
use crate::ot::cope::columns::{input_column, key_column};
use crate::ot::cope::pairwise::{Pairwise, PairwiseOutput, PeerColumns};
use crate::ot::prg::Prg;
use crate::ot::transpose::transpose64;
use crate::proto::coral::error::CoralError;
use crate::proto::coral::messages::{Channel, ColumnFrames, Step};
use crate::proto::coral::share::{CoralParams, FIELD_BITS};

const BASE_TAG: &[u8] = b"chorus/coral/prep/cope/base/v3";

/// Elements per frame of columns (bounds the memory of one exchange).
pub const CHUNK: usize = 1 << 13;

/// Bytes of one frame of columns for `count` elements: `⌈t·count/8⌉`.
pub fn column_bytes(t: usize, count: usize) -> usize {
    (t * count).div_ceil(8)
}

/// The MFE's σ and ρ in the bit-sliced form the columns need (public matrices).
#[derive(Clone)]
struct Maps {
    /// Bit i of `sigma[h]` is bit h of σ(e_i): `σ(x)_h = parity(x & sigma[h])`.
    sigma: Vec<u64>,
    /// `rho[h] = ρ(e_h) ∈ F`.
    rho: Vec<u64>,
}

impl Maps {
    fn new(params: &CoralParams) -> Self {
        let mfe = &params.embedding().mfe;
        debug_assert_eq!(mfe.m(), FIELD_BITS);
        let t = mfe.t();
        let mut sigma = vec![0u64; t];
        for i in 0..FIELD_BITS {
            let column = mfe.sigma_map().column(i);
            for (h, s) in sigma.iter_mut().enumerate() {
                *s |= ((column[h / 64] >> (h % 64)) & 1) << i;
            }
        }
        let rho = (0..t).map(|h| mfe.rho_map().column(h)[0]).collect();
        Maps { sigma, rho }
    }

    fn t(&self) -> usize {
        self.rho.len()
    }
}

/// The bits of σ(α) (the key holder's base-OT choices), via the constant-time compiled σ.
pub(crate) fn choices(params: &CoralParams, alpha: u64) -> Vec<bool> {
    let mfe = &params.embedding().mfe;
    let words = mfe.sigma(alpha & params.field().order_minus_one()).expect("a field element");
    (0..mfe.t()).map(|h| (words[h / 64] >> (h % 64)) & 1 == 1).collect()
}

/// COPE state with one peer (both directions).
struct PeerCope {
    maps: Maps,
    /// Key-holder side: all ones where a_h = 1 (a = σ(α) for an honest party).
    masks: Vec<u128>,
    /// Key-holder side: the seed `k_h^{a_h}` of each column.
    chosen: Vec<Prg>,
    /// Input side: both seeds of each of the peer's columns.
    pairs: Vec<[Prg; 2]>,
}

/// One party's COPE state with every peer.
pub(crate) struct Cope(Pairwise<PeerCope>);

impl core::fmt::Debug for Cope {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Cope(..)")
    }
}

/// The outputs of one extension at one party, per peer (empty at its own index): `own[j]` holds
/// `ρ(t_e)` for this party's inputs (peer j holds `ρ(q_e) = ρ(t_e) + α_j·x_e`), `peer[j]` holds
/// `ρ(q_e)` for peer j's inputs (j holds `ρ(t_e)` with `ρ(q_e) = ρ(t_e) + α_self·x_e`).
pub(crate) type CopeOutput = PairwiseOutput<u64>;

impl Cope {
    /// Base OTs in both directions with every peer ([`Pairwise::setup`]); `a ∈ F_2^t` is this
    /// party's key-holder vector, σ(α_P) for an honest party ([`choices`]; tests pass other
    /// vectors: F_vCOPEe's corrupt key holder). All parties use the same `session` tag, fresh per
    /// run.
    pub async fn setup<N: Network, R: RngCore + CryptoRng>(
        net: &mut N,
        params: &CoralParams,
        session: &[u8],
        a: &[bool],
        rng: &mut R,
    ) -> Result<Self, CoralError> {
        let maps = Maps::new(params);
        let t = maps.t();
        assert_eq!(a.len(), t, "one choice per MFE coordinate");
        let masks: Vec<u128> = a.iter().map(|&b| 0u128.wrapping_sub(u128::from(b))).collect();
        let inner = Pairwise::setup(net, BASE_TAG, session, a, t, CHUNK, rng, |seeds| PeerCope {
            maps: maps.clone(),
            masks: masks.clone(),
            chosen: seeds.chosen,
            pairs: seeds.pairs,
        })
        .await?;
        Ok(Cope(inner))
    }

    /// Authenticates this party's `own` elements under every peer's key and `counts[j]` elements
    /// of each peer j under this party's key, in ⌈max/[`CHUNK`]⌉ exchanges.
    pub async fn extend<N: Network>(
        &mut self,
        channel: &mut Channel,
        net: &mut N,
        own: &[u64],
        counts: &[usize],
    ) -> Result<CopeOutput, CoralError> {
        self.0.extend(&mut ColumnFrames { channel, step: Step::CopeColumns }, net, own, counts).await
    }
}

impl PeerColumns for PeerCope {
    type Input = u64;
    type Output = u64;
    type Error = CoralError;

    /// Input side: the packed columns `u_h` and `ρ(t_j)`.
    fn columns(&mut self, x: &[u64]) -> (Vec<u8>, Vec<u64>) {
        let (l, t) = (x.len(), self.maps.t());
        let blocks = l.div_ceil(128);
        let xs = slice(x, blocks);
        let mut acc = vec![vec![0u128; blocks]; FIELD_BITS];
        let (mut x, mut t0, mut u) = (vec![0u128; blocks], vec![0u128; blocks], vec![0u128; blocks]);
        let mut packed = BitWriter::new(t * l);
        for (h, pair) in self.pairs.iter_mut().enumerate() {
            // Column h carries bit h of σ(x_j) for every j: the XOR of x's bit columns i with
            // σ(e_i)_h = 1.
            x.fill(0);
            for i in ones(self.maps.sigma[h]) {
                xor_into(&mut x, &xs[i]);
            }
            input_column(pair, &x, &mut t0, &mut u);
            packed.push_column(&u, l);
            for i in ones(self.maps.rho[h]) {
                xor_into(&mut acc[i], &t0);
            }
        }
        (packed.finish(), unslice(&acc, l))
    }

    /// Key side: `ρ(q_j)` from the peer's frame of columns for `m` elements.
    fn keys(&mut self, u: &[u8], m: usize, peer: PartyId) -> Result<Vec<u64>, CoralError> {
        let u = unpack_columns(u, self.maps.t(), m, peer)?;
        let blocks = m.div_ceil(128);
        let mut acc = vec![vec![0u128; blocks]; FIELD_BITS];
        let mut q = vec![0u128; blocks];
        for (h, (g, &mask)) in self.chosen.iter_mut().zip(&self.masks).enumerate() {
            key_column(g, mask, &u[h * blocks..(h + 1) * blocks], &mut q);
            for i in ones(self.maps.rho[h]) {
                xor_into(&mut acc[i], &q);
            }
        }
        Ok(unslice(&acc, m))
    }
}

/// The indices of the set bits of a public word.
fn ones(mut word: u64) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        (word != 0).then(|| {
            let i = word.trailing_zeros() as usize;
            word &= word - 1;
            i
        })
    })
}

fn xor_into(acc: &mut [u128], x: &[u128]) {
    for (a, &b) in acc.iter_mut().zip(x) {
        *a ^= b;
    }
}

/// Word `w` (64 bits) of a column stored as 128-bit blocks.
fn word(column: &[u128], w: usize) -> u64 {
    (column[w / 2] >> (64 * (w % 2))) as u64
}

/// Elements (≤ 64 bits each) into 42 bit columns of `blocks` blocks: bit j of column i is bit i of
/// `x[j]` (zero beyond `x.len()`).
fn slice(x: &[u64], blocks: usize) -> Vec<Vec<u128>> {
    let mut cols = vec![vec![0u128; blocks]; FIELD_BITS];
    for (w, group) in x.chunks(64).enumerate() {
        let mut m = [0u64; 64];
        m[..group.len()].copy_from_slice(group);
        transpose64(&mut m);
        for (col, &bits) in cols.iter_mut().zip(&m) {
            col[w / 2] |= u128::from(bits) << (64 * (w % 2));
        }
    }
    cols
}

/// The inverse of `slice` for the first `count` rows: element j has bit i = bit j of column i.
fn unslice(cols: &[Vec<u128>], count: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(count);
    for w in 0..count.div_ceil(64) {
        let mut m = [0u64; 64];
        for (row, col) in m.iter_mut().zip(cols) {
            *row = word(col, w);
        }
        transpose64(&mut m);
        out.extend_from_slice(&m[..(count - 64 * w).min(64)]);
    }
    out
}

/// Columns of `len` bits written back to back into one bit string.
struct BitWriter {
    words: Vec<u64>,
    bits: usize,
    pos: usize,
}

impl BitWriter {
    fn new(bits: usize) -> Self {
        BitWriter { words: vec![0; bits.div_ceil(64) + 1], bits, pos: 0 }
    }

    /// Appends the first `len` bits of `column` (later bits are dropped).
    fn push_column(&mut self, column: &[u128], len: usize) {
        for w in 0..len.div_ceil(64) {
            let n = (len - 64 * w).min(64);
            let v = word(column, w) & low_mask(n);
            let (at, shift) = (self.pos / 64, self.pos % 64);
            self.words[at] |= v << shift;
            if shift != 0 {
                self.words[at + 1] |= v >> (64 - shift);
            }
            self.pos += n;
        }
    }

    fn finish(self) -> Vec<u8> {
        debug_assert_eq!(self.pos, self.bits);
        let mut bytes: Vec<u8> = self.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes.truncate(self.bits.div_ceil(8));
        bytes
    }
}

fn low_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// Parses a frame of `t` columns of `count` bits: exact length, zero padding. Column h occupies
/// blocks `[h·b, (h+1)·b)` of the result, b = ⌈count/128⌉, bits beyond `count` zero.
pub(crate) fn unpack_columns(
    bytes: &[u8],
    t: usize,
    count: usize,
    peer: PartyId,
) -> Result<Vec<u128>, CoralError> {
    let (bits, expected) = (t * count, column_bytes(t, count));
    let step = Step::CopeColumns.name();
    if bytes.len() != expected {
        let reason =
            format!("expected {expected} bytes for {t} columns of {count} bits, got {}", bytes.len());
        return Err(CoralError::malformed(peer, step, reason));
    }
    if bits % 8 != 0 && bytes[expected - 1] >> (bits % 8) != 0 {
        return Err(CoralError::malformed(peer, step, "non-zero padding bits"));
    }
    let mut words = vec![0u64; bits.div_ceil(64) + 1];
    for (w, chunk) in words.iter_mut().zip(bytes.chunks(8)) {
        let mut b = [0u8; 8];
        b[..chunk.len()].copy_from_slice(chunk);
        *w = u64::from_le_bytes(b);
    }
    let blocks = count.div_ceil(128);
    let mut out = vec![0u128; t * blocks];
    for h in 0..t {
        for w in 0..count.div_ceil(64) {
            let n = (count - 64 * w).min(64);
            let pos = h * count + 64 * w;
            let (at, shift) = (pos / 64, pos % 64);
            let mut v = words[at] >> shift;
            if shift != 0 {
                v |= words[at + 1] << (64 - shift);
            }
            out[h * blocks + w / 2] |= u128::from(v & low_mask(n)) << (64 * (w % 2));
        }
    }
    Ok(out)
}
