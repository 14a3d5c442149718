//! The hot loop of the malicious binary online phase ([`crate::proto::tinytable::circuit::malicious`]): accumulating the
//! strings of opened table bits (Fig. 5, variables `m` and `t`, steps 2 and 4b–c), one AND gate
//! (all instances of the batch, lane word by lane word) per call, with the fast path chosen in one
//! place ([`Backend::detect`]).
//!
//! Per instance of a lane word the table index `2c + d` is a public masked value and the peer's
//! opened bit `e` was sent in the clear, so every selection below is by public data (an index into
//! the public layout, or a mask built from a public bit); the strings themselves are only XORed.
//!
//! - `sent` (`m`): XOR of this party's own string of the entry it opened (the material streams
//!   4 strings per instance; one is read).
//! - `expected` (`t`): XOR of the verification string of the entry the peer opened, for the bit it
//!   sent. Stored strings: one read from the 8 strings per instance. Seeded strings
//!   (`mac::SeededKeys`): the pair of the opened entry is the first `2k` bits of one AES-128
//!   block of the entry index under the secret seed; the half the received bit selects is kept by
//!   ANDing the block with a public mask and XORing it into a 128-bit accumulator (`pairs`),
//!   folded into a k-bit string once at the end ([`fold_pairs`]).
//!
//! Backends:
//! - [`Backend::Portable`]: scalar code; seeded strings through [`crate::arch::ManyAes`] in chunks
//!   of [`KEY_CHUNK`] blocks (the `aes` crate natively; the constant-time `simd128` bit-sliced AES
//!   on wasm32).
//! - [`Backend::AesNi`] (x86-64 with AES-NI, detected at run time): for seeded strings one call
//!   per gate running a fused loop per 8 instances — the 8 table indices and received bits spread
//!   into bytes by one table read each, own strings, 8 AES-128 blocks (so the `aesenc` pipeline
//!   stays full), select and accumulate in registers — with the own-string stream prefetched
//!   ahead. The key schedule ([`crate::arch::aes_ni::RoundKeys`]) is expanded with
//!   `aeskeygenassist` once per evaluation. Stored strings take the portable loop, which is bound
//!   by the memory stream (12 strings read per instance), not by instructions.
//!
//! The backends give identical results; the tests cross-check them (and the key expansion against
//! the `aes` crate and FIPS-197).

use crate::arch::prefetch::prefetch;
use crate::proto::tinytable::circuit::malicious_prep::TableKeys;
use crate::proto::tinytable::mac::lookup::{key_blocks, MacWord, SeededKeys, KEY_CHUNK};

/// How far ahead (in instances) the loops prefetch their material. The material of one AND
/// layer is one contiguous stream; an explicit prefetch keeps it flowing across 4 KiB page
/// boundaries, where the hardware stream prefetcher stops.
const PREFETCH_INSTANCES: usize = 32;

/// An implementation of the accumulation loops (shared with the S-box openings; see
/// [`crate::arch::AesBackend`]): `Portable` (scalar loops, the `aes` crate for seeded strings) or
/// `AesNi` (fused AES-NI loop for seeded strings, x86-64 with AES-NI and SSE4.1).
pub(crate) use crate::arch::AesBackend as Backend;

/// Table index `2c + d` of lane `t` (public masked wire values).
#[inline(always)]
fn entry_index(c: u64, d: u64, t: usize) -> usize {
    ((c >> t & 1) << 1 | (d >> t & 1)) as usize
}

/// The mask keeping the string for bit `bit` of a seeded block: little-endian bytes
/// `bit·k/8 .. (bit + 1)·k/8` (see `SeededKeys`).
#[inline(always)]
fn half_mask<M: MacWord>(bit: u64) -> u128 {
    let low = u128::MAX >> (128 - 8 * M::BYTES);
    low << (8 * M::BYTES as u64 * (bit & 1))
}

/// The k-bit string that is the XOR of the selected halves accumulated in `pairs` (each term kept
/// one half of its block and zeroed the other, so XORing the two halves sums the kept ones).
pub(crate) fn fold_pairs<M: MacWord>(pairs: u128) -> M {
    let bytes = pairs.to_le_bytes();
    M::get(&bytes) ^ M::get(&bytes[M::BYTES..])
}

