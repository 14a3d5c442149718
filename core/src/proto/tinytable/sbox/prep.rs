//! Authenticated S-box table material for the malicious AES-128 protocol
//! ([`crate::proto::tinytable::sbox::malicious`]) and its trusted-dealer provider.
//!
//! Per block the material is the passive one of §2.3 (160 tables of 256 XOR-shared bytes with
//! `A[e] ⊕ B[e] = S(e ⊕ m_in) ⊕ m_out`) plus the §3 linear MACs (k = 64, [`crate::proto::tinytable::mac::linear::K64`]):
//! every entry `x` of a party's table carries a tag `y = α_peer·x + β_peer,i ∈ G = GF(2^127)`
//! under the *peer's* key, so the party can later prove to the peer which entry it sent. The
//! output mask is XOR-shared too, with tags on both shares, so it is opened only after the MAC
//! check (§5: "MAC checking before ... opening the result").
//!
//! A verifier's per-entry keys `β_i` come either from a 16-byte PRF seed ([`KeyPrf`], the trusted
//! dealer's choice: nothing per entry is stored) or from an explicit array (the output of the §4
//! construction, [`crate::proto::tinytable::sbox::construct`], where the keys are computed, not sampled).
//!
//! Sizes per party and block (Table 1, "Optimized"): table shares 160·256 = 40 960 bytes and a tag
//! per entry. §5 counts "2k bits extra per table entry" (17 bytes per entry, 680 KiB); Table 1
//! prints 760 KiB for "Linear-64 / Optimized" (19 bytes per entry) without saying where the other
//! two come from. We store **16 bytes per entry, 640 KiB** with seeded keys
//! ([`MaliciousAesPrep::table_and_mac_bytes`]): a tag of a byte message needs only its low 71
//! bits ([`BYTE_TAG_MASK`] — the projection is a MAC of its own, see there), so the entry byte
//! goes into the top byte of its tag's 128-bit word. Each online lookup then reads one aligned
//! word, one cache line instead of two (the reads are random, in hundreds of MiB: nearly all of
//! them miss). With explicit keys add 16 bytes per entry.
//!
//! **Trust model of the dealer** ([`TrustedDealer::malicious_aes_tables`]): as in
//! [`super::prep`], a trusted third party sees all masks, table shares and MAC keys; it must be
//! honest and not collude. The parties themselves may be malicious.
//!
//! Entry indices ([`EntryLayout`]): an entry's index is its position in the party's entry array,
//! and also the input of the verifier's key PRF for it. The trusted dealer lays a batch out
//! **round-major**: entry `e` of table `16 (r − 1) + j` of block `b` of `n` at
//! `((r − 1)·n + b)·4096 + 256 j + e`, so the 16 n random reads of one S-box round stay inside
//! `64 n` KiB instead of spreading over all `640 n` KiB: random reads confined to a tenth of the
//! material are markedly faster (address translation of a smaller region stays cached; figures in
//! `docs/performance.md`). Material from the §4 construction is
//! block-major (`(160 b + t)·256 + e`). Output-mask byte `j` of block `b` has index
//! `OUTPUT_INDEX | (16 b + j)` (disjoint from table indices).

use crate::aes::Direction;
use crate::net::PartyId;
use crate::proto::tinytable::mac::batch_open::KeyPrf;
use crate::proto::tinytable::mac::linear::BYTE_TAG_MASK;
use crate::proto::tinytable::sbox::schedule::ScheduleTables;
use crate::proto::tinytable::sbox::tables::{
    ROUND_KEYS, TABLES_PER_BLOCK, TABLE_BYTES_PER_BLOCK, TABLE_ENTRIES,
};
use crate::proto::tinytable::spec::Reveal;

/// Bytes of one stored tag (k = 64: 127 bits in 16 bytes), or of one packed entry and tag.
pub const TAG_BYTES: usize = 16;
/// Bit position of the entry byte in its packed word ([`pack_entry`]).
const ENTRY_SHIFT: u32 = 120;

