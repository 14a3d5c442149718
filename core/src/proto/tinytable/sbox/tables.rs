//! AES-128 with 8-bit S-box tables (§2.3; the "optimized version" of §5): semi-honest, trusted
//! dealer.
//!
//! Every state byte carries a masked value `e = x ⊕ m` known to both parties. AddRoundKey,
//! ShiftRows and MixColumns are GF(2)-linear, so the parties apply them to the masked bytes and
//! the dealer applies them to the masks: they are local. Each SubBytes byte is a 256-entry table of
//! bytes, XOR-shared between the parties, with `A[e] ⊕ B[e] = S(e ⊕ m_in) ⊕ m_out`; the parties
//! exchange their entries at the public index `e` and XOR them.
//!
//! Material is made for one direction ([`super::direction`]): decryption material holds masked
//! inverse S-box tables with masks propagated through the inverse linear layer, and the online
//! phase then runs FIPS-197 §5.3.5's equivalent inverse cipher at exactly the cost of encryption.
//!
//! Inputs: the key owner (a party chosen per session) expands its key **locally** (FIPS-197 §5.2)
//! and inputs all 11 masked round keys, so the key schedule needs no tables; the other party
//! inputs the plaintext block. So per block and party there are exactly **160 tables × 256 bytes =
//! 40 960 bytes = 40 KiB** of table shares (the paper's Table 1 "Passive / Optimized" figure;
//! masks not counted, as in the paper), plus masks: 176 bytes (key owner), 16 bytes (plaintext
//! owner), 16 bytes of output mask for each party the ciphertext is revealed to.
//!
//! Communication of a batch of `n` blocks, per party: round 1 sends the masked inputs
//! (`176 n` bytes from the key owner, `16 n` from the plaintext owner), then 10 S-box rounds of
//! `16 n` bytes each way; the output is `e ⊕ m_out` locally (no output round). Rounds = 1 + 10
//! (a batch pipelined over two lanes, inputs included, has the latency of one lane's 1 + 10,
//! which [`crate::net::NetStats::rounds`] counts as 1 + 2 · 10).
//!
//! Seed-derived halves (dealer material): table `t` of a block is derived by party `t mod 2` from
//! a 16-byte seed (`sbox_round::TableSeed`, fixed-key AES as an Even–Mansour PRF) and stored only by
//! the other party, whose share is `S(e ⊕ m_in) ⊕ m_out ⊕ PRF(e)`. So each party *holds* the
//! 40 KiB of Table 1 ([`AesTablePrep::table_bytes`]) but *stores* 80 tables = 20 KiB plus the seed
//! ([`AesTablePrep::stored_table_bytes`]), and in every round it reads 8 entries from memory and
//! computes 8 with AES (one pipelined pass per group of blocks): the online gathers, bounded by cache misses into
//! tables far larger than any cache, have half the misses per party, and the two parties' loads
//! stay equal (each derives the tables of one byte parity). Material built from its parts
//! ([`AesTablePrep::from_parts`], e.g. from another dealer) stores all 160 tables; the online
//! phase takes both forms. Trust: the dealer picks both seeds and so still knows everything, as in
//! [`super::prep`]; each party learns only its own seed. The derived shares rest on fixed-key AES
//! as a random permutation (single-key Even–Mansour), the assumption §3.3 already makes.
//!
//! Layout and speed: fully stored material is one contiguous array per block (table
//! `16 (round − 1) + byte` at offset `256 · index`). The batch dealer puts each party's stored
//! tables of all blocks in one slab backed by huge pages, **round-major**: the 8 stored tables of
//! round `r` of block `i` are 2 KiB in a row at `2048 · ((r − 1) n + i)`, table `16 (r − 1) + j`
//! at `256 · ⌊j / 2⌋` in it. A round's random reads then stay inside `2 n` KiB instead of
//! spreading over all `20 n` KiB, so far fewer pages (and, under virtualization, far fewer host
//! page-table entries) are in play per round — page walks are a large part of random reads. The
//! online phase keeps all states of a batch in one array, gathers a round's entries of all blocks
//! in one pass with software prefetch (`gather_round`), sends one packed message of `16 n` bytes
//! per round (batches of at least 128 blocks: one per half, pipelined so one half's message is in
//! flight while the other half computes, see `lanes`; same bytes, and the round counter
//! then counts each half's exchange) and applies the linear layers block by block on plain bytes
//! ([`crate::aes::linear::round_linear_bytes`]) with no allocation per lookup or round. The round
//! function on bytes and the key owner's key schedule are shared with the malicious variant
//! ([`crate::proto::tinytable::sbox::malicious`]) and the §4 table construction ([`crate::proto::tinytable::sbox::prep`]).
//!
//! Constant time: the online lookups (and the derived entries' AES inputs) index by public masked
//! bytes. The dealer builds each table by indexing the public S-box table with `e ⊕ m_in` for all
//! 256 `e` (an access pattern that depends on the secret mask; the dealer is trusted and runs apart
//! from the parties).