/// Where the verifier's strings come from, prepared for one backend.
enum Verifier<'a, M> {
    Stored(&'a [M]),
    Seeded(&'a SeededKeys),
    #[cfg(target_arch = "x86_64")]
    SeededAesNi(x86::RoundKeys),
}

/// The running `m` and `t` of one party over an evaluation.
pub(crate) struct OpenedMacs<'a, M> {
    own: &'a [M],
    verifier: Verifier<'a, M>,
    /// `m`: XOR of this party's strings of the bits it opened.
    sent: M,
    /// `t` from stored strings.
    expected: M,
    /// `t` from seeded strings, before [`fold_pairs`].
    pairs: u128,
}

impl<'a, M: MacWord> OpenedMacs<'a, M> {
    /// Empty accumulators over this party's own strings (layout `(g·n + i)·4 + e`) and its
    /// verification strings of the peer's entries, using `backend`.
    pub(crate) fn new(own: &'a [M], keys: &'a TableKeys<M>, backend: Backend) -> Self {
        let verifier = match (keys, backend) {
            (TableKeys::Explicit(keys), _) => Verifier::Stored(keys),
            (TableKeys::Seeded(keys), Backend::Portable) => Verifier::Seeded(keys),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `AesNi` is only constructed after detecting AES-NI and SSE4.1.
            (TableKeys::Seeded(keys), Backend::AesNi) => {
                Verifier::SeededAesNi(unsafe { x86::RoundKeys::expand(keys.seed()) })
            }
        };
        OpenedMacs { own, verifier, sent: M::default(), expected: M::default(), pairs: 0 }
    }

    /// Accumulates the `count ≤ 64` instances of one lane word starting at instance-gate position
    /// `at` (`g·n + 64·j`): table indices from the masked wire words `c`, `d`; the peer's opened
    /// bits `e`. Panics if the material is shorter than the positions (the caller checked it).
    pub(crate) fn word(&mut self, at: usize, c: u64, d: u64, e: u64, count: usize) {
        let lanes = Lanes { at, count, c, d, e };
        match &self.verifier {
            Verifier::Stored(keys) => stored_word(self.own, keys, lanes, &mut self.sent, &mut self.expected),
            Verifier::Seeded(keys) => {
                seeded_word_portable(self.own, keys, lanes, &mut self.sent, &mut self.pairs)
            }
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `SeededAesNi` is only built by `new` for the detected `AesNi` backend.
            Verifier::SeededAesNi(keys) => unsafe {
                x86::seeded_gate(
                    keys,
                    self.own,
                    at,
                    [&[c], &[d], &[e]],
                    count,
                    &mut self.sent,
                    &mut self.pairs,
                )
            },
        }
    }

    /// Accumulates the `n` instances of one AND gate from instance-gate position `at` (`g·n`):
    /// lane word `j` of `c`, `d`, `e` covers instances `64·j ..` (see [`Self::word`]).
    pub(crate) fn gate(&mut self, at: usize, c: &[u64], d: &[u64], e: &[u64], n: usize) {
        #[cfg(target_arch = "x86_64")]
        if let Verifier::SeededAesNi(keys) = &self.verifier {
            // SAFETY: `SeededAesNi` is only built by `new` for the detected `AesNi` backend.
            unsafe { x86::seeded_gate(keys, self.own, at, [c, d, e], n, &mut self.sent, &mut self.pairs) };
            return;
        }
        for (j, ((&c, &d), &e)) in c.iter().zip(d).zip(e).enumerate() {
            self.word(at + 64 * j, c, d, e, 64.min(n - 64 * j));
        }
    }

    /// `(m, t)`: this party's MAC to send and the MAC it expects from the peer.
    pub(crate) fn finish(&self) -> (M, M) {
        (self.sent, self.expected ^ fold_pairs::<M>(self.pairs))
    }
}

/// The public data of one lane word: `count ≤ 64` instances from instance-gate position `at`,
/// masked wire words `c`, `d` (lane `t` opened entry `2c_t + d_t`) and the peer's opened bits `e`.
#[derive(Clone, Copy, Debug)]
struct Lanes {
    at: usize,
    count: usize,
    c: u64,
    d: u64,
    e: u64,
}

