//! Two-party construction of authenticated AES S-box tables (TinyTable §4, "Preprocessing for
//! AES"), from authenticated bits and multiplication triples.
//!
//! Data format (§4): an authenticated bit `[[x]]` is held as `(x_A, y_A, β_A)` by A and
//! `(x_B, y_B, β_B)` by B with `y_A = α_B·x_A + β_B` and `y_B = α_A·x_B + β_A` — the §3 MAC with
//! k = 64 ([`AuthBit`]). Sums are local; a public constant is added by A flipping its share and B
//! adjusting its key; products use one triple `[[a]], [[b]], [[c = ab]]` and the opening of `x ⊕ a`
//! and `y ⊕ b` (\[Bea91\]).
//!
//! The source of authenticated bits and triples is the [`AuthBitSource`] trait, as in the paper
//! (TinyOT \[NNOB12\] or \[FKOS15\]): the protocol is
//! [`crate::proto::tinytable::OtAuthBitPool`] (TinyOT over OT between the two parties, filled before
//! the construction starts); [`IdealAuthBits`], the **ideal functionality** (both parties' halves
//! sampled together by a trusted party), is a test helper. Everything after the source is real two-party
//! message passing over [`Network`], with every opened value MAC-checked by the §3.3 batched
//! opening (one hash per message).
//!
//! Per block (AES-128 encryption or decryption, key schedule local to the key owner as in
//! [`crate::proto::tinytable::sbox::tables`]; decryption is the equivalent inverse cipher of
//! [`super::direction`], so only the table and the linear layer differ):
//! 1. 2816 random `[[·]]` bits: 11 round-key masks, the plaintext mask and 10 rounds of S-box
//!    output masks (128 bits each). S-box input masks and the output mask follow by the AES linear
//!    layer, applied to authenticated bytes ([`crate::aes::linear`] over [`AuthByte`]). With an
//!    XOR-shared key ([`super::schedule`]) the 11 round-key masks are replaced by the masks of the
//!    two key shares (each opened to its party) and 40 `SubWord` output masks, 2944 bits in all:
//!    the round keys' masks follow through the key expansion on authenticated bytes, and the
//!    schedule's 40 tables (forward S-box in either direction) are built with the cipher's in the
//!    same three rounds, 200·247 = 49 400 triples per block.
//! 2. Input masks are opened to their owner (Fig. 8 step 4); the output mask stays shared and
//!    authenticated and is opened by the online phase after its MAC check.
//! 3. For each table with input mask `m`, the indicators `δ_j = [m = j]` of all 256 entries `j`
//!    — \[DK10\] as cited in §4 takes them as products of 8 literals `m_i ⊕ j_i ⊕ 1`, 7 binary
//!    multiplications per entry (1792 per table). Here they come from an **indicator tree**: the
//!    1-bit sets `{m_i ⊕ 1, m_i}` are multiplied pairwise into the 16 indicators of each 4-bit
//!    half and then into the 256 of the byte, `[m = (u, w)] = [m_lo = u]·[m_hi = w]`. Since each
//!    set sums to 1, only the products with neither factor the set's last entry need a triple;
//!    the others are XORs of those and the factors. That is 4·1 + 2·9 + 15·15 =
//!    [`TRIPLES_PER_TABLE`] = 247 products per table, in 3 rounds. No circuit needs fewer: the
//!    indicators span all 256 Boolean functions of 8 bits, and each AND gate adds at most one
//!    dimension to the 9 of the affine ones.
//!    160·247 = 39 520 triples per block.
//! 4. Entry `e` of the table is `⊕_j δ_j·S(e ⊕ j) ⊕ m_out = S(e ⊕ m) ⊕ m_out`, linear in the
//!    `δ_j` with public coefficients: local (an XOR-convolution with the S-box, computed in a
//!    transformed basis by [`super::convolve`]). The MACs on the 8 bits of an entry become one MAC
//!    on the byte by the `X^i` scaling of [`crate::proto::tinytable::mac::linear::mul_by_x_power`].
//!
//! Rounds: 3 (input-mask opening merged with the first multiplication round). The result is the
//! same [`MaliciousAesPrep`] the trusted dealer makes, with explicit MAC keys.
//!
//! Constant time: shares, tags and keys are combined with masks and XOR; all indices (table
//! entries `e ⊕ z`, bit positions) are public.

