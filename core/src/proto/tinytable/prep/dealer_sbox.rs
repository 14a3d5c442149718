//! The trusted dealer's S-box table material (§2.3, and with §3 linear MACs for malicious
//! security): [`AesTablePrep`] for the semi-honest S-box protocol and [`MaliciousAesPrep`] for the
//! malicious one.
//!
//! **Trust model:** the dealer sees every mask, table and MAC key; it must be honest and must not
//! collude with either party (it indexes tables with secret values: it runs apart from the
//! parties). The two-party alternative is the §4 construction
//! ([`crate::proto::tinytable::sbox::construct`]).

use super::dealer::TrustedDealer;
use crate::aes::Direction;
use crate::arch::memory::large_zeroed;
use crate::field::clmul::Backend;
use crate::field::Gf256;
use crate::net::PartyId;
use crate::proto::tinytable::error::TinyTableError;
use crate::proto::tinytable::mac::batch_open::KeyPrf;
use crate::proto::tinytable::mac::linear::{byte_multiples, MacParams, K64};
use crate::proto::tinytable::sbox::direction::table;
use crate::proto::tinytable::sbox::prep::{
    pack_entry, EntryLayout, MaliciousAesPrep, PeerKeys, OUTPUT_INDEX,
};
use crate::proto::tinytable::sbox::round::TableSeed;
use crate::proto::tinytable::sbox::schedule::{
    direction_keys, schedule_index, schedule_masks, ScheduleTables, SCHEDULE_ENTRIES_PER_BLOCK,
    SCHEDULE_INDEX,
};
use crate::proto::tinytable::sbox::tables::{
    check_roles, deriving_party, AesTablePrep, MaskChain, TableShares, STORED_BYTES_PER_BLOCK, STORED_ROUND,
    TABLE_BYTES_PER_BLOCK, TABLE_ENTRIES,
};
use crate::proto::tinytable::spec::Reveal;
use rand_core::{CryptoRng, RngCore};
use std::sync::Arc;

impl<R: RngCore + CryptoRng> TrustedDealer<R> {
    /// Material for one AES-128 block with S-box tables for `direction`: party `key_owner` inputs
    /// the key, the other party the plaintext (the ciphertext when decrypting), and the output
    /// goes to `reveal`. Trusted-dealer trust model (see [`super::dealer`]); each party gets half
    /// its tables as a seed (see the module docs).
    pub fn aes_tables(
        &mut self,
        direction: Direction,
        key_owner: PartyId,
        reveal: Reveal,
    ) -> Result<[AesTablePrep; 2], TinyTableError> {
        let [mut a, mut b] = self.aes_tables_batch(direction, key_owner, reveal, 1)?;
        match (a.pop(), b.pop()) {
            (Some(a), Some(b)) => Ok([a, b]),
            _ => unreachable!("a batch of one block has one block per party"),
        }
    }

    /// Material for `blocks` independent blocks (see [`Self::aes_tables`]; the same material a
    /// loop over it would deal from the same generator). Each party's stored tables of the whole
    /// batch are one huge-page-backed slab shared by its blocks' [`AesTablePrep`]s.
    pub fn aes_tables_batch(
        &mut self,
        direction: Direction,
        key_owner: PartyId,
        reveal: Reveal,
        blocks: usize,
    ) -> Result<[Vec<AesTablePrep>; 2], TinyTableError> {
        check_roles(key_owner, reveal)?;
        let sbox = table(direction);
        let mut slabs: [Vec<u8>; 2] =
            [large_zeroed(blocks * STORED_BYTES_PER_BLOCK), large_zeroed(blocks * STORED_BYTES_PER_BLOCK)];
        let rng = self.rng();
        let dealt: Vec<(MaskChain, [TableSeed; 2])> =
            (0..blocks).map(|i| deal_block_tables(rng, direction, &sbox, &mut slabs, i, blocks)).collect();
        let slabs = slabs.map(Arc::new);
        let mut out = [Vec::with_capacity(blocks), Vec::with_capacity(blocks)];
        for (i, (chain, seeds)) in dealt.iter().enumerate() {
            for (party, slab) in slabs.iter().enumerate() {
                let slab = Arc::clone(slab);
                let tables = TableShares::Split { slab, block: i, blocks, seed: seeds[party] };
                out[party].push(block_prep(party, direction, key_owner, reveal, tables, chain));
            }
        }
        Ok(out)
    }
}