use super::direction;
use crate::aes::{Block, Direction};
use crate::arch::prefetch::{prefetch, AHEAD, PAGE_AHEAD};
use crate::net::{Network, PartyId};
use crate::proto::tinytable::error::{Step, TinyTableError};
use crate::proto::tinytable::msg::check_two_parties;
use crate::proto::tinytable::sbox::lanes::{lanes, run_lanes, LaneRounds};
use crate::proto::tinytable::sbox::round::{permute_all, PermBlock, TableSeed};
use crate::proto::tinytable::spec::Reveal;
use core::ops::Range;
use rand_core::RngCore;
use std::sync::Arc;

mod parts;

/// S-box tables per AES-128 block (16 per round, 10 rounds; key schedule local to the key owner).
pub const TABLES_PER_BLOCK: usize = 160;
/// Entries per table (one per masked input byte).
pub const TABLE_ENTRIES: usize = 256;
/// AES-128 round keys (the key owner inputs all of them, masked).
pub const ROUND_KEYS: usize = 11;
/// Bytes of one block's table shares per party.
pub const TABLE_BYTES_PER_BLOCK: usize = TABLES_PER_BLOCK * TABLE_ENTRIES;
/// Bytes a party stores per block of the dealer's seed-derived material (the other half of its
/// tables comes from a seed; see the module docs).
pub const STORED_BYTES_PER_BLOCK: usize = TABLE_BYTES_PER_BLOCK / 2;

/// The party that derives table `table` from its seed (the other one stores it).
#[inline]
pub(crate) fn deriving_party(table: usize) -> PartyId {
    table % 2
}

/// A block's table shares as one party holds them.
#[derive(Clone)]
pub(crate) enum TableShares {
    /// All 160 tables stored in the block's own vector (material from outside the dealer).
    Full(Vec<u8>),
    /// The tables this party derives (`t mod 2` = party) come from `seed`; the other 80 are
    /// stored in the batch's round-major slab (see the module docs) as block `block` of `blocks`.
    /// The dealer backs the slab with huge pages: the gathers read it at random positions, and
    /// with 4 KiB pages each block's round tables cost a page walk of their own.
    Split { slab: Arc<Vec<u8>>, block: usize, blocks: usize, seed: TableSeed },
}