use super::convolve::sbox_entries;
use super::direction::linear_layer;
use super::schedule::{direction_keys, schedule_masks, ScheduleTables, SCHEDULE_TABLES};
use crate::aes::linear::AesByte;
use crate::aes::Direction;
use crate::field::clmul::Backend;
use crate::net::{Network, PartyId};
use crate::proto::tinytable::error::{Step, TinyTableError};
use crate::proto::tinytable::mac::batch_open::BatchHash;
use crate::proto::tinytable::mac::linear::{mul_by_x_power, tags_equal, MacParams, K64};
use crate::proto::tinytable::msg::{bit, check_two_parties, pack_bits, recv, send};
use crate::proto::tinytable::sbox::prep::{pack_entry, EntryLayout, MaliciousAesPrep, PeerKeys};
use crate::proto::tinytable::sbox::tables::{check_roles, ROUND_KEYS, TABLES_PER_BLOCK, TABLE_ENTRIES};
use crate::proto::tinytable::spec::Reveal;
use core::ops::{Add, AddAssign, BitXor};
use rand_core::{CryptoRng, RngCore};

/// Binary multiplications per table: the indicator tree's 4·1 + 2·9 + 225 products (module docs,
/// step 3), against 256·7 = 1792 for \[DK10\]'s product of 8 literals per entry.
pub const TRIPLES_PER_TABLE: usize = 4 + 2 * 9 + 15 * 15;
/// Random authenticated bits per AES-128 block: 11 round-key, 1 plaintext and 10 S-box output
/// masks of 128 bits.
pub const RANDOM_BITS_PER_BLOCK: usize = (ROUND_KEYS + 1 + 10) * 128;
/// Triples per AES-128 block.
pub const TRIPLES_PER_BLOCK: usize = TABLES_PER_BLOCK * TRIPLES_PER_TABLE;
/// Random authenticated bits per block with an XOR-shared key: the masks of both key shares, the
/// plaintext mask, 10 rounds of 4 key-schedule `SubWord` output masks and 10 of S-box output masks.
pub const RANDOM_BITS_PER_BLOCK_SHARED_KEY: usize = 3 * 128 + 10 * 32 + 10 * 128;
/// Triples per block with an XOR-shared key (the 40 key-schedule tables too).
pub const TRIPLES_PER_BLOCK_SHARED_KEY: usize = (TABLES_PER_BLOCK + SCHEDULE_TABLES) * TRIPLES_PER_TABLE;

/// Random authenticated bits and triples per block for an expanded or an XOR-shared key.
pub fn per_block(shared_key: bool) -> (usize, usize) {
    if shared_key {
        (RANDOM_BITS_PER_BLOCK_SHARED_KEY, TRIPLES_PER_BLOCK_SHARED_KEY)
    } else {
        (RANDOM_BITS_PER_BLOCK, TRIPLES_PER_BLOCK)
    }
}

/// One party's half of an authenticated bit `[[x]]` (§4).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct AuthBit {
    /// This party's additive share.
    pub share: bool,
    /// The MAC on `share` under the peer's key: `α_peer·share + β_peer`.
    pub tag: u128,
    /// This party's key `β` for the peer's share (the peer's tag is `α_own·share_peer + β`).
    pub key: u128,
}

impl core::fmt::Debug for AuthBit {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("AuthBit(..)")
    }
}

impl BitXor for AuthBit {
    type Output = AuthBit;
    #[inline]
    fn bitxor(self, o: AuthBit) -> AuthBit {
        AuthBit { share: self.share ^ o.share, tag: self.tag ^ o.tag, key: self.key ^ o.key }
    }
}

impl AuthBit {
    /// `[[x ⊕ c]]` for a public bit `c`: party 0 flips its share, party 1 shifts its key by `α_1`.
    #[inline]
    pub fn add_public(self, c: bool, party: PartyId, alpha: u64) -> AuthBit {
        let c_mask = 0u128.wrapping_sub(u128::from(c));
        if party == 0 {
            AuthBit { share: self.share ^ c, ..self }
        } else {
            AuthBit { key: self.key ^ (u128::from(alpha) & c_mask), ..self }
        }
    }
}