/// An entry `x` and its tag in one word: the tag's low 71 bits ([`BYTE_TAG_MASK`]) and `x` in
/// the top byte.
#[inline]
pub(crate) fn pack_entry(x: u8, tag: u128) -> u128 {
    (tag & BYTE_TAG_MASK) | u128::from(x) << ENTRY_SHIFT
}

/// The entry byte of a packed word.
#[inline]
pub(crate) fn entry_of(word: u128) -> u8 {
    (word >> ENTRY_SHIFT) as u8
}

/// The (projected) tag of a packed word.
#[inline]
pub(crate) fn tag_of(word: u128) -> u128 {
    word & BYTE_TAG_MASK
}
/// Index domain of the output-mask shares' MAC keys.
pub(crate) const OUTPUT_INDEX: u64 = 1 << 63;

/// A verifier's keys `β_i` for the peer's entries and output-mask shares.
#[derive(Clone)]
pub(crate) enum PeerKeys {
    /// `β_i = PRF(i)` under a secret seed (trusted dealer).
    Prf(Box<KeyPrf>),
    /// Stored keys: table entries by index, output-mask bytes by `16 b + j` (§4 construction).
    Explicit { tables: Vec<u128>, outputs: Vec<u128> },
}

impl PeerKeys {
    /// `out[j] = β_{indices[j]}`. Indices are in range (checked by the material's constructor).
    pub(crate) fn fill(&self, indices: &[u64], out: &mut [u128]) {
        match self {
            PeerKeys::Prf(prf) => prf.eval(indices, out),
            PeerKeys::Explicit { tables, outputs } => {
                for (o, &i) in out.iter_mut().zip(indices) {
                    *o = if i & OUTPUT_INDEX != 0 {
                        outputs[(i & !OUTPUT_INDEX) as usize]
                    } else {
                        tables[i as usize]
                    };
                }
            }
        }
    }
}

/// Where the table entries of a batch lie in a party's entry array (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EntryLayout {
    /// Entry `e` of table `t` of block `b` at `(160 b + t)·256 + e` (the §4 construction).
    BlockMajor,
    /// Entry `e` of table `16 (r − 1) + j` of block `b` of `n` at `((r − 1)·n + b)·4096 + 256 j + e`
    /// (the trusted dealer). For one block both layouts agree.
    RoundMajor,
}

impl EntryLayout {
    /// The index of entry `e` of table `table` of block `block` of `blocks`.
    #[inline(always)]
    pub(crate) fn index(self, blocks: usize, block: usize, table: usize, e: usize) -> usize {
        match self {
            EntryLayout::BlockMajor => entry_index(block, table, e),
            EntryLayout::RoundMajor => {
                let (round, byte) = (table / 16, table % 16);
                ((round * blocks + block) * 16 + byte) * TABLE_ENTRIES + e
            }
        }
    }

    /// The codec's byte for the layout.
    pub(crate) fn code(self) -> u8 {
        match self {
            EntryLayout::BlockMajor => 0,
            EntryLayout::RoundMajor => 1,
        }
    }

    /// The layout of [`Self::code`]'s byte.
    pub(crate) fn from_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(EntryLayout::BlockMajor),
            1 => Some(EntryLayout::RoundMajor),
            _ => None,
        }
    }
}

