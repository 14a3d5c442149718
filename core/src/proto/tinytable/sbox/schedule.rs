//! An XOR-shared key on the S-box-table path: the AES-128 key schedule (FIPS-197 §5.2) computed
//! with 40 more authenticated S-box tables per block.
//!
//! TinyTable §5 lets one party input the *expanded* key (11 masked round keys), which needs no
//! tables but one key holder. When both parties hold an XOR share of the key, the round keys are a
//! non-linear function of both shares, so the schedule's 40 `SubWord` bytes (four per round) are
//! looked up in tables like the cipher's S-boxes (§2.3): every value of the schedule is a public
//! masked byte `x ⊕ m`, `RotWord`, the `Rcon` additions and the XORs of the expansion are applied
//! to the masked bytes by both parties (and to the masks, without the constants, by whoever makes
//! the material), and each `SubWord` byte is one lookup in a table with
//! `A[e] ⊕ B[e] = S(e ⊕ m_in) ⊕ m_out`. The expansion itself is [`crate::aes::KeyExpansion`],
//! run on masked bytes ([`Gf256`]), on masks ([`Unconstant`]) and on the §4 construction's
//! authenticated masks alike.
//!
//! Flow of a block: each party inputs its key share masked with its own input mask (the key's mask
//! is the XOR of both, known to nobody); ten schedule rounds open the four `SubWord` outputs of a
//! round (4 bytes per block and party); the resulting 11 masked round keys — for decryption
//! transformed into the equivalent inverse cipher's ([`direction_keys`], linear) — are exactly
//! what the key owner sends in the one-holder flow, so the cipher's rounds run unchanged after
//! them. The schedule uses the forward S-box in both directions.
//!
//! Authentication (malicious security, §3): every schedule entry carries a tag under the peer's
//! key, as the cipher's entries do ([`super::prep`]); the verifier's keys are the PRF at
//! [`SCHEDULE_INDEX`] `|` position (dealer) or stored ([`ScheduleTables::keys`], §4
//! construction). A party sends the batched hash (§3.3) of the tags of all schedule entries it
//! opened with its round-10 schedule message, and the peer checks it before the cipher's first
//! round ([`Step::KeyScheduleMacCheck`]): a changed schedule entry aborts before anything
//! depending on the key is opened. The key shares themselves are inputs (not authenticated;
//! changing one is input substitution), and unlike the one-holder flow the round keys are now
//! always the schedule of the key the two shares define.
//!
//! Cost per block: 40 tables (10 KiB of shares, 160 KiB with tags) of material; online 16 bytes
//! of masked key share per party in the input round, then 10 rounds of 4 bytes each way, and the
//! 16-byte hash once per batch. Rounds: the cipher's plus 10 (the schedule runs before the cipher,
//! which decryption needs anyway: its first round key is the schedule's last).
//!
//! Constant time: lookups index by public masked bytes; the verifier's `α·x` is read at the peer's
//! entry `x`, which the peer sent in the clear; hashes are compared by XOR-fold.

use super::prep::{entry_of, tag_of, MaliciousAesPrep, PeerKeys};
use super::tables::{ROUND_KEYS, TABLE_ENTRIES};
use crate::aes::linear::AesByte;
use crate::aes::{Direction, KeyExpansion, KeySize};
use crate::field::Gf256;
use crate::net::Network;
use crate::proto::tinytable::error::{Step, TinyTableError};
use crate::proto::tinytable::mac::batch_open::BatchHash;
use crate::proto::tinytable::mac::linear::{byte_multiples, tags_equal, BYTE_TAG_MASK};
use crate::proto::tinytable::msg::{recv, send};
use core::ops::{Add, AddAssign};

/// Key-schedule tables per AES-128 block: four `SubWord` bytes in each of 10 rounds.
pub const SCHEDULE_TABLES: usize = 40;
/// Entries of one block's key-schedule tables.
pub const SCHEDULE_ENTRIES_PER_BLOCK: usize = SCHEDULE_TABLES * TABLE_ENTRIES;
/// Index domain of the schedule entries' PRF keys (disjoint from the cipher's entries and from
/// the output masks' [`super::prep::OUTPUT_INDEX`]).
pub(crate) const SCHEDULE_INDEX: u64 = 1 << 62;

/// The position of entry `e` of schedule table `table` (`4 (round − 1) + byte`) of block `block`.
#[inline]
pub(crate) fn schedule_index(block: usize, table: usize, e: usize) -> usize {
    (SCHEDULE_TABLES * block + table) * TABLE_ENTRIES + e
}

/// A byte of the key expansion's *masks*: the expansion's public constants (`Rcon`) are added to
/// the masked values only, so on masks they vanish.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Unconstant<B>(pub(crate) B);

impl<B: AesByte> Add for Unconstant<B> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Unconstant(self.0 + o.0)
    }
}

impl<B: AesByte> AddAssign for Unconstant<B> {
    fn add_assign(&mut self, o: Self) {
        self.0 += o.0;
    }
}