/// Samples block `block`'s masks and both parties' seeds, and fills its stored tables in the
/// round-major slabs of `blocks` blocks (`slabs[p]`: party `p`'s) so that for every table the
/// derived share XOR the stored one is `S(e ⊕ m_in) ⊕ m_out`.
fn deal_block_tables<R: RngCore>(
    rng: &mut R,
    direction: Direction,
    sbox: &[u8; 256],
    slabs: &mut [Vec<u8>; 2],
    block: usize,
    blocks: usize,
) -> (MaskChain, [TableSeed; 2]) {
    let chain = MaskChain::sample(rng, direction);
    let seeds: [TableSeed; 2] = core::array::from_fn(|_| {
        let mut seed = [0u8; 16];
        rng.fill_bytes(&mut seed);
        TableSeed::new(seed)
    });
    for round in 0..10 {
        for byte in 0..16 {
            let table = 16 * round + byte;
            let deriver = deriving_party(table);
            let derived = seeds[deriver].table(table);
            let at = STORED_ROUND * (round * blocks + block) + TABLE_ENTRIES * (byte / 2);
            let dst = &mut slabs[1 - deriver][at..][..TABLE_ENTRIES];
            let (m_in, m_out) = (chain.in_masks[round][byte], chain.out_masks[round][byte]);
            for (e, (d, r)) in dst.iter_mut().zip(&derived).enumerate() {
                *d = r ^ sbox[e ^ usize::from(m_in)] ^ m_out;
            }
        }
    }
    (chain, seeds)
}

/// `party`'s material for one block from its table shares and the block's masks.
fn block_prep(
    party: PartyId,
    direction: Direction,
    key_owner: PartyId,
    reveal: Reveal,
    tables: TableShares,
    chain: &MaskChain,
) -> AesTablePrep {
    AesTablePrep {
        party,
        direction,
        key_owner,
        reveal,
        tables,
        round_key_masks: (party == key_owner).then(|| chain.key_masks.to_vec()),
        plaintext_mask: (party != key_owner).then_some(chain.plaintext_mask),
        output_mask: reveal.includes(party).then_some(chain.output_mask),
    }
}

impl<R: RngCore + CryptoRng> TrustedDealer<R> {
    /// Authenticated S-box table material for `blocks` AES-128 blocks in `direction` (malicious
    /// security, §2.3 + §3): party `key_owner` inputs the keys, the other party the plaintexts
    /// (ciphertexts when decrypting), the outputs go to `reveal`. Trusted-dealer trust model (see the module docs).
    pub fn malicious_aes_tables(
        &mut self,
        direction: Direction,
        key_owner: PartyId,
        reveal: Reveal,
        blocks: usize,
    ) -> Result<[MaliciousAesPrep; 2], TinyTableError> {
        self.malicious_tables(direction, key_owner, false, reveal, blocks)
    }

    /// As [`Self::malicious_aes_tables`] for an XOR-shared key: both parties input a key share,
    /// party `plaintext_owner` also the plaintexts, and the material holds the 40 key-schedule
    /// tables per block ([`crate::proto::tinytable::sbox::schedule`]).
    pub fn malicious_aes_tables_shared_key(
        &mut self,
        direction: Direction,
        plaintext_owner: PartyId,
        reveal: Reveal,
        blocks: usize,
    ) -> Result<[MaliciousAesPrep; 2], TinyTableError> {
        check_roles(plaintext_owner, reveal)?;
        self.malicious_tables(direction, 1 - plaintext_owner, true, reveal, blocks)
    }