/// A block's table shares as the online gathers read them (sizes checked).
#[derive(Clone, Copy)]
pub(crate) enum BlockTables<'a> {
    /// All 160 tables stored.
    Full(&'a [u8; TABLE_BYTES_PER_BLOCK]),
    /// Seed-derived form of party `party`: the stored tables are in `slab` (length checked) as
    /// block `block` of `blocks`.
    Split { party: PartyId, slab: &'a [u8], block: usize, blocks: usize, seed: TableSeed },
}

/// The stored tables of round `round` (from 1) of block `block` of `blocks` in a round-major slab.
#[inline(always)]
fn stored_round(slab: &[u8], block: usize, blocks: usize, round: usize) -> &[u8; STORED_ROUND] {
    slab[STORED_ROUND * ((round - 1) * blocks + block)..][..STORED_ROUND].try_into().expect("fixed size")
}

/// One party's preprocessed material for one AES-128 block with S-box tables.
#[derive(Clone)]
pub struct AesTablePrep {
    pub(crate) party: PartyId,
    /// The cipher the tables and masks are made for (see [`super::direction`]).
    pub(crate) direction: Direction,
    pub(crate) key_owner: PartyId,
    pub(crate) reveal: Reveal,
    pub(crate) tables: TableShares,
    pub(crate) round_key_masks: Option<Vec<[u8; 16]>>,
    pub(crate) plaintext_mask: Option<[u8; 16]>,
    pub(crate) output_mask: Option<[u8; 16]>,
}

impl core::fmt::Debug for AesTablePrep {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Masks and table shares are secret: never print them.
        f.debug_struct("AesTablePrep")
            .field("party", &self.party)
            .field("direction", &self.direction)
            .field("key_owner", &self.key_owner)
            .finish()
    }
}

impl AesTablePrep {
    /// The party this material belongs to.
    pub fn party(&self) -> PartyId {
        self.party
    }

    /// Bytes of table shares held by this party ([`TABLES_PER_BLOCK`] × [`TABLE_ENTRIES`], the
    /// quantity of Table 1), whether stored or derived from a seed.
    pub fn table_bytes(&self) -> usize {
        TABLE_BYTES_PER_BLOCK
    }

    /// Bytes of table shares this party stores: [`STORED_BYTES_PER_BLOCK`] for the dealer's
    /// seed-derived material (plus a 16-byte seed), all [`TABLE_BYTES_PER_BLOCK`] otherwise.
    pub fn stored_table_bytes(&self) -> usize {
        match &self.tables {
            TableShares::Full(t) => t.len(),
            TableShares::Split { .. } => STORED_BYTES_PER_BLOCK,
        }
    }

    /// The shares in the form the gathers read, or `None` if a size is off.
    fn block_tables(&self) -> Option<BlockTables<'_>> {
        match &self.tables {
            TableShares::Full(t) => t.as_slice().try_into().ok().map(BlockTables::Full),
            TableShares::Split { slab, block, blocks, seed } => (*block < *blocks
                && slab.len() == blocks * STORED_BYTES_PER_BLOCK)
                .then(|| BlockTables::Split {
                    party: self.party,
                    slab,
                    block: *block,
                    blocks: *blocks,
                    seed: *seed,
                }),
        }
    }
}

/// Equal material: same roles, masks and (stored or derived) table shares.
impl PartialEq for AesTablePrep {
    fn eq(&self, other: &Self) -> bool {
        self.party == other.party
            && self.direction == other.direction
            && self.key_owner == other.key_owner
            && self.reveal == other.reveal
            && self.round_key_masks == other.round_key_masks
            && self.plaintext_mask == other.plaintext_mask
            && self.output_mask == other.output_mask
            && self.tables() == other.tables()
    }
}

impl Eq for AesTablePrep {}

/// The AES round function after the table layer, on plain bytes: (Inv)ShiftRows, (Inv)MixColumns
/// (skipped in `last`, the final round) and AddRoundKey with `round_key`
/// ([`direction::round_linear`]). GF(2)-linear, so it maps masked states, masks and XOR-shares
/// alike.
#[inline]
pub(crate) fn next_round_state(direction: Direction, state: &mut [u8; 16], round_key: &[u8], last: bool) {
    direction::round_linear(direction, state, round_key, last);
}

/// The wire masks of one AES-128 block (§2.3): round-key masks, plaintext mask, the S-box input
/// and output masks of every round and the resulting output mask.
pub(crate) struct MaskChain {
    pub(crate) key_masks: [[u8; 16]; ROUND_KEYS],
    pub(crate) plaintext_mask: [u8; 16],
    /// `in_masks[r − 1]`: the masks of round `r`'s S-box inputs.
    pub(crate) in_masks: [[u8; 16]; 10],
    /// `out_masks[r − 1]`: the masks of round `r`'s S-box outputs.
    pub(crate) out_masks: [[u8; 16]; 10],
    pub(crate) output_mask: [u8; 16],
}