/// One party's authenticated S-box table material for a batch of AES-128 blocks (all tables of
/// the batch contiguous).
#[derive(Clone)]
pub struct MaliciousAesPrep {
    pub(crate) party: PartyId,
    /// The cipher the tables and masks are made for (see [`super::direction`]).
    pub(crate) direction: Direction,
    /// The party that inputs the key — with an XOR-shared key (`schedule`), the party that inputs
    /// only its key share; the other one inputs the plaintexts (ciphertexts) in either case.
    pub(crate) key_owner: PartyId,
    pub(crate) reveal: Reveal,
    pub(crate) blocks: usize,
    /// Own table shares with their tags under the peer's key ([`pack_entry`]), placed by
    /// `layout`.
    pub(crate) entries: Vec<u128>,
    /// Where each table entry lies in `entries`.
    pub(crate) layout: EntryLayout,
    /// Own MAC key α (for the peer's entries and output-mask shares).
    pub(crate) alpha: u64,
    /// Own per-entry keys β for the peer's values.
    pub(crate) peer_keys: PeerKeys,
    /// The public fixed AES key of the batched-opening hash F (§3.3), the same for both parties.
    pub(crate) hash_key: [u8; 16],
    /// Per block: the key owner's 11 round-key masks (176 bytes) and the other party's 16
    /// plaintext-mask bytes; with an XOR-shared key the mask of the own key share (16 bytes),
    /// followed at the plaintext owner by its plaintext mask (16 bytes).
    pub(crate) input_masks: Vec<u8>,
    /// With an XOR-shared key, the key-schedule tables ([`super::schedule`]); `None` when the key
    /// owner inputs the expanded key.
    pub(crate) schedule: Option<ScheduleTables>,
    /// Own shares of the output masks, 16 per block.
    pub(crate) output_mask_shares: Vec<u8>,
    /// Tags on those shares under the peer's key.
    pub(crate) output_mask_tags: Vec<u128>,
}

impl core::fmt::Debug for MaliciousAesPrep {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Masks, table shares and keys are secret: never print them.
        f.debug_struct("MaliciousAesPrep")
            .field("party", &self.party)
            .field("direction", &self.direction)
            .field("key_owner", &self.key_owner)
            .field("blocks", &self.blocks)
            .field("shared_key", &self.schedule.is_some())
            .finish_non_exhaustive()
    }
}

impl MaliciousAesPrep {
    /// The party this material belongs to.
    pub fn party(&self) -> PartyId {
        self.party
    }

    /// The cipher the material is made for.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// Number of AES blocks the material is for.
    pub fn blocks(&self) -> usize {
        self.blocks
    }

    /// The key owner.
    pub fn key_owner(&self) -> PartyId {
        self.key_owner
    }

    /// Who learns the ciphertexts.
    pub fn reveal(&self) -> Reveal {
        self.reveal
    }

    /// Whether the key is XOR-shared between both parties (the material holds the key-schedule
    /// tables) rather than input expanded by the key owner.
    pub fn shared_key(&self) -> bool {
        self.schedule.is_some()
    }

    /// Bytes of table shares plus stored tags (the quantity of Table 1; masks and the O(1) keys
    /// not counted): `blocks · 160 · 256 · 16` with seeded keys (entry and tag packed in 16
    /// bytes), plus 16 per entry with explicit keys; with an XOR-shared key the same for the 40
    /// key-schedule tables per block.
    pub fn table_and_mac_bytes(&self) -> usize {
        let explicit = match &self.peer_keys {
            PeerKeys::Prf(_) => 0,
            PeerKeys::Explicit { tables, .. } => tables.len() * TAG_BYTES,
        };
        let schedule = self.schedule.as_ref().map_or(0, |s| (s.entries.len() + s.keys.len()) * TAG_BYTES);
        self.entries.len() * TAG_BYTES + explicit + schedule
    }

    /// Bytes of masked input this party sends per block.
    pub(crate) fn input_bytes(&self) -> usize {
        self.input_masks_of(self.party)
    }

    /// Bytes of input masks (and masked input) of `party` per block.
    pub(crate) fn input_masks_of(&self, party: PartyId) -> usize {
        match (self.schedule.is_some(), party == self.key_owner) {
            (false, true) => 16 * ROUND_KEYS,
            (false, false) | (true, true) => 16,
            (true, false) => 32,
        }
    }

    /// The index of entry `e` of table `table` of block `block` ([`EntryLayout::index`]).
    #[cfg(test)]
    pub(crate) fn position(&self, block: usize, table: usize, e: usize) -> usize {
        self.layout.index(self.blocks, block, table, e)
    }

    /// This party's share of table entry `i` ([`Self::position`]).
    #[cfg(test)]
    pub(crate) fn entry(&self, i: usize) -> u8 {
        entry_of(self.entries[i])
    }

    /// The tag of entry `i` (projected onto [`BYTE_TAG_MASK`]).
    #[cfg(test)]
    pub(crate) fn tag(&self, i: usize) -> u128 {
        tag_of(self.entries[i])
    }

