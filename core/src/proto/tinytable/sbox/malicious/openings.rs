//! The per-lookup work of the malicious S-box online phase ([`super::sbox_malicious`]): reading
//! this party's opened entries with their tags, and the two batched-opening hashes of TinyTable
//! §3.3 — `H = ⊕ F(y_i)` over the tags of the entries this party sends, and the verifier's
//! `⊕ F(α·x_i + β_i)` over the entries the peer sent (§3.2: `β_i = PRF(i)`, [`KeyPrf`], or stored
//! keys), all projected onto [`BYTE_TAG_MASK`] as in [`super::linear_mac`].
//!
//! Both are done in one pass over a range of blocks ([`Openings::pass`]), so that the reads of
//! one round's entries — random cache misses into hundreds of MiB, bounded by memory latency —
//! overlap the AES work of the previous round's verification and of this round's own hash, which
//! is bounded by the AES unit. The reads of block `i + AHEAD` are prefetched while the AES work of
//! block `i` runs, a few prefetches between each group of AES blocks, so the misses stay in flight
//! while the cipher runs. The pass stays bound by the reads: profiles (software clock) put most of
//! its samples right after the prefetches, which wait for a free miss slot; the AES work now runs
//! in their shadow instead of after them.
//!
//! Backends ([`Backend`], chosen in one place):
//! - [`Backend::Portable`]: [`crate::arch::ManyAes`] ([`BatchHash`], [`KeyPrf`]) per block of 16
//!   lookups (the `aes` crate natively; the constant-time `simd128` bit-sliced AES on wasm32).
//! - [`Backend::AesNi`] (x86-64 with AES-NI and SSE4.1, detected at run time): the three AES
//!   streams of a block (own hash, the verifier's PRF and its hash) in groups of 8 blocks
//!   interleaved round by round, round keys expanded once per pass with `aeskeygenassist`,
//!   accumulators in registers.
//!
//! The backends give identical results; the tests cross-check them against each other and against
//! the definitions (fixed-key AES from the `aes` crate, tags `α·x ⊕ β` from
//! [`super::linear_mac::byte_multiples`]).
//!
//! Constant time: entries and tags are read at indices made of public masked bytes; the
//! verifier's `α·x` is read from its 256-entry table at the peer's entry `x`, which the peer sent in
//! the clear; everything secret is only XORed, ANDed and encrypted.

use crate::arch::prefetch::prefetch;
pub(crate) use crate::proto::tinytable::circuit::opened_macs::Backend;
use crate::proto::tinytable::mac::batch_open::BatchHash;
use crate::proto::tinytable::mac::linear::{byte_multiples, BYTE_TAG_MASK};
use crate::proto::tinytable::sbox::prep::{
    entry_of, tag_of, EntryLayout, MaliciousAesPrep, PeerKeys, OUTPUT_INDEX,
};
use crate::proto::tinytable::sbox::tables::TABLE_ENTRIES;
use core::ops::Range;

/// How many blocks ahead of the current one a pass prefetches the entries it will read.
const AHEAD: usize = 3;

/// The entries a pass looks up, 16 per block (all indices are public).
#[derive(Clone, Copy)]
pub(crate) enum Lookups<'a> {
    /// Entry `inputs[i][j]` of table `16 (round − 1) + j` of block `i`.
    Round {
        /// The S-box round, from 1.
        round: usize,
        /// The masked S-box inputs of that round, per block.
        inputs: &'a [[u8; 16]],
    },
    /// Output-mask byte `j` of block `i`.
    Output,
}

/// Where a batch's entries lie: the material's layout and block count.
#[derive(Clone, Copy)]
struct Placement {
    layout: EntryLayout,
    blocks: usize,
}