impl MaskChain {
    /// Samples fresh masks and propagates them through the direction's linear layers.
    pub(crate) fn sample<R: RngCore>(rng: &mut R, direction: Direction) -> Self {
        let mut key_masks = [[0u8; 16]; ROUND_KEYS];
        key_masks.iter_mut().for_each(|k| rng.fill_bytes(k));
        let mut plaintext_mask = [0u8; 16];
        rng.fill_bytes(&mut plaintext_mask);
        let mut out_masks = [[0u8; 16]; 10];
        out_masks.iter_mut().for_each(|m| rng.fill_bytes(m));
        Self::propagate(direction, key_masks, plaintext_mask, out_masks)
    }

    /// The chain determined by the sampled masks (the S-box input masks and output mask follow).
    pub(crate) fn propagate(
        direction: Direction,
        key_masks: [[u8; 16]; ROUND_KEYS],
        plaintext_mask: [u8; 16],
        out_masks: [[u8; 16]; 10],
    ) -> Self {
        let mut in_masks = [[0u8; 16]; 10];
        let mut mask: [u8; 16] = core::array::from_fn(|j| plaintext_mask[j] ^ key_masks[0][j]);
        for round in 1..ROUND_KEYS {
            in_masks[round - 1] = mask;
            mask = out_masks[round - 1];
            next_round_state(direction, &mut mask, &key_masks[round], round == ROUND_KEYS - 1);
        }
        MaskChain { key_masks, plaintext_mask, in_masks, out_masks, output_mask: mask }
    }
}

/// Checks that the key owner and the reveal set name parties 0 and 1.
pub(crate) fn check_roles(key_owner: PartyId, reveal: Reveal) -> Result<(), TinyTableError> {
    if key_owner > 1 || matches!(reveal, Reveal::To(p) if p > 1) {
        return Err(TinyTableError::BadIoSpec(format!(
            "key owner {key_owner} / {reveal:?} outside parties 0, 1"
        )));
    }
    Ok(())
}

/// This party's masked inputs of a batch (the input message, §2.3): the 11 masked round keys per
/// block (of the direction's rounds) from the key owner, the masked plaintext (or ciphertext) per
/// block from the other party.
pub(crate) fn masked_inputs<'a>(
    direction: Direction,
    key_owner: bool,
    inputs: &[Block],
    masks: impl Iterator<Item = &'a [u8]>,
) -> Vec<u8> {
    let mut msg = Vec::with_capacity(inputs.len() * if key_owner { 16 * ROUND_KEYS } else { 16 });
    // A batch usually encrypts under one key: consecutive equal keys are expanded once (the
    // comparison's timing shows only whether this party's own consecutive keys are equal).
    let mut expanded: Option<(Block, [[u8; 16]; ROUND_KEYS])> = None;
    for (input, mask) in inputs.iter().zip(masks) {
        if key_owner {
            let round_keys = match expanded {
                Some((key, round_keys)) if key == *input => round_keys,
                _ => {
                    let round_keys = direction::round_keys(direction, input);
                    expanded = Some((*input, round_keys));
                    round_keys
                }
            };
            msg.extend(round_keys.as_flattened().iter().zip(mask).map(|(k, m)| k ^ m));
        } else {
            msg.extend(input.iter().zip(mask).map(|(x, m)| x ^ m));
        }
    }
    msg
}

/// The masked states after the initial AddRoundKey, and the masked round keys of every block, from
/// the two input messages.
pub(crate) fn initial_states(key_msg: &[u8], pt_msg: &[u8]) -> Vec<[u8; 16]> {
    pt_msg
        .chunks_exact(16)
        .zip(key_msg.chunks_exact(16 * ROUND_KEYS))
        .map(|(pt, keys)| core::array::from_fn(|j| pt[j] ^ keys[j]))
        .collect()
}