impl<B: AesByte> AesByte for Unconstant<B> {
    fn xtime(self) -> Self {
        Unconstant(self.0.xtime())
    }
    fn add_public(self, _: u8) -> Self {
        self
    }
}

/// The masks of one block's key schedule from the key's mask and the 40 `SubWord` output masks:
/// the 10 rounds' `SubWord` input masks (already rotated) and the 11 forward round keys' masks.
pub(crate) fn schedule_masks<B: AesByte>(
    key_mask: [B; 16],
    out_masks: &[[B; 4]; 10],
) -> ([[B; 4]; 10], [[B; 16]; ROUND_KEYS]) {
    let mut expansion = KeyExpansion::new(KeySize::Aes128, &key_mask.map(Unconstant));
    let mut in_masks = Vec::with_capacity(10);
    for out in out_masks {
        let pending = expansion.pending_sub_word().expect("AES-128 has 10 SubWords");
        in_masks.push(pending.map(|b| b.0));
        expansion.supply_sub_word(out.map(Unconstant));
    }
    let keys = expansion.finish().expect("every SubWord was supplied");
    let in_masks = in_masks.try_into().unwrap_or_else(|_| unreachable!("10 SubWords"));
    (in_masks, core::array::from_fn(|r| keys.round(r).map(|b| b.0)))
}

/// The round keys `direction`'s rounds add, from the forward ones: the same for encryption; for
/// the equivalent inverse cipher (FIPS-197 §5.3.5) in reverse order with InvMixColumns on those of
/// rounds 1–9. Linear, so it maps keys, masked keys and masks alike.
pub(crate) fn direction_keys<B: AesByte>(
    direction: Direction,
    forward: &[[B; 16]; ROUND_KEYS],
) -> [[B; 16]; ROUND_KEYS] {
    match direction {
        Direction::Encrypt => *forward,
        Direction::Decrypt => core::array::from_fn(|r| {
            let mut k = forward[ROUND_KEYS - 1 - r];
            if r > 0 && r < ROUND_KEYS - 1 {
                crate::aes::linear::inv_mix_columns(&mut k);
            }
            k
        }),
    }
}

/// One party's key-schedule material for a batch (see the module docs).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct ScheduleTables {
    /// Own shares of the schedule tables with their tags ([`super::prep::pack_entry`]), at
    /// [`schedule_index`].
    pub(crate) entries: Vec<u128>,
    /// The verifier's keys for the peer's entries at the same positions, when stored (§4
    /// construction); empty with PRF keys ([`PeerKeys::Prf`], at [`SCHEDULE_INDEX`] `|` position).
    pub(crate) keys: Vec<u128>,
}

impl ScheduleTables {
    /// Whether the arrays hold `blocks` blocks, with stored keys iff `explicit`.
    pub(crate) fn holds(&self, blocks: usize, explicit: bool) -> bool {
        let n = blocks * SCHEDULE_ENTRIES_PER_BLOCK;
        self.entries.len() == n && self.keys.len() == if explicit { n } else { 0 }
    }

    /// A copy of blocks `start..start + len` (block-major positions; in range, checked by the
    /// caller).
    pub(crate) fn blocks_range(&self, start: usize, len: usize) -> ScheduleTables {
        let at = start * SCHEDULE_ENTRIES_PER_BLOCK..(start + len) * SCHEDULE_ENTRIES_PER_BLOCK;
        let keys = if self.keys.is_empty() { Vec::new() } else { self.keys[at.clone()].to_vec() };
        ScheduleTables { entries: self.entries[at].to_vec(), keys }
    }

    /// Appends `later`'s blocks.
    pub(crate) fn append(&mut self, later: ScheduleTables) {
        self.entries.extend(later.entries);
        self.keys.extend(later.keys);
    }
}

/// The verifier's keys `β` of the peer's schedule entries at `positions`.
fn peer_keys(peer_keys: &PeerKeys, schedule: &ScheduleTables, positions: &[usize]) -> Vec<u128> {
    match peer_keys {
        PeerKeys::Prf(prf) => {
            let indices: Vec<u64> = positions.iter().map(|&p| SCHEDULE_INDEX | p as u64).collect();
            let mut keys = vec![0u128; positions.len()];
            prf.eval(&indices, &mut keys);
            keys
        }
        PeerKeys::Explicit { .. } => positions.iter().map(|&p| schedule.keys[p]).collect(),
    }
}