impl Lookups<'_> {
    /// The indices ([`EntryLayout::index`], or [`OUTPUT_INDEX`] `| 16 i + j`) of block `block`'s
    /// lookups.
    #[inline(always)]
    fn indices(&self, at: Placement, block: usize) -> [u64; 16] {
        match *self {
            Lookups::Round { round, inputs } => {
                // In both layouts a block's 16 tables of one round are consecutive.
                let base = at.layout.index(at.blocks, block, 16 * (round - 1), 0);
                let e = &inputs[block];
                core::array::from_fn(|j| (base + TABLE_ENTRIES * j + usize::from(e[j])) as u64)
            }
            Lookups::Output => core::array::from_fn(|j| OUTPUT_INDEX | (16 * block + j) as u64),
        }
    }
}

/// The reading half of a pass: this party's entries of round `round` at `inputs`, written to `out`
/// (block `i` at `out[i]`), their tags absorbed into the own hash.
pub(crate) struct Gather<'a> {
    /// The S-box round, from 1.
    pub(crate) round: usize,
    /// The masked S-box inputs of that round, per block.
    pub(crate) inputs: &'a [[u8; 16]],
    /// This party's entries, per block.
    pub(crate) out: &'a mut [[u8; 16]],
}

/// The verifying half of a pass: the peer's entries `theirs` (block `i` at `theirs[i]`) at
/// `lookups`, their expected tags absorbed into the verifier's hash.
pub(crate) struct Verify<'a> {
    /// Where the peer's entries are from.
    pub(crate) lookups: Lookups<'a>,
    /// The peer's entries, per block.
    pub(crate) theirs: &'a [[u8; 16]],
}

/// The backend's form of the two hashes.
enum Engine {
    /// The own hash and the verifier's.
    Portable(Box<[BatchHash; 2]>),
    #[cfg(target_arch = "x86_64")]
    AesNi(Box<AesNiHashes>),
}

/// The AES-NI backend's key schedules and running hashes.
#[cfg(target_arch = "x86_64")]
struct AesNiHashes {
    hash: x86::RoundKeys,
    /// The verifier's PRF round keys; `None` for stored keys.
    prf: Option<x86::RoundKeys>,
    /// The own hash and the verifier's.
    accs: (u128, u128),
}

/// One party's running opening state over an evaluation: its own hash and the verifier's hash.
pub(crate) struct Openings<'a> {
    prep: &'a MaliciousAesPrep,
    /// `α·x` for every byte `x`.
    multiples: Vec<u128>,
    engine: Engine,
}

impl<'a> Openings<'a> {
    /// Empty hashes for `prep`'s party, computed with `backend`.
    pub(crate) fn new(prep: &'a MaliciousAesPrep, backend: Backend) -> Self {
        let multiples = byte_multiples(crate::field::clmul::Backend::detect(), prep.alpha);
        let engine = match backend {
            Backend::Portable => {
                Engine::Portable(Box::new([BatchHash::new(&prep.hash_key), BatchHash::new(&prep.hash_key)]))
            }
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `AesNi` is only constructed after detecting AES-NI and SSE4.1.
            Backend::AesNi => unsafe {
                Engine::AesNi(Box::new(AesNiHashes {
                    hash: x86::RoundKeys::expand(&prep.hash_key),
                    prf: match &prep.peer_keys {
                        PeerKeys::Prf(prf) => Some(x86::RoundKeys::expand(prf.seed())),
                        PeerKeys::Explicit { .. } => None,
                    },
                    accs: (0, 0),
                }))
            },
        };
        Openings { prep, multiples, engine }
    }

    /// For every block in `blocks`: the lookups of `gather` (entries out, tags into the own hash)
    /// and of `verify` (expected tags into the verifier's hash). Both must cover `blocks`; the
    /// material's shape was checked ([`MaliciousAesPrep::check_shape`]), so indices are in range.
    pub(crate) fn pass(
        &mut self,
        blocks: Range<usize>,
        gather: Option<Gather<'_>>,
        verify: Option<Verify<'_>>,
    ) {
        let (prep, multiples) = (self.prep, &self.multiples[..]);
        match &mut self.engine {
            Engine::Portable(hashes) => {
                let [sent, expected] = &mut **hashes;
                portable_pass(prep, multiples, blocks, gather, verify, sent, expected)
            }
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `AesNi` is only built by `new` for the detected backend.
            Engine::AesNi(state) => unsafe {
                let AesNiHashes { hash, prf, accs } = &mut **state;
                let material = x86::Material {
                    hash,
                    prf: prf.as_ref(),
                    peer: &prep.peer_keys,
                    words: &prep.entries,
                    at: Placement { layout: prep.layout, blocks: prep.blocks },
                    multiples,
                };
                x86::pass(&material, blocks, gather, verify, accs);
            },
        }
    }