/// Prefetches the material `ahead` elements past `at` in `stream`, if there is any.
#[inline(always)]
fn prefetch_ahead<T>(stream: &[T], at: usize) {
    if let Some(x) = stream.get(at) {
        prefetch(x);
    }
}

/// Stored verification strings: entry `j`'s pair at `keys[2j..2j + 2]`.
fn stored_word<M: MacWord>(own: &[M], keys: &[M], w: Lanes, sent: &mut M, expected: &mut M) {
    let own4 = &own[4 * w.at..4 * (w.at + w.count)];
    let keys8 = &keys[8 * w.at..8 * (w.at + w.count)];
    let (mut s, mut x) = (*sent, *expected);
    for (t, (m4, k8)) in own4.chunks_exact(4).zip(keys8.chunks_exact(8)).enumerate() {
        prefetch_ahead(own, 4 * (w.at + t + PREFETCH_INSTANCES));
        prefetch_ahead(keys, 8 * (w.at + t + PREFETCH_INSTANCES));
        let index = entry_index(w.c, w.d, t);
        s ^= m4[index & 3];
        x ^= k8[((2 * index) | (w.e >> t & 1) as usize) & 7];
    }
    (*sent, *expected) = (s, x);
}

/// Seeded verification strings through the `aes` crate: own strings first (collecting the opened
/// entry indices), then one call encrypting the lane word's blocks.
fn seeded_word_portable<M: MacWord>(own: &[M], keys: &SeededKeys, w: Lanes, sent: &mut M, pairs: &mut u128) {
    let mut entries = [0u64; KEY_CHUNK];
    let own4 = &own[4 * w.at..4 * (w.at + w.count)];
    let mut s = *sent;
    for (t, (m4, entry)) in own4.chunks_exact(4).zip(entries.iter_mut()).enumerate() {
        prefetch_ahead(own, 4 * (w.at + t + PREFETCH_INSTANCES));
        let index = entry_index(w.c, w.d, t);
        s ^= m4[index & 3];
        *entry = (4 * (w.at + t) + index) as u64;
    }
    *sent = s;
    let mut blocks = key_blocks();
    keys.blocks(&entries[..w.count], &mut blocks);
    let mut p = *pairs;
    for (t, b) in blocks[..w.count].iter().enumerate() {
        p ^= b & half_mask::<M>(w.e >> t);
    }
    *pairs = p;
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{entry_index, half_mask, prefetch_ahead, Lanes, MacWord};
    use crate::arch::aes_ni::Block;
    pub(crate) use crate::arch::aes_ni::RoundKeys;

    /// Instances per group of the AES-NI loop: 8 independent AES blocks interleaved round by round
    /// keep the `aesenc` unit busy (latency 4, one issued per cycle); the group's cache lines of own
    /// strings are prefetched together.
    const GROUP: usize = 8;

    /// How far ahead (in instances) the AES-NI loop prefetches own strings: it spends longer per
    /// instance than the streaming loop, so [`super::PREFETCH_INSTANCES`] would cover only about
    /// one memory latency; this covers several (4 KiB at k = 64).
    const AES_PREFETCH_INSTANCES: usize = 128;

    /// One instance (lane `t` of `w`) past the last full group of its lane word: own string
    /// XORed into `sent`, the opened entry's block masked to the received bit's half and XORed
    /// into `acc`. `own4` holds the instance's 4 strings.
    #[inline]
    #[target_feature(enable = "sse2,aes")]
    fn single<M: MacWord>(
        keys: &RoundKeys,
        own4: &[M],
        w: &Lanes,
        t: usize,
        sel: &[Block; 2],
        sent: &mut M,
        acc: &mut Block,
    ) {
        let index = entry_index(w.c, w.d, t);
        *sent ^= own4[index & 3];
        let [block] = keys.encrypt_group([Block::from_u64((4 * (w.at + t) + index) as u64)]);
        *acc = acc.xor(block.and(sel[(w.e >> t & 1) as usize]));
    }

    /// `x` with bit `i` moved to bit `8·i` (the lowest bit of byte `i`), for every byte value `x`.
    /// Indexed by public data only (masked wire values, opened bits).
    pub(super) const SPREAD: [u64; 256] = {
        let mut table = [0u64; 256];
        let mut x = 0;
        while x < 256 {
            let mut i = 0;
            while i < 8 {
                table[x] |= ((x as u64 >> i) & 1) << (8 * i);
                i += 1;
            }
            x += 1;
        }
        table
    };

    /// [`GROUP`] instances of one lane word, as [`single`] for each: byte `u` of `index` is lane
    /// `u`'s table index, byte `u` of `bit` the peer's bit for it; `base` is the entry index of the
    /// group's first instance's entry 0 and `own` the group's `4·GROUP` strings.
    #[inline]
    #[target_feature(enable = "sse2,aes")]
    fn group8<M: MacWord>(
        keys: &RoundKeys,
        own: &[M; 4 * GROUP],
        base: usize,
        [index, bit]: [u64; 2],
        sel: &[Block; 2],
        sent: &mut M,
        acc: &mut Block,
    ) {
        let (index, bit) = (index.to_le_bytes(), bit.to_le_bytes());
        let mut blocks = [Block::from_u128(0); GROUP];
        let mut s = *sent;
        for (u, b) in blocks.iter_mut().enumerate() {
            let i = usize::from(index[u] & 3);
            s ^= own[4 * u + i];
            *b = Block::from_u64((base + 4 * u + i) as u64);
        }
        *sent = s;
        let blocks = keys.encrypt_group(blocks);
        let mut a = *acc;
        for (u, b) in blocks.iter().enumerate() {
            a = a.xor(b.and(sel[usize::from(bit[u] & 1)]));
        }
        *acc = a;
    }

    /// [`super::OpenedMacs::gate`]: per lane word, the table indices and received bits of 8 lanes
    /// at a time are spread into bytes with one table read per word and 8 lanes ([`SPREAD`];
    /// cheaper than extracting bit by bit with variable shifts), then [`group8`] runs on them with
    /// the group's own strings prefetched [`AES_PREFETCH_INSTANCES`] ahead; the lanes past the last full
    /// group go through [`single`]. One call per gate, so the setup (masks, accumulator in a
    /// register) is paid once per `n` instances.
    #[target_feature(enable = "sse2,aes")]
    pub(super) fn seeded_gate<M: MacWord>(
        keys: &RoundKeys,
        own: &[M],
        at: usize,
        [c, d, e]: [&[u64]; 3],
        n: usize,
        sent: &mut M,
        pairs: &mut u128,
    ) {
        let sel = [Block::from_u128(half_mask::<M>(0)), Block::from_u128(half_mask::<M>(1))];
        let mut acc = Block::from_u128(*pairs);
        let per_line = 64 / M::BYTES;
        for (j, ((&c, &d), &e)) in c.iter().zip(d).zip(e).enumerate() {
            let first = at + 64 * j;
            let count = 64.min(n - 64 * j);
            let own4 = &own[4 * first..4 * (first + count)];
            let mut groups = own4.chunks_exact(4 * GROUP);
            for (g, strings) in groups.by_ref().enumerate() {
                let t0 = GROUP * g;
                let ahead = 4 * (first + t0 + AES_PREFETCH_INSTANCES);
                for line in (0..4 * GROUP).step_by(per_line) {
                    prefetch_ahead(own, ahead + line);
                }
                let byte = |x: u64| SPREAD[usize::from((x >> t0) as u8)];
                let index = byte(c) << 1 | byte(d);
                let strings = strings.try_into().expect("a group of strings");
                group8(keys, strings, 4 * (first + t0), [index, byte(e)], &sel, sent, &mut acc);
            }
            let done = count - count % GROUP;
            let w = Lanes { at: first, count, c, d, e };
            for (u, strings) in groups.remainder().chunks_exact(4).enumerate() {
                single(keys, strings, &w, done + u, &sel, sent, &mut acc);
            }
        }
        *pairs = acc.to_u128();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    /// `(m, t)` straight from the definitions: own string `4j + index`, verification string of
    /// entry `4j + index` for the received bit.
    fn reference<M: MacWord>(
        own: &[M],
        keys: &TableKeys<M>,
        words: &[(usize, u64, u64, u64, usize)],
    ) -> (M, M) {
        let (mut sent, mut expected) = (M::default(), M::default());
        for &(at, c, d, e, count) in words {
            for t in 0..count {
                let entry = 4 * (at + t) + entry_index(c, d, t);
                sent ^= own[entry];
                expected ^= keys.key(entry, e >> t & 1 == 1);
            }
        }
        (sent, expected)
    }

    fn backends_agree<M: MacWord>(seed: u64) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let positions = 300;
        let own: Vec<M> = (0..4 * positions).map(|_| M::random(&mut rng)).collect();
        let seeded = TableKeys::Seeded(Box::new(SeededKeys::random(&mut rng)));
        let stored = TableKeys::Explicit((0..8 * positions).map(|_| M::random(&mut rng)).collect());
        // Lane words of every length class: full, multiples of the group, tails, single lanes,
        // ending at the last position (no prefetch past the end may fault).
        let mut words = Vec::new();
        for (at, count) in [(0, 64), (64, 8), (72, 13), (85, 1), (86, 63), (149, 7), (156, 80), (236, 64)] {
            let count: usize = count.min(64);
            words.push((at, rng.next_u64(), rng.next_u64(), rng.next_u64(), count));
        }
        assert_eq!(words.last().map(|w| w.0 + w.4), Some(positions));
        for keys in [&seeded, &stored] {
            let want = reference(&own, keys, &words);
            for backend in Backend::available() {
                let mut acc = OpenedMacs::new(&own, keys, backend);
                for &(at, c, d, e, count) in &words {
                    acc.word(at, c, d, e, count);
                }
                assert_eq!(
                    acc.finish(),
                    want,
                    "{backend:?}, seeded: {}",
                    matches!(keys, TableKeys::Seeded(_))
                );
            }
        }
    }

    /// Whole gates (`OpenedMacs::gate`, the call the online phase makes) for batch sizes with and
    /// without partial lane words and groups, on every backend, against the definition.
    fn gates_agree<M: MacWord>(seed: u64) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        for n in [1usize, 7, 8, 63, 64, 65, 130, 200] {
            let (gates, l) = (3, n.div_ceil(64));
            let own: Vec<M> = (0..4 * gates * n).map(|_| M::random(&mut rng)).collect();
            let seeded = TableKeys::Seeded(Box::new(SeededKeys::random(&mut rng)));
            let stored = TableKeys::Explicit((0..8 * gates * n).map(|_| M::random(&mut rng)).collect());
            let words: Vec<[Vec<u64>; 3]> = (0..gates)
                .map(|_| core::array::from_fn(|_| (0..l).map(|_| rng.next_u64()).collect()))
                .collect();
            let lanes: Vec<_> = (0..gates)
                .flat_map(|g| (0..l).map(move |j| (g, j)))
                .map(|(g, j)| {
                    let [c, d, e] = &words[g];
                    (g * n + 64 * j, c[j], d[j], e[j], 64.min(n - 64 * j))
                })
                .collect();
            for keys in [&seeded, &stored] {
                let want = reference(&own, keys, &lanes);
                for backend in Backend::available() {
                    let mut acc = OpenedMacs::new(&own, keys, backend);
                    for (g, [c, d, e]) in words.iter().enumerate() {
                        acc.gate(g * n, c, d, e, n);
                    }
                    assert_eq!(acc.finish(), want, "{backend:?}, n = {n}");
                }
            }
        }
    }

    #[test]
    fn gates_agree_with_the_definition() {
        gates_agree::<u64>(4);
        gates_agree::<u32>(5);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn spread_moves_each_bit_to_its_byte() {
        for x in 0..256usize {
            let bytes = x86::SPREAD[x].to_le_bytes();
            for (i, &b) in bytes.iter().enumerate() {
                assert_eq!(usize::from(b), x >> i & 1);
            }
        }
    }

    #[test]
    fn backends_agree_with_the_definition_k64() {
        backends_agree::<u64>(1);
    }

    #[test]
    fn backends_agree_with_the_definition_k32() {
        backends_agree::<u32>(2);
    }

    #[test]
    fn half_masks_and_fold_select_one_string() {
        let block = 0x0f0e_0d0c_0b0a_0908_0706_0504_0302_0100u128;
        let raw = block.to_le_bytes();
        for bit in [false, true] {
            assert_eq!(fold_pairs::<u64>(block & half_mask::<u64>(bit.into())), u64::from_block(&raw, bit));
            assert_eq!(fold_pairs::<u32>(block & half_mask::<u32>(bit.into())), u32::from_block(&raw, bit));
        }
    }
}