/// Runs the ten schedule rounds on the masked keys of a batch (`masked_keys[i]`: block `i`'s key,
/// the XOR of both parties' masked shares) and returns the masked round keys of `prep`'s
/// direction, 176 bytes per block in the layout of the key owner's input message. Fails with
/// [`TinyTableError::AuthenticationFailed`] at [`Step::KeyScheduleMacCheck`] if the peer's
/// schedule entries do not verify.
pub(crate) async fn masked_round_keys<N: Network>(
    net: &mut N,
    prep: &MaliciousAesPrep,
    schedule: &ScheduleTables,
    masked_keys: &[[u8; 16]],
) -> Result<Vec<u8>, TinyTableError> {
    let party = net.party();
    let n = masked_keys.len();
    let backend = crate::field::clmul::Backend::detect();
    let multiples = byte_multiples(backend, prep.alpha);
    let mut expansions: Vec<KeyExpansion<Gf256>> =
        masked_keys.iter().map(|k| KeyExpansion::new(KeySize::Aes128, &k.map(Gf256))).collect();
    let (mut sent, mut expected) = (BatchHash::new(&prep.hash_key), BatchHash::new(&prep.hash_key));
    let mut positions = vec![0usize; 4 * n];
    for round in 1..ROUND_KEYS {
        let step = Step::KeyScheduleRound(round);
        for (block, expansion) in expansions.iter().enumerate() {
            let word = expansion.pending_sub_word().expect("AES-128 has 10 SubWords");
            for (t, e) in word.iter().enumerate() {
                positions[4 * block + t] = schedule_index(block, 4 * (round - 1) + t, usize::from(e.0));
            }
        }
        let words: Vec<u128> = positions.iter().map(|&p| schedule.entries[p]).collect();
        let mut msg: Vec<u8> = words.iter().map(|&w| entry_of(w)).collect();
        sent.absorb(&words.iter().map(|&w| tag_of(w)).collect::<Vec<_>>());
        let last = round == ROUND_KEYS - 1;
        if last {
            msg.extend(sent.digest());
        }
        send(net, step, msg.clone())?;
        let hash_bytes = if last { 16 } else { 0 };
        let theirs = recv(net, step, 4 * n + hash_bytes).await?;
        let keys = peer_keys(&prep.peer_keys, schedule, &positions);
        let tags: Vec<u128> =
            keys.iter().zip(&theirs).map(|(k, &x)| (k ^ multiples[usize::from(x)]) & BYTE_TAG_MASK).collect();
        expected.absorb(&tags);
        for (block, expansion) in expansions.iter_mut().enumerate() {
            let out = core::array::from_fn(|t| Gf256(msg[4 * block + t] ^ theirs[4 * block + t]));
            expansion.supply_sub_word(out);
        }
        if last {
            let received = u128::from_le_bytes(theirs[4 * n..].try_into().unwrap_or([0xff; 16]));
            if !tags_equal(u128::from_le_bytes(expected.digest()), received) {
                return Err(TinyTableError::AuthenticationFailed { party, step: Step::KeyScheduleMacCheck });
            }
        }
    }
    let mut key_msg = Vec::with_capacity(16 * ROUND_KEYS * n);
    for expansion in expansions {
        let keys = expansion.finish().expect("every SubWord was supplied");
        let forward: [[Gf256; 16]; ROUND_KEYS] = core::array::from_fn(|r| *keys.round(r));
        for key in direction_keys(prep.direction, &forward) {
            key_msg.extend(key.map(|b| b.0));
        }
    }
    Ok(key_msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::sbox::sbox;
    use crate::aes::{expand_key, fips197};
    use crate::proto::tinytable::sbox::direction;

    /// The expansion on masked bytes, minus the expansion on masks, is the plain key schedule; and
    /// the direction's keys match `direction::round_keys`.
    #[test]
    fn masked_expansion_minus_masks_is_the_schedule() {
        let key = fips197::KEY;
        let mask: [u8; 16] = core::array::from_fn(|j| (41 * j + 7) as u8);
        let outs: [[u8; 4]; 10] =
            core::array::from_fn(|r| core::array::from_fn(|t| (13 * r + 5 * t + 1) as u8));
        let (in_masks, key_masks) = schedule_masks(mask.map(Gf256), &outs.map(|o| o.map(Gf256)));
        // Masked run: SubWord of masked input e = x ⊕ m_in is S(x) ⊕ m_out.
        let mut expansion = KeyExpansion::new(
            KeySize::Aes128,
            &core::array::from_fn::<_, 16, _>(|j| Gf256(key[j] ^ mask[j])),
        );
        for r in 0..10 {
            let e = expansion.pending_sub_word().expect("pending");
            let out = core::array::from_fn(|t| Gf256(sbox(Gf256(e[t].0 ^ in_masks[r][t].0)).0 ^ outs[r][t]));
            expansion.supply_sub_word(out);
        }
        let masked = expansion.finish().expect("done");
        let plain = expand_key(KeySize::Aes128, &key.map(Gf256), |w| *w = w.map(sbox));
        for (r, key_mask) in key_masks.iter().enumerate() {
            let unmasked: [u8; 16] = core::array::from_fn(|j| masked.round(r)[j].0 ^ key_mask[j].0);
            assert_eq!(unmasked, plain.round(r).map(|b| b.0), "round key {r}");
        }
        for d in [Direction::Encrypt, Direction::Decrypt] {
            let forward: [[Gf256; 16]; ROUND_KEYS] = core::array::from_fn(|r| *plain.round(r));
            let keys = direction_keys(d, &forward).map(|k| k.map(|b| b.0));
            assert_eq!(keys, direction::round_keys(d, &key), "{d:?}");
        }
    }
}
