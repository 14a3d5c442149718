//! AES-128 with 8-bit S-box tables (§2.3; the "optimized version" of §5): semi-honest, trusted
//! dealer.
//!
//! Every state byte carries a masked value `e = x ⊕ m` known to both parties. AddRoundKey,
//! ShiftRows and MixColumns are GF(2)-linear, so the parties apply them to the masked bytes and
//! the dealer applies them to the masks: they are local. Each SubBytes byte is a 256-entry table of
//! bytes, XOR-shared between the parties, with `A[e] ⊕ B[e] = S(e ⊕ m_in) ⊕ m_out`; the parties
//! exchange their entries at the public index `e` and XOR them.
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
//! `16 n` bytes each way; the output is `e ⊕ m_out` locally (no output round). Rounds = 1 + 10.
//!
//! Constant time: the online lookups index by public masked bytes. The dealer builds each table by
//! indexing the S-box with `e ⊕ m_in` for all 256 `e` (an access pattern that depends on the mask;
//! the dealer is trusted and runs apart from the parties).

use super::error::{Step, TinyTableError};
use super::msg::{check_two_parties, recv, send};
use super::prep::{Reveal, TrustedDealer};
use crate::aes::linear::{add_round_key, mix_columns, shift_rows};
use crate::aes::sbox::{sbox, sbox_table};
use crate::aes::{expand_key, Block, KeySize};
use crate::field::Gf256;
use crate::net::{Network, PartyId};
use rand_core::{CryptoRng, RngCore};

/// S-box tables per AES-128 block (16 per round, 10 rounds; key schedule local to the key owner).
pub const TABLES_PER_BLOCK: usize = 160;
/// Entries per table (one per masked input byte).
pub const TABLE_ENTRIES: usize = 256;
const ROUND_KEYS: usize = 11;

/// One party's preprocessed material for one AES-128 block with S-box tables.
#[derive(Clone, PartialEq, Eq)]
pub struct AesTablePrep {
    party: PartyId,
    key_owner: PartyId,
    reveal: Reveal,
    /// Table `16 (round − 1) + byte` at `TABLE_ENTRIES · index`.
    tables: Vec<u8>,
    round_key_masks: Option<Vec<[u8; 16]>>,
    plaintext_mask: Option<[u8; 16]>,
    output_mask: Option<[u8; 16]>,
}

impl core::fmt::Debug for AesTablePrep {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Masks and table shares are secret: never print them.
        f.debug_struct("AesTablePrep")
            .field("party", &self.party)
            .field("key_owner", &self.key_owner)
            .finish()
    }
}

impl AesTablePrep {
    /// The party this material belongs to.
    pub fn party(&self) -> PartyId {
        self.party
    }

    /// Bytes of table shares held by this party ([`TABLES_PER_BLOCK`] × [`TABLE_ENTRIES`]).
    pub fn table_bytes(&self) -> usize {
        self.tables.len()
    }

    fn table_entry(&self, index: usize, e: u8) -> u8 {
        self.tables[TABLE_ENTRIES * index + usize::from(e)]
    }
}

fn to_gf(bytes: &[u8; 16]) -> [Gf256; 16] {
    bytes.map(Gf256)
}

fn from_gf(state: &[Gf256; 16]) -> [u8; 16] {
    state.map(|b| b.0)
}

fn random_block<R: RngCore>(rng: &mut R) -> [u8; 16] {
    let mut b = [0u8; 16];
    rng.fill_bytes(&mut b);
    b
}

impl<R: RngCore + CryptoRng> TrustedDealer<R> {
    /// Material for one AES-128 block with S-box tables: party `key_owner` inputs the key, the
    /// other party the plaintext, and the ciphertext goes to `reveal`. Trusted-dealer trust model
    /// (see [`super::prep`]).
    pub fn aes_tables(
        &mut self,
        key_owner: PartyId,
        reveal: Reveal,
    ) -> Result<[AesTablePrep; 2], TinyTableError> {
        if key_owner > 1 || matches!(reveal, Reveal::To(p) if p > 1) {
            return Err(TinyTableError::BadIoSpec(format!(
                "key owner {key_owner} / {reveal:?} outside parties 0, 1"
            )));
        }
        let rng = self.rng();
        let sbox = sbox_table();
        let key_masks: Vec<[u8; 16]> = (0..ROUND_KEYS).map(|_| random_block(rng)).collect();
        let plaintext_mask = random_block(rng);
        let mut mask = to_gf(&plaintext_mask);
        add_round_key(&mut mask, &to_gf(&key_masks[0]));
        let mut tables =
            [vec![0u8; TABLES_PER_BLOCK * TABLE_ENTRIES], vec![0u8; TABLES_PER_BLOCK * TABLE_ENTRIES]];
        rng.fill_bytes(&mut tables[0]);
        for (round, key_mask) in key_masks.iter().enumerate().skip(1) {
            let out_mask = random_block(rng);
            for byte in 0..16 {
                let base = TABLE_ENTRIES * (16 * (round - 1) + byte);
                for e in 0..TABLE_ENTRIES {
                    let entry = sbox[e ^ usize::from(mask[byte].0)] ^ out_mask[byte];
                    tables[1][base + e] = tables[0][base + e] ^ entry;
                }
            }
            mask = to_gf(&out_mask);
            shift_rows(&mut mask);
            if round < ROUND_KEYS - 1 {
                mix_columns(&mut mask);
            }
            add_round_key(&mut mask, &to_gf(key_mask));
        }
        let output_mask = from_gf(&mask);
        let [tables_0, tables_1] = tables;
        let make = |party: PartyId, tables: Vec<u8>| AesTablePrep {
            party,
            key_owner,
            reveal,
            tables,
            round_key_masks: (party == key_owner).then(|| key_masks.clone()),
            plaintext_mask: (party != key_owner).then_some(plaintext_mask),
            output_mask: reveal.includes(party).then_some(output_mask),
        };
        Ok([make(0, tables_0), make(1, tables_1)])
    }