    /// `H` over the tags of the entries gathered so far (the batched opening this party sends).
    pub(crate) fn sent_digest(&self) -> [u8; 16] {
        match &self.engine {
            Engine::Portable(hashes) => hashes[0].digest(),
            #[cfg(target_arch = "x86_64")]
            Engine::AesNi(state) => state.accs.0.to_le_bytes(),
        }
    }

    /// `H` over the expected tags of the peer's entries verified so far.
    pub(crate) fn expected_digest(&self) -> [u8; 16] {
        match &self.engine {
            Engine::Portable(hashes) => hashes[1].digest(),
            #[cfg(target_arch = "x86_64")]
            Engine::AesNi(state) => state.accs.1.to_le_bytes(),
        }
    }
}

/// The tags `(β_i ⊕ α·x_i) & BYTE_TAG_MASK` the verifier expects for the peer's entries `x` at
/// `indices` (portable: β from [`PeerKeys::fill`]).
fn expected_tags(keys: &PeerKeys, multiples: &[u128], indices: &[u64; 16], x: &[u8; 16]) -> [u128; 16] {
    let mut tags = [0u128; 16];
    keys.fill(indices, &mut tags);
    for (t, &x) in tags.iter_mut().zip(x) {
        *t = (*t ^ multiples[usize::from(x)]) & BYTE_TAG_MASK;
    }
    tags
}

/// Prefetches the words block `block` of `gather` will read.
#[inline(always)]
fn prefetch_block(words: &[u128], at: Placement, gather: &Gather<'_>, block: usize) {
    let indices = Lookups::Round { round: gather.round, inputs: gather.inputs }.indices(at, block);
    for &k in &indices {
        prefetch(&words[k as usize]);
    }
}