    /// Replaces entry `i`'s share, keeping its tag (tests forge material with it).
    #[cfg(test)]
    pub(crate) fn set_entry(&mut self, i: usize, x: u8) {
        self.entries[i] = pack_entry(x, tag_of(self.entries[i]));
    }

    /// Replaces entry `i`'s tag, keeping the share.
    #[cfg(test)]
    pub(crate) fn set_tag(&mut self, i: usize, tag: u128) {
        self.entries[i] = pack_entry(entry_of(self.entries[i]), tag);
    }

    /// Appends `later`'s blocks after this material's (material built in chunks of blocks by
    /// the §4 construction with one source). Both must be block-major with explicit keys, of the
    /// same party, roles, MAC key and hash key; anything else is an error naming the difference.
    pub(crate) fn append(&mut self, later: MaliciousAesPrep) -> Result<(), String> {
        let same = self.party == later.party
            && self.direction == later.direction
            && self.key_owner == later.key_owner
            && self.reveal == later.reveal
            && self.alpha == later.alpha
            && self.hash_key == later.hash_key
            && self.schedule.is_some() == later.schedule.is_some();
        if !same {
            return Err("material of another party, direction, roles, MAC key or hash key".into());
        }
        if self.layout != EntryLayout::BlockMajor || later.layout != EntryLayout::BlockMajor {
            return Err("only block-major material can be appended".into());
        }
        let (PeerKeys::Explicit { tables, outputs }, PeerKeys::Explicit { tables: t2, outputs: o2 }) =
            (&mut self.peer_keys, later.peer_keys)
        else {
            return Err("only material with explicit verifier keys can be appended".into());
        };
        tables.extend(t2);
        outputs.extend(o2);
        if let (Some(schedule), Some(more)) = (&mut self.schedule, later.schedule) {
            schedule.append(more);
        }
        self.entries.extend(later.entries);
        self.input_masks.extend(later.input_masks);
        self.output_mask_shares.extend(later.output_mask_shares);
        self.output_mask_tags.extend(later.output_mask_tags);
        self.blocks += later.blocks;
        self.check_shape()
    }

    /// Why blocks `start..start + len` cannot be taken out of this material (none if they can).
    fn check_range(&self, start: usize, len: usize) -> Result<(), String> {
        if len == 0 || start.checked_add(len).is_none_or(|end| end > self.blocks) {
            return Err(format!(
                "cannot take blocks {start}..{start}+{len} from material for {}",
                self.blocks
            ));
        }
        if self.layout != EntryLayout::BlockMajor {
            return Err("only block-major material can be split".into());
        }
        if !matches!(self.peer_keys, PeerKeys::Explicit { .. }) {
            return Err("only material with explicit verifier keys can be split".into());
        }
        Ok(())
    }

    /// A copy of blocks `start..start + len` (`len ≥ 1`) as material of their own (prepared
    /// material is handed out to jobs this way, at the cost of the range alone). Needs
    /// block-major material with explicit keys.
    pub(crate) fn blocks_range(&self, start: usize, len: usize) -> Result<MaliciousAesPrep, String> {
        self.check_range(start, len)?;
        let PeerKeys::Explicit { tables, outputs } = &self.peer_keys else {
            return Err("only material with explicit verifier keys can be split".into());
        };
        let input = self.input_masks.len() / self.blocks;
        fn range<T: Copy>(v: &[T], start: usize, len: usize, per_block: usize) -> Vec<T> {
            v[start * per_block..(start + len) * per_block].to_vec()
        }
        let taken = MaliciousAesPrep {
            party: self.party,
            direction: self.direction,
            key_owner: self.key_owner,
            reveal: self.reveal,
            blocks: len,
            entries: range(&self.entries, start, len, TABLE_BYTES_PER_BLOCK),
            layout: EntryLayout::BlockMajor,
            alpha: self.alpha,
            peer_keys: PeerKeys::Explicit {
                tables: range(tables, start, len, TABLE_BYTES_PER_BLOCK),
                outputs: range(outputs, start, len, 16),
            },
            hash_key: self.hash_key,
            input_masks: range(&self.input_masks, start, len, input),
            output_mask_shares: range(&self.output_mask_shares, start, len, 16),
            output_mask_tags: range(&self.output_mask_tags, start, len, 16),
            schedule: self.schedule.as_ref().map(|s| s.blocks_range(start, len)),
        };
        taken.check_shape()?;
        Ok(taken)
    }