/// The masked round keys 1..=10 of all blocks, round-major (`keys[n (round − 1) + i]`: block `i`),
/// so each round reads its keys in order: the gathers' random reads evict the input message from
/// the caches, and a block-major read then misses once per block and round.
pub(crate) fn round_major_keys(key_msg: &[u8], n: usize) -> Vec<[u8; 16]> {
    let mut keys = vec![[0u8; 16]; n * (ROUND_KEYS - 1)];
    for (i, block_keys) in key_msg.chunks_exact(16 * ROUND_KEYS).take(n).enumerate() {
        for (round, key) in block_keys.chunks_exact(16).enumerate().skip(1) {
            keys[n * (round - 1) + i].copy_from_slice(key);
        }
    }
    keys
}

/// Encrypts (or, with material made for decryption, decrypts) `preps.len()` blocks at once.
/// `inputs[i]` is this party's input of block `i`: the AES-128 key if it is the key owner, else
/// the plaintext (ciphertext) block. Returns, per block, the output if it is revealed to this
/// party.
pub async fn encrypt_batch<N: Network>(
    net: &mut N,
    preps: &[AesTablePrep],
    inputs: &[Block],
) -> Result<Vec<Option<Block>>, TinyTableError> {
    check_two_parties(net)?;
    let party = net.party();
    let Some(first) = preps.first() else { return Ok(Vec::new()) };
    let key_owner = first.key_owner == party;
    for prep in preps {
        let consistent = prep.party == party
            && prep.direction == first.direction
            && prep.key_owner == first.key_owner
            && prep.reveal == first.reveal
            && prep.block_tables().is_some()
            && prep.round_key_masks.as_ref().map(Vec::len).unwrap_or(ROUND_KEYS) == ROUND_KEYS
            && (key_owner == prep.round_key_masks.is_some())
            && (key_owner != prep.plaintext_mask.is_some());
        if !consistent {
            return Err(TinyTableError::PrepMismatch {
                party,
                reason: "AES table material is for another party, direction, role, reveal set or size".into(),
            });
        }
    }
    if inputs.len() != preps.len() {
        return Err(TinyTableError::BadInput {
            party,
            instance: inputs.len().min(preps.len()),
            reason: format!("{} input blocks for {} instances", inputs.len(), preps.len()),
        });
    }
    let n = preps.len();
    let masks = preps.iter().map(|p| match (&p.round_key_masks, &p.plaintext_mask) {
        (Some(keys), _) => keys.as_flattened(),
        (None, Some(pt)) => pt.as_slice(),
        (None, None) => &[],
    });
    let direction = first.direction;
    let my_inputs = masked_inputs(direction, key_owner, inputs, masks);
    let tables: Vec<BlockTables<'_>> = preps.iter().filter_map(AesTablePrep::block_tables).collect();
    let mut side = TableRounds {
        direction,
        key_owner,
        my_inputs,
        tables,
        states: vec![[0; 16]; n],
        round_keys: vec![[0; 16]; n * (ROUND_KEYS - 1)],
    };
    let step = |round| if round == 0 { Step::Input } else { Step::SboxRound(round) };
    run_lanes(net, &mut side, &lanes(n), 0..ROUND_KEYS, step).await?;
    Ok(side
        .states
        .iter()
        .zip(preps)
        .map(|(s, prep)| prep.output_mask.map(|m| core::array::from_fn(|j| s[j] ^ m[j])))
        .collect())
}