    /// Material for `blocks` independent blocks (see [`Self::aes_tables`]).
    pub fn aes_tables_batch(
        &mut self,
        key_owner: PartyId,
        reveal: Reveal,
        blocks: usize,
    ) -> Result<[Vec<AesTablePrep>; 2], TinyTableError> {
        let mut out = [Vec::with_capacity(blocks), Vec::with_capacity(blocks)];
        for _ in 0..blocks {
            let [a, b] = self.aes_tables(key_owner, reveal)?;
            out[0].push(a);
            out[1].push(b);
        }
        Ok(out)
    }
}

/// Encrypts `preps.len()` blocks at once. `inputs[i]` is this party's input of block `i`: the
/// AES-128 key if it is the key owner, else the plaintext block. Returns, per block, the
/// ciphertext if it is revealed to this party.
pub async fn encrypt_batch<N: Network>(
    net: &mut N,
    preps: &[AesTablePrep],
    inputs: &[Block],
) -> Result<Vec<Option<Block>>, TinyTableError> {
    check_two_parties(net)?;
    let party = net.party();
    let Some(first) = preps.first() else { return Ok(Vec::new()) };
    for prep in preps {
        let consistent = prep.party == party
            && prep.key_owner == first.key_owner
            && prep.reveal == first.reveal
            && prep.tables.len() == TABLES_PER_BLOCK * TABLE_ENTRIES;
        if !consistent {
            return Err(TinyTableError::PrepMismatch {
                party,
                reason: "AES table material is for another party, role, reveal set or size".into(),
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
    let key_owner = first.key_owner == party;
    let missing =
        || TinyTableError::PrepMismatch { party, reason: "input masks missing for this role".into() };

    // Masked inputs: 11 round keys from the key owner, the plaintext from the other party.
    let mut my_msg = Vec::with_capacity(n * if key_owner { 16 * ROUND_KEYS } else { 16 });
    for (prep, input) in preps.iter().zip(inputs) {
        if key_owner {
            let key = input.map(Gf256);
            let round_keys = expand_key(KeySize::Aes128, &key, |word| *word = word.map(sbox));
            let masks = prep.round_key_masks.as_ref().ok_or_else(missing)?;
            for (rk, m) in round_keys.as_slice().iter().zip(masks) {
                my_msg.extend(rk.iter().zip(m).map(|(k, m)| k.0 ^ m));
            }
        } else {
            let m = prep.plaintext_mask.ok_or_else(missing)?;
            my_msg.extend(input.iter().zip(&m).map(|(x, m)| x ^ m));
        }
    }
    send(net, Step::Input, my_msg.clone())?;
    let their_len = if key_owner { 16 } else { 16 * ROUND_KEYS };
    let their_msg = recv(net, Step::Input, n * their_len).await?;
    let (key_msg, pt_msg) = if key_owner { (&my_msg, &their_msg) } else { (&their_msg, &my_msg) };
    let key_len = 16 * ROUND_KEYS;
    let round_key = |i: usize, r: usize| -> [Gf256; 16] {
        core::array::from_fn(|j| Gf256(key_msg[i * key_len + 16 * r + j]))
    };
    let mut states: Vec<[Gf256; 16]> = (0..n)
        .map(|i| {
            let mut s: [Gf256; 16] = core::array::from_fn(|j| Gf256(pt_msg[16 * i + j]));
            add_round_key(&mut s, &round_key(i, 0));
            s
        })
        .collect();

    for round in 1..ROUND_KEYS {
        let step = Step::SboxRound(round);
        let mine: Vec<u8> = states
            .iter()
            .zip(preps)
            .flat_map(|(s, prep)| (0..16).map(move |j| prep.table_entry(16 * (round - 1) + j, s[j].0)))
            .collect();
        send(net, step, mine.clone())?;
        let theirs = recv(net, step, 16 * n).await?;
        for (i, state) in states.iter_mut().enumerate() {
            *state = core::array::from_fn(|j| Gf256(mine[16 * i + j] ^ theirs[16 * i + j]));
            shift_rows(state);
            if round < ROUND_KEYS - 1 {
                mix_columns(state);
            }
            add_round_key(state, &round_key(i, round));
        }
    }
    Ok(states
        .iter()
        .zip(preps)
        .map(|(s, prep)| prep.output_mask.map(|m| core::array::from_fn(|j| s[j].0 ^ m[j])))
        .collect())
}

/// Encrypts one block; see [`encrypt_batch`].
pub async fn encrypt<N: Network>(
    net: &mut N,
    prep: &AesTablePrep,
    input: &Block,
) -> Result<Option<Block>, TinyTableError> {
    let mut out = encrypt_batch(net, core::slice::from_ref(prep), core::slice::from_ref(input)).await?;
    Ok(out.pop().flatten())
}