fn portable_pass(
    prep: &MaliciousAesPrep,
    multiples: &[u128],
    blocks: Range<usize>,
    mut gather: Option<Gather<'_>>,
    verify: Option<Verify<'_>>,
    sent: &mut BatchHash,
    expected: &mut BatchHash,
) {
    let words = &prep.entries[..];
    let at = Placement { layout: prep.layout, blocks: prep.blocks };
    let end = blocks.end;
    for i in blocks {
        if let Some(g) = &mut gather {
            if i + AHEAD < end {
                prefetch_block(words, at, g, i + AHEAD);
            }
            let indices = Lookups::Round { round: g.round, inputs: g.inputs }.indices(at, i);
            let mut tags = [0u128; 16];
            for ((out, tag), &k) in g.out[i].iter_mut().zip(&mut tags).zip(&indices) {
                let word = words[k as usize];
                *out = entry_of(word);
                *tag = tag_of(word);
            }
            sent.absorb(&tags);
        }
        if let Some(v) = &verify {
            expected.absorb(&expected_tags(
                &prep.peer_keys,
                multiples,
                &v.lookups.indices(at, i),
                &v.theirs[i],
            ));
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{
        expected_tags, prefetch, Gather, Lookups, PeerKeys, Placement, Range, Verify, AHEAD, BYTE_TAG_MASK,
    };

    /// AES blocks per interleaved group (the `aesenc` latency is 4 cycles, one issues per cycle).
    const GROUP: usize = 8;

    use crate::arch::aes_ni::Block;
    pub(super) use crate::arch::aes_ni::RoundKeys;

    /// XORs `F(b)` of a group into `acc` (`F` = AES-128 under `keys`).
    #[inline]
    #[target_feature(enable = "sse2,aes")]
    fn absorb(keys: &RoundKeys, b: [Block; GROUP], acc: &mut Block) {
        for x in keys.encrypt_group(b) {
            *acc = acc.xor(x);
        }
    }

    /// What a pass reads besides its lookups: the hash and PRF round keys, the verifier's keys,
    /// this party's entry words and their placement, and the multiples `α·x`.
    pub(super) struct Material<'a> {
        pub(super) hash: &'a RoundKeys,
        pub(super) prf: Option<&'a RoundKeys>,
        pub(super) peer: &'a PeerKeys,
        pub(super) words: &'a [u128],
        pub(super) at: Placement,
        pub(super) multiples: &'a [u128],
    }

    /// The prefetches of a block [`AHEAD`], issued a quarter at a time between AES groups.
    struct Ahead<'w> {
        words: &'w [u128],
        indices: [u64; 16],
        /// Lookups prefetched so far (16 when there is nothing to prefetch).
        done: usize,
    }

    impl Ahead<'_> {
        /// Prefetches the next quarter.
        #[inline(always)]
        fn next(&mut self) {
            if self.done < 16 {
                for &k in &self.indices[self.done..self.done + 4] {
                    prefetch(&self.words[k as usize]);
                }
                self.done += 4;
            }
        }

        /// Prefetches what is left.
        #[inline(always)]
        fn rest(&mut self) {
            while self.done < 16 {
                self.next();
            }
        }
    }

    /// The group `g` (lookups `8 g .. 8 g + 8`) of a block's 16 values.
    #[inline(always)]
    fn group(values: &[Block; 16], g: usize) -> [Block; GROUP] {
        core::array::from_fn(|u| values[GROUP * g + u])
    }

    /// [`super::portable_pass`] with the AES streams of a block in groups of 8 interleaved round by
    /// round, and the prefetches of block `i + AHEAD` spread between the groups.
    /// `accs`: (own hash, verifier's hash).
    #[target_feature(enable = "sse2,sse4.1,aes")]
    pub(super) fn pass(
        keys: &Material<'_>,
        blocks: Range<usize>,
        mut gather: Option<Gather<'_>>,
        verify: Option<Verify<'_>>,
        accs: &mut (u128, u128),
    ) {
        let (words, at, multiples) = (keys.words, keys.at, keys.multiples);
        let mask = Block::from_u128(BYTE_TAG_MASK);
        let (mut sent, mut expected) = (Block::from_u128(accs.0), Block::from_u128(accs.1));
        let end = blocks.end;
        for i in blocks {
            let mut ahead = Ahead { words, indices: [0; 16], done: 16 };
            if let Some(g) = &gather {
                if i + AHEAD < end {
                    ahead.indices =
                        Lookups::Round { round: g.round, inputs: g.inputs }.indices(at, i + AHEAD);
                    ahead.done = 0;
                }
            }
            ahead.next();
            if let Some(v) = &verify {
                let indices = v.lookups.indices(at, i);
                let x = &v.theirs[i];
                let tags: [Block; 16] = match keys.prf {
                    Some(prf) => {
                        let mut tags = [mask; 16];
                        for g in 0..2 {
                            let input = core::array::from_fn(|u| Block::from_u64(indices[GROUP * g + u]));
                            for (u, b) in prf.encrypt_group::<GROUP>(input).into_iter().enumerate() {
                                let m = Block::load(&multiples[usize::from(x[GROUP * g + u])]);
                                tags[GROUP * g + u] = b.xor(m).and(mask);
                            }
                            ahead.next();
                        }
                        tags
                    }
                    None => expected_tags(keys.peer, multiples, &indices, x).map(|t| Block::from_u128(t)),
                };
                absorb(keys.hash, group(&tags, 0), &mut expected);
                absorb(keys.hash, group(&tags, 1), &mut expected);
            }
            if let Some(g) = &mut gather {
                let indices = Lookups::Round { round: g.round, inputs: g.inputs }.indices(at, i);
                let mut tags = [mask; 16];
                for ((o, t), &k) in g.out[i].iter_mut().zip(&mut tags).zip(&indices) {
                    let w = Block::load(&words[k as usize]);
                    *o = w.top_byte();
                    *t = w.and(mask);
                }
                absorb(keys.hash, group(&tags, 0), &mut sent);
                ahead.next();
                absorb(keys.hash, group(&tags, 1), &mut sent);
            }
            ahead.rest();
        }
        *accs = (sent.to_u128(), expected.to_u128());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::Direction;
    use crate::field::clmul;
    use crate::proto::tinytable::mac::batch_open::KeyPrf;
    use crate::proto::tinytable::mac::linear::{MacParams, K64};
    use crate::proto::tinytable::prep::TrustedDealer;
    use crate::proto::tinytable::spec::Reveal;
    use aes::cipher::generic_array::GenericArray;
    use aes::cipher::{BlockEncrypt, KeyInit};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    /// `F(d)`: AES-128 under the hash key.
    fn f(key: &[u8; 16], d: u128) -> u128 {
        let mut b = GenericArray::from(d.to_le_bytes());
        aes::Aes128::new(GenericArray::from_slice(key)).encrypt_block(&mut b);
        u128::from_le_bytes(b.into())
    }

    fn random_blocks(rng: &mut ChaCha20Rng, n: usize) -> Vec<[u8; 16]> {
        (0..n)
            .map(|_| {
                let mut b = [0u8; 16];
                rng.fill_bytes(&mut b);
                b
            })
            .collect()
    }

    /// The same material with its verifier keys stored instead of derived (the §4 form).
    fn explicit(prep: &MaliciousAesPrep, prf: &KeyPrf) -> MaliciousAesPrep {
        let tables: Vec<u128> = (0..prep.entries.len() as u64).map(|i| prf.one(i)).collect();
        let outputs = (0..16 * prep.blocks as u64).map(|i| prf.one(OUTPUT_INDEX | i)).collect();
        MaliciousAesPrep { peer_keys: PeerKeys::Explicit { tables, outputs }, ..prep.clone() }
    }

    /// The same material laid out block-major, with its keys stored by the new positions.
    fn block_major(prep: &MaliciousAesPrep, prf: &KeyPrf) -> MaliciousAesPrep {
        let mut entries = vec![0u128; prep.entries.len()];
        let mut tables = vec![0u128; prep.entries.len()];
        for b in 0..prep.blocks {
            for t in 0..160 {
                for e in 0..256 {
                    let from = prep.position(b, t, e);
                    let to = EntryLayout::BlockMajor.index(prep.blocks, b, t, e);
                    entries[to] = prep.entries[from];
                    tables[to] = prf.one(from as u64);
                }
            }
        }
        let outputs = (0..16 * prep.blocks as u64).map(|i| prf.one(OUTPUT_INDEX | i)).collect();
        MaliciousAesPrep {
            entries,
            layout: EntryLayout::BlockMajor,
            peer_keys: PeerKeys::Explicit { tables, outputs },
            ..prep.clone()
        }
    }

    /// Every backend, with derived and stored keys and both layouts, over passes of every kind split into lanes,
    /// gives the entries and both hashes computed from the definitions: entry and tag of index
    /// `((r − 1)·n + b)·4096 + 256 j + e` (resp. `OUTPUT_INDEX | 16 b + j`), `H = ⊕ F(y)` of the
    /// projected tags, and `⊕ F((α·x ⊕ β_i) & BYTE_TAG_MASK)` with `β_i = PRF(i)`.
    #[test]
    fn backends_agree_with_the_definitions() {
        let n = 9;
        let mut rng = ChaCha20Rng::seed_from_u64(11);
        let [prep, _] = TrustedDealer::new(ChaCha20Rng::seed_from_u64(5))
            .malicious_aes_tables(Direction::Encrypt, 0, Reveal::Both, n)
            .expect("dealer");
        let PeerKeys::Prf(prf) = &prep.peer_keys else { panic!("dealer material derives its keys") };
        assert_eq!(prep.layout, EntryLayout::RoundMajor);
        let preps = [prep.clone(), explicit(&prep, prf), block_major(&prep, prf)];
        let gather_rounds: Vec<(usize, Vec<[u8; 16]>)> =
            [1, 4, 10].map(|r| (r, random_blocks(&mut rng, n))).into();
        let theirs = random_blocks(&mut rng, n);
        let output_theirs = random_blocks(&mut rng, n);
        let lanes = [0..4, 4..5, 5..9];

        // The definitions (the dealer's round-major layout).
        let index = |round: usize, inputs: &[[u8; 16]], b: usize, j: usize| {
            (((round - 1) * n + b) * 4096 + 256 * j + usize::from(inputs[b][j])) as u64
        };
        let alpha_x = |x: u8| K64::mul(clmul::Backend::Portable, prep.alpha, K64::from_byte(x));
        let expected_tag = |i: u64, x: u8| (prf.one(i) ^ alpha_x(x)) & BYTE_TAG_MASK;
        let (mut want_sent, mut want_expected) = (0u128, 0u128);
        let mut want_out = Vec::new();
        for (round, inputs) in &gather_rounds {
            let mut out = vec![[0u8; 16]; n];
            for b in 0..n {
                for j in 0..16 {
                    let i = index(*round, inputs, b, j) as usize;
                    out[b][j] = prep.entry(i);
                    want_sent ^= f(&prep.hash_key, prep.tag(i));
                    want_expected ^= f(&prep.hash_key, expected_tag(i as u64, theirs[b][j]));
                }
            }
            want_out.push(out);
        }
        let mut want_output = 0u128;
        for (b, shares) in output_theirs.iter().enumerate() {
            for (j, &x) in shares.iter().enumerate() {
                let i = OUTPUT_INDEX | (16 * b + j) as u64;
                want_output ^= f(&prep.hash_key, expected_tag(i, x));
            }
        }

        for backend in Backend::available() {
            for (form, prep) in preps.iter().enumerate() {
                let mut openings = Openings::new(prep, backend);
                // Round 1 gathers only; round 4 gathers and verifies round 1's lookups; round 10's
                // gather goes with the verification of round 4's, and round 10's are verified alone.
                let mut outs = vec![vec![[0u8; 16]; n]; 3];
                for (k, ((round, inputs), out)) in gather_rounds.iter().zip(&mut outs).enumerate() {
                    for lane in lanes.clone() {
                        let gather = Gather { round: *round, inputs, out: &mut out[..] };
                        let verify = (k > 0).then(|| Verify {
                            lookups: Lookups::Round {
                                round: gather_rounds[k - 1].0,
                                inputs: &gather_rounds[k - 1].1,
                            },
                            theirs: &theirs,
                        });
                        openings.pass(lane, Some(gather), verify);
                    }
                }
                let (round, inputs) = &gather_rounds[2];
                for lane in lanes.clone() {
                    let verify =
                        Verify { lookups: Lookups::Round { round: *round, inputs }, theirs: &theirs };
                    openings.pass(lane, None, Some(verify));
                }
                let label = format!("{backend:?}, form {form}");
                assert_eq!(outs, want_out, "{label}");
                assert_eq!(openings.sent_digest(), want_sent.to_le_bytes(), "{label}");
                assert_eq!(openings.expected_digest(), want_expected.to_le_bytes(), "{label}");

                let mut output = Openings::new(prep, backend);
                output.pass(0..n, None, Some(Verify { lookups: Lookups::Output, theirs: &output_theirs }));
                assert_eq!(output.expected_digest(), want_output.to_le_bytes(), "{label}");
                assert_eq!(output.sent_digest(), [0; 16], "{label}");
            }
        }
    }
}
