//! The parts of an [`AesTablePrep`] (accessors and [`AesTablePrep::from_parts`]), so a dealer in
//! another process can ship a party its material (`crate::jobs::tinytable::prep_codec`).

use super::{
    check_roles, deriving_party, stored_round, AesTablePrep, PartyId, Reveal, TableShares, TinyTableError,
    ROUND_KEYS, TABLE_BYTES_PER_BLOCK, TABLE_ENTRIES,
};
use crate::aes::Direction;
use std::borrow::Cow;

/// Serialization support: the parts of [`AesTablePrep`], so a dealer in another process can ship
/// a party its material (`crate::jobs::tinytable::prep_codec`).
impl AesTablePrep {
    /// The cipher the material is made for.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The party that inputs the key (as 11 masked round keys).
    pub fn key_owner(&self) -> PartyId {
        self.key_owner
    }

    /// Who learns the ciphertext.
    pub fn reveal(&self) -> Reveal {
        self.reveal
    }

    /// This party's table shares, all 160 (table `16 (round − 1) + byte` at
    /// `TABLE_ENTRIES · index`); seed-derived tables are computed from the seed.
    pub fn tables(&self) -> Cow<'_, [u8]> {
        match &self.tables {
            TableShares::Full(t) => Cow::Borrowed(t),
            TableShares::Split { slab, block, blocks, seed } => {
                let mut all = vec![0u8; TABLE_BYTES_PER_BLOCK];
                for (t, dst) in all.chunks_exact_mut(TABLE_ENTRIES).enumerate() {
                    if deriving_party(t) == self.party {
                        dst.copy_from_slice(&seed.table(t));
                    } else {
                        let round = stored_round(slab, *block, *blocks, t / 16 + 1);
                        dst.copy_from_slice(&round[TABLE_ENTRIES * (t % 16 / 2)..][..TABLE_ENTRIES]);
                    }
                }
                Cow::Owned(all)
            }
        }
    }

    /// The 11 round-key masks (key owner only).
    pub fn round_key_masks(&self) -> Option<&[[u8; 16]]> {
        self.round_key_masks.as_deref()
    }

    /// The plaintext mask (the party that is not the key owner).
    pub fn plaintext_mask(&self) -> Option<&[u8; 16]> {
        self.plaintext_mask.as_ref()
    }

    /// The output mask (parties the ciphertext is revealed to).
    pub fn output_mask(&self) -> Option<&[u8; 16]> {
        self.output_mask.as_ref()
    }

    /// Material from its parts (inverse of the accessors); checks that the roles name parties 0
    /// and 1, the table size, and that the masks present fit `party`'s roles.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        party: PartyId,
        direction: Direction,
        key_owner: PartyId,
        reveal: Reveal,
        tables: Vec<u8>,
        round_key_masks: Option<Vec<[u8; 16]>>,
        plaintext_mask: Option<[u8; 16]>,
        output_mask: Option<[u8; 16]>,
    ) -> Result<Self, TinyTableError> {
        check_roles(key_owner, reveal)?;
        let owner = party == key_owner;
        let fits = party <= 1
            && tables.len() == TABLE_BYTES_PER_BLOCK
            && round_key_masks.as_ref().map(Vec::len) == owner.then_some(ROUND_KEYS)
            && plaintext_mask.is_some() != owner
            && output_mask.is_some() == reveal.includes(party);
        if !fits {
            return Err(TinyTableError::PrepMismatch {
                party,
                reason: "AES table parts do not fit the party, its roles or the table size".into(),
            });
        }
        let tables = TableShares::Full(tables);
        Ok(AesTablePrep {
            party,
            direction,
            key_owner,
            reveal,
            tables,
            round_key_masks,
            plaintext_mask,
            output_mask,
        })
    }
}