/// One party's half of a multiplication triple `[[a]], [[b]], [[c]]` with `c = a·b`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AuthTriple {
    /// `[[a]]`.
    pub a: AuthBit,
    /// `[[b]]`.
    pub b: AuthBit,
    /// `[[a·b]]`.
    pub c: AuthBit,
}

/// A source of authenticated random bits and triples for one party (TinyOT's output format, §4).
pub trait AuthBitSource {
    /// This party's global MAC key α.
    fn alpha(&self) -> u64;
    /// `n` random authenticated bits.
    fn random_bits(&mut self, n: usize) -> Result<Vec<AuthBit>, TinyTableError>;
    /// `n` random multiplication triples.
    fn triples(&mut self, n: usize) -> Result<Vec<AuthTriple>, TinyTableError>;
}

/// The ideal functionality for authenticated bits and triples: a trusted party samples both halves
/// together ([`IdealAuthBits::pair`]) and each party draws from its pool. **Trust model:** like the
/// trusted dealer; it stands in for TinyOT, everything built on it is a real two-party protocol.
#[derive(Clone)]
pub struct IdealAuthBits {
    party: PartyId,
    alpha: u64,
    bits: Vec<AuthBit>,
    triples: Vec<AuthTriple>,
}

impl core::fmt::Debug for IdealAuthBits {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("IdealAuthBits")
            .field("party", &self.party)
            .field("bits", &self.bits.len())
            .field("triples", &self.triples.len())
            .finish_non_exhaustive()
    }
}

impl IdealAuthBits {
    /// Both parties' pools of `bits` random bits and `triples` triples.
    pub fn pair<R: RngCore + CryptoRng>(rng: &mut R, bits: usize, triples: usize) -> [IdealAuthBits; 2] {
        let backend = Backend::detect();
        let alphas = [K64::random_elem(rng), K64::random_elem(rng)];
        let share = |rng: &mut R, x: bool| -> [AuthBit; 2] {
            let x0 = rng.next_u32() & 1 == 1;
            let xs = [x0, x0 ^ x];
            let betas = [K64::random_tag(rng), K64::random_tag(rng)];
            core::array::from_fn(|p| AuthBit {
                share: xs[p],
                tag: K64::mul(backend, alphas[1 - p], u64::from(xs[p])) ^ betas[1 - p],
                key: betas[p],
            })
        };
        let mut out: [IdealAuthBits; 2] = core::array::from_fn(|p| IdealAuthBits {
            party: p,
            alpha: alphas[p],
            bits: Vec::with_capacity(bits),
            triples: Vec::with_capacity(triples),
        });
        for _ in 0..bits {
            let x = rng.next_u32() & 1 == 1;
            let [h0, h1] = share(rng, x);
            out[0].bits.push(h0);
            out[1].bits.push(h1);
        }
        for _ in 0..triples {
            let (a, b) = (rng.next_u32() & 1 == 1, rng.next_u32() & 1 == 1);
            let (sa, sb, sc) = (share(rng, a), share(rng, b), share(rng, a & b));
            for p in 0..2 {
                out[p].triples.push(AuthTriple { a: sa[p], b: sb[p], c: sc[p] });
            }
        }
        out
    }

    /// The pools for building `blocks` AES-128 blocks' tables.
    pub fn pair_for_aes<R: RngCore + CryptoRng>(rng: &mut R, blocks: usize) -> [IdealAuthBits; 2] {
        Self::pair(rng, blocks * RANDOM_BITS_PER_BLOCK, blocks * TRIPLES_PER_BLOCK)
    }
}

/// The first `n` items of a pool of `what` held by `source` (for [`AuthBitSource`] pools), or a
/// typed error when fewer are left.
pub(crate) fn take_from_pool<T>(
    party: PartyId,
    pool: &mut Vec<T>,
    n: usize,
    source: &str,
    what: &str,
) -> Result<Vec<T>, TinyTableError> {
    if pool.len() < n {
        return Err(TinyTableError::PrepMismatch {
            party,
            reason: format!("{source} has {} {what} left, {n} requested", pool.len()),
        });
    }
    Ok(pool.drain(..n).collect())
}