/// One party's rounds of a batch (see [`crate::proto::tinytable::sbox::lanes`]): round 0 exchanges the masked inputs,
/// rounds 1..=10 the S-box lookups.
struct TableRounds<'a> {
    direction: Direction,
    key_owner: bool,
    /// This party's masked inputs of all blocks ([`masked_inputs`]).
    my_inputs: Vec<u8>,
    tables: Vec<BlockTables<'a>>,
    states: Vec<[u8; 16]>,
    /// The masked round keys 1..=10, round-major inside each lane (see [`Self::key_index`]): each
    /// round reads its keys in order, as the gathers' random reads evict the input message from
    /// the caches and a block-major read would miss once per block and round.
    round_keys: Vec<[u8; 16]>,
}

impl TableRounds<'_> {
    /// Bytes of a party's masked inputs per block.
    fn input_len(key_owner: bool) -> usize {
        if key_owner {
            16 * ROUND_KEYS
        } else {
            16
        }
    }

    /// Where round key `round` (1..=10) of block `block` of `lane` is kept.
    fn key_index(lane: &Range<usize>, round: usize, block: usize) -> usize {
        (ROUND_KEYS - 1) * lane.start + lane.len() * (round - 1) + (block - lane.start)
    }

    /// Round 0: the initial states and round keys of the lane from both input messages.
    fn take_inputs(&mut self, lane: Range<usize>, theirs: &[u8]) {
        let mine = &self.my_inputs[Self::input_len(self.key_owner) * lane.start..]
            [..Self::input_len(self.key_owner) * lane.len()];
        let (key_msg, pt_msg) = if self.key_owner { (mine, theirs) } else { (theirs, mine) };
        self.states[lane.clone()].copy_from_slice(&initial_states(key_msg, pt_msg));
        for (block, block_keys) in lane.clone().zip(key_msg.chunks_exact(16 * ROUND_KEYS)) {
            for (round, key) in block_keys.chunks_exact(16).enumerate().skip(1) {
                self.round_keys[Self::key_index(&lane, round, block)].copy_from_slice(key);
            }
        }
    }
}

impl LaneRounds for TableRounds<'_> {
    fn message(&mut self, lane: Range<usize>, round: usize) -> Result<Vec<u8>, TinyTableError> {
        if round == 0 {
            let len = Self::input_len(self.key_owner);
            return Ok(self.my_inputs[len * lane.start..len * lane.end].to_vec());
        }
        let mut mine = vec![0u8; 16 * lane.len()];
        gather_round(&self.tables[lane.clone()], round, &self.states[lane.clone()], &mut mine);
        // The message goes to the transport; our entries are kept in the states meanwhile.
        for (state, entries) in self.states[lane].iter_mut().zip(mine.chunks_exact(16)) {
            state.copy_from_slice(entries);
        }
        Ok(mine)
    }

    fn expected_len(&self, lane: Range<usize>, round: usize) -> usize {
        lane.len() * if round == 0 { Self::input_len(!self.key_owner) } else { 16 }
    }

    fn absorb(&mut self, lane: Range<usize>, round: usize, theirs: Vec<u8>) -> Result<(), TinyTableError> {
        if round == 0 {
            self.take_inputs(lane, &theirs);
            return Ok(());
        }
        let last = round == ROUND_KEYS - 1;
        let key_start = Self::key_index(&lane, round, lane.start);
        let keys = &self.round_keys[key_start..][..lane.len()];
        for ((state, b), key) in self.states[lane].iter_mut().zip(theirs.chunks_exact(16)).zip(keys) {
            state.iter_mut().zip(b).for_each(|(a, b)| *a ^= b);
            next_round_state(self.direction, state, key, last);
        }
        Ok(())
    }
}