    /// Moves all of the material out, leaving none (the inverse of [`Self::append`] for the whole).
    pub(crate) fn take_all(&mut self) -> MaliciousAesPrep {
        let schedule =
            self.schedule.as_ref().map(|_| ScheduleTables { entries: Vec::new(), keys: Vec::new() });
        let rest = MaliciousAesPrep {
            blocks: 0,
            entries: Vec::new(),
            peer_keys: PeerKeys::Explicit { tables: Vec::new(), outputs: Vec::new() },
            input_masks: Vec::new(),
            output_mask_shares: Vec::new(),
            output_mask_tags: Vec::new(),
            schedule,
            ..*self
        };
        core::mem::replace(self, rest)
    }

    /// Checks the internal sizes (material from outside the dealer is checked before use).
    pub(crate) fn check_shape(&self) -> Result<(), String> {
        let entries = self.blocks * TABLE_BYTES_PER_BLOCK;
        let input = self.input_bytes();
        let explicit_ok = match &self.peer_keys {
            PeerKeys::Prf(_) => true,
            PeerKeys::Explicit { tables, outputs } => {
                tables.len() == entries && outputs.len() == 16 * self.blocks
            }
        };
        let explicit = matches!(self.peer_keys, PeerKeys::Explicit { .. });
        if self.schedule.as_ref().is_some_and(|s| !s.holds(self.blocks, explicit)) {
            return Err(format!("key-schedule arrays do not hold {} blocks", self.blocks));
        }
        if self.party > 1 || self.key_owner > 1 || matches!(self.reveal, Reveal::To(p) if p > 1) {
            return Err("party, key owner or reveal set outside parties 0, 1".into());
        }
        if self.entries.len() != entries || !explicit_ok {
            return Err(format!("entry or key arrays do not hold {} blocks", self.blocks));
        }
        if self.input_masks.len() != input * self.blocks
            || self.output_mask_shares.len() != 16 * self.blocks
            || self.output_mask_tags.len() != 16 * self.blocks
        {
            return Err("mask arrays do not match the block count and role".into());
        }
        Ok(())
    }
}

/// The index of entry `e` of table `table` of block `block` in the block-major layout
/// ([`EntryLayout::BlockMajor`]; for a batch of one block also the round-major one).
#[inline]
pub(crate) fn entry_index(block: usize, table: usize, e: usize) -> usize {
    (TABLES_PER_BLOCK * block + table) * TABLE_ENTRIES + e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_place_every_entry_once_and_agree_for_one_block() {
        for blocks in [1, 3] {
            for layout in [EntryLayout::BlockMajor, EntryLayout::RoundMajor] {
                let mut seen = vec![false; blocks * TABLE_BYTES_PER_BLOCK];
                for b in 0..blocks {
                    for t in 0..TABLES_PER_BLOCK {
                        // A block's 16 tables of one round are consecutive (the online phase relies on it).
                        let base = layout.index(blocks, b, t - t % 16, 0);
                        for e in 0..TABLE_ENTRIES {
                            let i = layout.index(blocks, b, t, e);
                            assert_eq!(i, base + TABLE_ENTRIES * (t % 16) + e);
                            assert!(
                                !std::mem::replace(&mut seen[i], true),
                                "{layout:?} places two entries at {i}"
                            );
                            if blocks == 1 {
                                assert_eq!(i, entry_index(b, t, e));
                            }
                        }
                    }
                }
                assert!(seen.iter().all(|&s| s));
                assert_eq!(EntryLayout::from_code(layout.code()), Some(layout));
            }
        }
        assert_eq!(EntryLayout::RoundMajor.index(3, 2, 17, 5), ((3 + 2) * 16 + 1) * 256 + 5);
        assert_eq!(EntryLayout::from_code(2), None);
    }
}