impl AuthBitSource for IdealAuthBits {
    fn alpha(&self) -> u64 {
        self.alpha
    }
    fn random_bits(&mut self, n: usize) -> Result<Vec<AuthBit>, TinyTableError> {
        take_from_pool(self.party, &mut self.bits, n, "ideal functionality", "bits")
    }
    fn triples(&mut self, n: usize) -> Result<Vec<AuthTriple>, TinyTableError> {
        take_from_pool(self.party, &mut self.triples, n, "ideal functionality", "triples")
    }
}

/// An authenticated byte (8 [`AuthBit`]s, bit i the coefficient of x^i), with what adding a public
/// constant needs, so the generic AES linear layer runs on it.
#[derive(Clone, Copy, Debug)]
pub struct AuthByte {
    bits: [AuthBit; 8],
    party: PartyId,
    alpha: u64,
}

impl Add for AuthByte {
    type Output = AuthByte;
    fn add(self, o: AuthByte) -> AuthByte {
        AuthByte { bits: core::array::from_fn(|i| self.bits[i] ^ o.bits[i]), ..self }
    }
}

impl AddAssign for AuthByte {
    fn add_assign(&mut self, o: AuthByte) {
        *self = *self + o;
    }
}

impl AesByte for AuthByte {
    fn xtime(self) -> AuthByte {
        // {02}·b = (b << 1) ⊕ b_7·0x1b: a GF(2)-linear map of the bits.
        let b = self.bits;
        let bits = [b[7], b[0] ^ b[7], b[1], b[2] ^ b[7], b[3] ^ b[7], b[4], b[5], b[6]];
        AuthByte { bits, ..self }
    }

    fn add_public(self, c: u8) -> AuthByte {
        let bits = core::array::from_fn(|i| self.bits[i].add_public(c >> i & 1 == 1, self.party, self.alpha));
        AuthByte { bits, ..self }
    }
}

impl AuthByte {
    /// The share byte, its MAC (`⊕ X^i·tag_i`) and the key for the peer's byte (`⊕ X^i·key_i`).
    fn to_byte_mac(self) -> (u8, u128, u128) {
        let mut out = (0u8, 0u128, 0u128);
        for (i, b) in self.bits.iter().enumerate() {
            out.0 |= u8::from(b.share) << i;
            out.1 ^= mul_by_x_power(b.tag, i as u32);
            out.2 ^= mul_by_x_power(b.key, i as u32);
        }
        out
    }
}

type AuthState = [AuthByte; 16];

/// Opens values in one round: sends the shares of `reveal` with the batched hash of their tags and
/// checks the peer's shares of `expect` (this party's halves of the values the peer opens).
async fn exchange<N: Network>(
    net: &mut N,
    step: Step,
    hash_key: &[u8; 16],
    alpha: u64,
    backend: Backend,
    reveal: &[AuthBit],
    expect: &[AuthBit],
) -> Result<Vec<bool>, TinyTableError> {
    let party = net.party();
    let mut msg = pack_bits(reveal.iter().map(|b| b.share));
    let mut hash = BatchHash::new(hash_key);
    hash.absorb(&reveal.iter().map(|b| b.tag).collect::<Vec<_>>());
    msg.extend(hash.digest());
    send(net, step, msg)?;
    let packed = expect.len().div_ceil(8);
    let theirs = recv(net, step, packed + 16).await?;
    let shares: Vec<bool> = (0..expect.len()).map(|i| bit(&theirs, i)).collect();
    let expected_tags: Vec<u128> =
        expect.iter().zip(&shares).map(|(b, &s)| K64::mul(backend, alpha, u64::from(s)) ^ b.key).collect();
    let mut check = BatchHash::new(hash_key);
    check.absorb(&expected_tags);
    let received = u128::from_le_bytes(theirs[packed..].try_into().unwrap_or([0xff; 16]));
    if !tags_equal(u128::from_le_bytes(check.digest()), received) {
        return Err(TinyTableError::AuthenticationFailed { party, step });
    }
    Ok(shares)
}