/// This party's entries of S-box round `round` for every block: `out[16 i + j]` is entry
/// `states[i][j]` of block `i`'s table `16 (round − 1) + j` (`tables[i]`: block `i`'s tables).
///
/// A block's stored tables of one round are 4 KiB (2 KiB in the seed-derived form) in a row, and
/// the next block's are elsewhere (fully stored material) or next to them (the dealer's
/// round-major slab): a block may cost a page walk besides its cache misses. So the first and last entries a block will need are touched [`PAGE_AHEAD`]
/// blocks early (starting the page walks), and all of them [`AHEAD`] blocks early, keeping many
/// misses in flight; the derived entries' AES pass runs while they are.
pub(crate) fn gather_round(tables: &[BlockTables<'_>], round: usize, states: &[[u8; 16]], out: &mut [u8]) {
    /// Blocks whose derived entries are computed in one pass of the cipher.
    const GROUP: usize = 32;
    let n = states.len().min(tables.len());
    let touch = |i: usize, all: bool| match tables[i] {
        BlockTables::Full(t) => {
            let t = &t[FULL_ROUND * (round - 1)..][..FULL_ROUND];
            let s = &states[i];
            if all {
                (1..15).for_each(|j| prefetch(&t[TABLE_ENTRIES * j + usize::from(s[j])]));
            } else {
                prefetch(&t[usize::from(s[0])]);
                prefetch(&t[15 * TABLE_ENTRIES + usize::from(s[15])]);
            }
        }
        BlockTables::Split { party, slab, block, blocks, .. } => {
            let t = stored_round(slab, block, blocks, round);
            let s = &states[i];
            let first = 1 - party;
            if all {
                (1..7).for_each(|k| prefetch(&t[TABLE_ENTRIES * k + usize::from(s[2 * k + first])]));
            } else {
                prefetch(&t[usize::from(s[first])]);
                prefetch(&t[7 * TABLE_ENTRIES + usize::from(s[14 + first])]);
            }
        }
    };
    let base = 16 * (round - 1);
    for group in (0..n).step_by(GROUP) {
        let end = n.min(group + GROUP);
        // The AES pass of the group runs while the prefetches of its first blocks are in flight.
        let mut derived = [PermBlock::default(); 8 * GROUP];
        for i in group..end {
            if let BlockTables::Split { party, seed, .. } = tables[i] {
                let requests = &mut derived[8 * (i - group)..][..8];
                for (k, r) in requests.iter_mut().enumerate() {
                    *r = seed.request(base + 2 * k + party, states[i][2 * k + party]);
                }
            }
        }
        permute_all(&mut derived[..8 * (end - group)]);
        for i in group..end {
            if i + PAGE_AHEAD < n {
                touch(i + PAGE_AHEAD, false);
            }
            if i + AHEAD < n {
                touch(i + AHEAD, true);
            }
            let (s, dst) = (&states[i], &mut out[16 * i..16 * i + 16]);
            match tables[i] {
                BlockTables::Full(t) => {
                    // The fixed-size view lets every index `256 j + e < 4096` go unchecked.
                    let t: &[u8; FULL_ROUND] =
                        t[FULL_ROUND * (round - 1)..][..FULL_ROUND].try_into().expect("fixed size");
                    for (j, d) in dst.iter_mut().enumerate() {
                        *d = t[TABLE_ENTRIES * j + usize::from(s[j])];
                    }
                }
                BlockTables::Split { party, slab, block, blocks, seed } => {
                    let t = stored_round(slab, block, blocks, round);
                    let outputs = &derived[8 * (i - group)..][..8];
                    let first = 1 - party;
                    for (k, output) in outputs.iter().enumerate() {
                        dst[2 * k + party] = seed.entry_from(output, s[2 * k + party]);
                        dst[2 * k + first] = t[TABLE_ENTRIES * k + usize::from(s[2 * k + first])];
                    }
                }
            }
        }
    }
}

/// Bytes of one round's tables of a block: all 16, or the 8 stored ones.
const FULL_ROUND: usize = 16 * TABLE_ENTRIES;
pub(crate) const STORED_ROUND: usize = 8 * TABLE_ENTRIES;

/// Encrypts one block; see [`encrypt_batch`].
pub async fn encrypt<N: Network>(
    net: &mut N,
    prep: &AesTablePrep,
    input: &Block,
) -> Result<Option<Block>, TinyTableError> {
    let mut out = encrypt_batch(net, core::slice::from_ref(prep), core::slice::from_ref(input)).await?;
    Ok(out.pop().flatten())
}