    fn malicious_tables(
        &mut self,
        direction: Direction,
        key_owner: PartyId,
        shared_key: bool,
        reveal: Reveal,
        blocks: usize,
    ) -> Result<[MaliciousAesPrep; 2], TinyTableError> {
        check_roles(key_owner, reveal)?;
        let backend = Backend::detect();
        let rng = self.rng();
        let sbox = table(direction);
        let entries = blocks * TABLE_BYTES_PER_BLOCK;
        let alphas = [K64::random_elem(rng), K64::random_elem(rng)];
        let mut seeds = [[0u8; 16]; 2];
        seeds.iter_mut().for_each(|s| rng.fill_bytes(s));
        let prfs = seeds.map(|s| KeyPrf::new(&s));
        let mut hash_key = [0u8; 16];
        rng.fill_bytes(&mut hash_key);

        let mut tables = [large_zeroed(entries), large_zeroed(entries)];
        rng.fill_bytes(&mut tables[0]);
        let schedule_entries = if shared_key { blocks * SCHEDULE_ENTRIES_PER_BLOCK } else { 0 };
        let mut schedule = [vec![0u8; schedule_entries], vec![0u8; schedule_entries]];
        rng.fill_bytes(&mut schedule[0]);
        let forward_sbox = table(Direction::Encrypt);
        let mut input_masks = [Vec::new(), Vec::new()];
        let mut out_shares = [vec![0u8; 16 * blocks], vec![0u8; 16 * blocks]];
        rng.fill_bytes(&mut out_shares[0]);
        for block in 0..blocks {
            let chain = if shared_key {
                // The key's mask is the XOR of the two parties' input masks; the round keys' masks
                // follow through the schedule, whose SubWord tables are dealt here.
                let mut share_masks = [[0u8; 16]; 2];
                share_masks.iter_mut().for_each(|m| rng.fill_bytes(m));
                let mut sub_outs = [[0u8; 4]; 10];
                sub_outs.iter_mut().for_each(|m| rng.fill_bytes(m));
                let key_mask: [u8; 16] = core::array::from_fn(|j| share_masks[0][j] ^ share_masks[1][j]);
                let (sub_ins, forward) = schedule_masks(key_mask.map(Gf256), &sub_outs.map(|o| o.map(Gf256)));
                for (round, (ins, outs)) in sub_ins.iter().zip(&sub_outs).enumerate() {
                    for t in 0..4 {
                        let base = schedule_index(block, 4 * round + t, 0);
                        for e in 0..TABLE_ENTRIES {
                            schedule[1][base + e] =
                                schedule[0][base + e] ^ forward_sbox[e ^ usize::from(ins[t].0)] ^ outs[t];
                        }
                    }
                }
                for p in 0..2 {
                    input_masks[p].extend(share_masks[p]);
                }
                let key_masks = direction_keys(direction, &forward).map(|k| k.map(|b| b.0));
                let mut plaintext_mask = [0u8; 16];
                rng.fill_bytes(&mut plaintext_mask);
                let mut out_masks = [[0u8; 16]; 10];
                out_masks.iter_mut().for_each(|m| rng.fill_bytes(m));
                MaskChain::propagate(direction, key_masks, plaintext_mask, out_masks)
            } else {
                let chain = MaskChain::sample(rng, direction);
                input_masks[key_owner].extend(chain.key_masks.as_flattened());
                chain
            };
            for round in 0..10 {
                for byte in 0..16 {
                    let base = EntryLayout::RoundMajor.index(blocks, block, 16 * round + byte, 0);
                    let (m_in, m_out) = (chain.in_masks[round][byte], chain.out_masks[round][byte]);
                    for e in 0..TABLE_ENTRIES {
                        tables[1][base + e] = tables[0][base + e] ^ sbox[e ^ usize::from(m_in)] ^ m_out;
                    }
                }
            }
            input_masks[1 - key_owner].extend(chain.plaintext_mask);
            for j in 0..16 {
                out_shares[1][16 * block + j] = out_shares[0][16 * block + j] ^ chain.output_mask[j];
            }
        }

        // Party p's values are tagged under the peer's key (α_{1−p}, β from the peer's seed).
        // The dealer indexes the α-multiples with secret entries: it is trusted and runs apart.
        let multiples = alphas.map(|a| byte_multiples(backend, a));
        let pack_all = |p: usize, values: &[u8], domain: u64| -> Vec<u128> {
            const CHUNK: usize = 1024;
            let mut words = large_zeroed(values.len());
            let mut indices = [0u64; CHUNK];
            for (c, (values, words)) in values.chunks(CHUNK).zip(words.chunks_mut(CHUNK)).enumerate() {
                let indices = &mut indices[..values.len()];
                indices.iter_mut().enumerate().for_each(|(j, i)| *i = domain | (CHUNK * c + j) as u64);
                prfs[1 - p].eval(indices, words);
                for (w, &x) in words.iter_mut().zip(values) {
                    *w = pack_entry(x, *w ^ multiples[1 - p][usize::from(x)]);
                }
            }
            words
        };
        let tag_outputs = |p: usize, shares: &[u8]| -> Vec<u128> {
            let indices: Vec<u64> = (0..shares.len() as u64).map(|i| OUTPUT_INDEX | i).collect();
            let mut tags = vec![0; shares.len()];
            prfs[1 - p].eval(&indices, &mut tags);
            tags.iter_mut().zip(shares).for_each(|(t, &x)| *t ^= multiples[1 - p][usize::from(x)]);
            tags
        };
        let [tables_0, tables_1] = tables;
        let [masks_0, masks_1] = input_masks;
        let [shares_0, shares_1] = out_shares;
        let make = |p: PartyId, tables: Vec<u8>, input_masks: Vec<u8>, shares: Vec<u8>| MaliciousAesPrep {
            party: p,
            direction,
            key_owner,
            reveal,
            blocks,
            schedule: shared_key.then(|| ScheduleTables {
                entries: pack_all(p, &schedule[p], SCHEDULE_INDEX),
                keys: Vec::new(),
            }),
            entries: pack_all(p, &tables, 0),
            layout: EntryLayout::RoundMajor,
            alpha: alphas[p],
            peer_keys: PeerKeys::Prf(Box::new(prfs[p].clone())),
            hash_key,
            input_masks,
            output_mask_tags: tag_outputs(p, &shares),
            output_mask_shares: shares,
        };
        Ok([make(0, tables_0, masks_0, shares_0), make(1, tables_1, masks_1, shares_1)])
    }
}