/// The Beaver factors of one level of the indicator tree (module docs, step 3): `level` holds,
/// table by table, indicator sets of `size` entries each (entry `v` is `[bits of the set's group =
/// v]`, the entries sum to 1); consecutive sets `A` (lower bits) and `B` (higher bits) pair up, and
/// for `i, j < size − 1` the product `A_i·B_j` is needed, pushed as the factor pair `(A_i, B_j)`,
/// `j` major. The products with the last entry of either set follow linearly
/// ([`tree_complete`]), which is why `(size − 1)²` products suffice.
fn tree_factors(level: &[AuthBit], size: usize) -> Vec<AuthBit> {
    let n = size - 1;
    let mut factors = Vec::with_capacity(level.len() / size * n * n);
    for pair in level.chunks_exact(2 * size) {
        let (a, b) = pair.split_at(size);
        for &bj in &b[..n] {
            for &ai in &a[..n] {
                factors.push(ai);
                factors.push(bj);
            }
        }
    }
    factors
}

/// The next level of the indicator tree from `level` (as in [`tree_factors`]) and the products
/// `A_i·B_j` (`i, j < size − 1`, in [`tree_factors`]'s order): the set of `size²` entries
/// `P[i + size·j] = A_i·B_j` over the union of both groups' bits, where
/// `A_{last}·B_j = B_j ⊕ ⊕_{i<last} A_i·B_j` and `A_i·B_{last} = A_i ⊕ ⊕_{j<last} A_i·B_j`
/// because each set sums to 1. Local: XOR of authenticated bits.
fn tree_complete(level: &[AuthBit], size: usize, products: &[AuthBit]) -> Vec<AuthBit> {
    let n = size - 1;
    let mut next = Vec::with_capacity(level.len() / 2 * size);
    for (pair, prods) in level.chunks_exact(2 * size).zip(products.chunks_exact(n * n)) {
        let (a, b) = pair.split_at(size);
        let start = next.len();
        next.resize(start + size * size, AuthBit::default());
        let p = &mut next[start..];
        for j in 0..n {
            let mut last = b[j];
            for i in 0..n {
                p[i + size * j] = prods[j * n + i];
                last = last ^ prods[j * n + i];
            }
            p[n + size * j] = last;
        }
        for (i, &ai) in a.iter().enumerate() {
            p[i + size * n] = (0..n).fold(ai, |acc, j| acc ^ p[i + size * j]);
        }
    }
    next
}

/// Builds this party's authenticated S-box table material for `blocks` AES-128 blocks in
/// `direction` (decryption: inverse S-box tables, masks through the inverse linear layer; see
/// [`super::direction`]) with the peer over `net` (§4), drawing bits and triples from `source`.
/// With `shared_key` both parties input an XOR share of the key and the material holds the
/// key-schedule tables ([`super::schedule`]), `key_owner` then naming the party that inputs only
/// its share. `hash_key` is the public fixed AES key of the batched openings (§3.3), the same for
/// both parties and chosen per execution.
#[allow(clippy::too_many_arguments)]
pub async fn construct_malicious_aes_tables<N: Network, S: AuthBitSource>(
    net: &mut N,
    source: &mut S,
    direction: Direction,
    key_owner: PartyId,
    shared_key: bool,
    reveal: Reveal,
    blocks: usize,
    hash_key: [u8; 16],
) -> Result<MaliciousAesPrep, TinyTableError> {
    check_two_parties(net)?;
    check_roles(key_owner, reveal)?;
    let party = net.party();
    let alpha = source.alpha();
    let backend = Backend::detect();
    let (bits_per_block, triples_per_block) = per_block(shared_key);
    let random = source.random_bits(blocks * bits_per_block)?;
    let triples = source.triples(blocks * triples_per_block)?;
    let byte = |bits: &[AuthBit]| AuthByte { bits: core::array::from_fn(|i| bits[i]), party, alpha };
    let state = |bits: &[AuthBit]| -> AuthState { core::array::from_fn(|j| byte(&bits[8 * j..8 * j + 8])) };

    // Mask chains (§2.3 on authenticated bytes): S-box input masks and output masks of each block.
    let mut in_masks: Vec<AuthState> = Vec::with_capacity(10 * blocks);
    let mut out_masks: Vec<AuthState> = Vec::with_capacity(10 * blocks);
    let mut output_masks: Vec<AuthState> = Vec::with_capacity(blocks);
    // With a shared key, the key-schedule tables' masks (`SubWord` inputs and outputs, 4 per round).
    let mut schedule_masks_in: Vec<AuthByte> = Vec::new();
    let mut schedule_masks_out: Vec<AuthByte> = Vec::new();
    let (mut mine_to_open, mut peer_to_open) = (Vec::new(), Vec::new());
    for bits in random.chunks_exact(bits_per_block) {
        let (key_states, pt, outs): ([AuthState; ROUND_KEYS], &[AuthBit], &[AuthBit]) = if shared_key {
            // Each party's key-share mask is opened to it; the key's mask is their sum.
            let (shares, rest) = bits.split_at(2 * 128);
            let (pt, rest) = rest.split_at(128);
            let (sub_outs, outs) = rest.split_at(10 * 32);
            mine_to_open.extend_from_slice(&shares[128 * party..][..128]);
            peer_to_open.extend_from_slice(&shares[128 * (1 - party)..][..128]);
            let (mask_0, mask_1) = (state(shares), state(&shares[128..]));
            let key_mask: AuthState = core::array::from_fn(|j| mask_0[j] + mask_1[j]);
            let sub_outs: [[AuthByte; 4]; 10] =
                core::array::from_fn(|r| core::array::from_fn(|t| byte(&sub_outs[32 * r + 8 * t..])));
            let (sub_ins, forward) = schedule_masks(key_mask, &sub_outs);
            schedule_masks_in.extend(sub_ins.as_flattened());
            schedule_masks_out.extend(sub_outs.as_flattened());
            (direction_keys(direction, &forward), pt, outs)
        } else {
            let (keys, rest) = bits.split_at(ROUND_KEYS * 128);
            let (pt, outs) = rest.split_at(128);
            if party == key_owner {
                mine_to_open.extend_from_slice(keys);
            } else {
                peer_to_open.extend_from_slice(keys);
            }
            (core::array::from_fn(|r| state(&keys[128 * r..128 * r + 128])), pt, outs)
        };
        if party == key_owner {
            peer_to_open.extend_from_slice(pt);
        } else {
            mine_to_open.extend_from_slice(pt);
        }
        let mut mask = state(pt);
        mask.iter_mut().zip(key_states[0]).for_each(|(m, k)| *m += k);
        for round in 1..ROUND_KEYS {
            in_masks.push(mask);
            let out = state(&outs[128 * (round - 1)..128 * round]);
            out_masks.push(out);
            mask = out;
            linear_layer(direction, &mut mask, round == ROUND_KEYS - 1);
            mask.iter_mut().zip(key_states[round]).for_each(|(m, k)| *m += k);
        }
        output_masks.push(mask);
    }

    // The 1-bit indicator sets {[m_i = 0], [m_i = 1]} = {m_i ⊕ 1, m_i} of every table's input mask
    // (the cipher's tables, then the key schedule's), then three levels of the indicator tree, one
    // round of Beaver products each.
    let cipher_tables = blocks * TABLES_PER_BLOCK;
    let tables = cipher_tables + schedule_masks_in.len();
    let in_mask = |t: usize| -> AuthByte {
        if t < cipher_tables {
            in_masks[t / 16][t % 16]
        } else {
            schedule_masks_in[t - cipher_tables]
        }
    };
    let mut level: Vec<AuthBit> = Vec::with_capacity(tables * 16);
    for t in 0..tables {
        for &m in &in_mask(t).bits {
            level.push(m.add_public(true, party, alpha));
            level.push(m);
        }
    }
    let mut own_input_masks: Vec<bool> = Vec::new();
    let mut triples = triples.into_iter();
    let mut size = 2;
    for round in 1..=3 {
        let step = Step::TableConstruction(round);
        let factors = tree_factors(&level, size);
        let pairs = factors.len() / 2;
        let used: Vec<AuthTriple> = triples.by_ref().take(pairs).collect();
        let mut opened: Vec<AuthBit> = Vec::with_capacity(2 * pairs);
        for (xy, t) in factors.chunks_exact(2).zip(&used) {
            opened.push(xy[0] ^ t.a);
            opened.push(xy[1] ^ t.b);
        }
        let (reveal_now, expect_now) = if round == 1 {
            ([&peer_to_open[..], &opened].concat(), [&mine_to_open[..], &opened].concat())
        } else {
            (opened.clone(), opened.clone())
        };
        let theirs = exchange(net, step, &hash_key, alpha, backend, &reveal_now, &expect_now).await?;
        let skip = if round == 1 { mine_to_open.len() } else { 0 };
        if round == 1 {
            own_input_masks = mine_to_open.iter().zip(&theirs).map(|(b, &s)| b.share ^ s).collect();
        }
        let products: Vec<AuthBit> = used
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let d = opened[2 * k].share ^ theirs[skip + 2 * k];
                let e = opened[2 * k + 1].share ^ theirs[skip + 2 * k + 1];
                let and = |x: AuthBit, c: bool| {
                    let m = 0u128.wrapping_sub(u128::from(c));
                    AuthBit { share: x.share & c, tag: x.tag & m, key: x.key & m }
                };
                (t.c ^ and(t.b, d) ^ and(t.a, e)).add_public(d & e, party, alpha)
            })
            .collect();
        level = tree_complete(&level, size, &products);
        size *= size;
    }
    // `level` now holds δ_j for every table and entry.
    let input_masks: Vec<u8> = own_input_masks
        .chunks_exact(8)
        .map(|bits| bits.iter().enumerate().fold(0u8, |acc, (i, &b)| acc | u8::from(b) << i))
        .collect();

    // Entries ⊕_j δ_j·S(e ⊕ j) ⊕ m_out (step 4, by the transformed convolution of `convolve`);
    // the key schedule's tables are of the forward S-box in either direction.
    let entries = tables * TABLE_ENTRIES;
    let (mut packed, mut keys) = (vec![0u128; entries], vec![0u128; entries]);
    for t in 0..tables {
        let (sbox_direction, out_mask) = if t < cipher_tables {
            (direction, out_masks[t / 16][t % 16])
        } else {
            (Direction::Encrypt, schedule_masks_out[t - cipher_tables])
        };
        let table = sbox_entries(sbox_direction, &level[TABLE_ENTRIES * t..TABLE_ENTRIES * (t + 1)]);
        let (m_out, m_tag, m_key) = out_mask.to_byte_mac();
        for (e, entry) in table.iter().enumerate() {
            let index = TABLE_ENTRIES * t + e;
            packed[index] = pack_entry(entry.share ^ m_out, entry.tag ^ m_tag);
            keys[index] = entry.key ^ m_key;
        }
    }
    // Schedule table `4 (round − 1) + byte` of block `b` was pushed as table `40 b + …` after the
    // cipher's: exactly its `schedule_index` position in the split-off arrays.
    let schedule = shared_key.then(|| ScheduleTables {
        entries: packed.split_off(cipher_tables * TABLE_ENTRIES),
        keys: keys.split_off(cipher_tables * TABLE_ENTRIES),
    });
    let mut output_mask_shares = Vec::with_capacity(16 * blocks);
    let mut output_mask_tags = Vec::with_capacity(16 * blocks);
    let mut output_keys = Vec::with_capacity(16 * blocks);
    for b in output_masks.iter().flatten() {
        let (s, t, k) = b.to_byte_mac();
        output_mask_shares.push(s);
        output_mask_tags.push(t);
        output_keys.push(k);
    }
    Ok(MaliciousAesPrep {
        party,
        direction,
        key_owner,
        reveal,
        blocks,
        entries: packed,
        layout: EntryLayout::BlockMajor,
        alpha,
        peer_keys: PeerKeys::Explicit { tables: keys, outputs: output_keys },
        hash_key,
        input_masks,
        output_mask_shares,
        output_mask_tags,
        schedule,
    })
}
