//! Bit-sliced batch layout shared by the passive and malicious online phases.
//!
//! A batch of `n` instances is processed in `L = ceil(n / 64)` 64-bit words per wire: bit `j` of
//! word `l` of a wire is that wire's masked value in instance `64·l + j`. A table lookup
//! `T[e_u, e_v]` for 64 instances is then three bitwise selects on the four entry words (no
//! per-instance branch or index), and every message of a step is the packed bits of `n` instances
//! per gate, gate after gate (`ceil(gates · n / 8)` bytes, the same count as a per-instance
//! encoding).
//!
//! [`SlicedPrep`] is the passive material of a whole batch in this layout: entry `e = 2c + d` of
//! AND table `g` for instance word `l` is word `(4g + e)·L + l`.

use super::prep::BinaryPrep;
use crate::circuit::Circuit;
use crate::net::PartyId;
use crate::ot::transpose::transpose64;
use crate::proto::tinytable::error::TinyTableError;
use crate::proto::tinytable::spec::IoSpec;

/// The outputs of one instance for one party: per output value, its bits if revealed to the party.
pub type Outputs = Vec<Option<Vec<bool>>>;

/// Number of 64-lane words for `n` instances.
pub(crate) fn lane_words(n: usize) -> usize {
    n.div_ceil(64)
}

/// Writes the table shares of `preps` (`ands` gates each, two 4-bit tables a byte) in the sliced
/// layout: bit `i mod 64` of word `(4g + e)·l + i/64` is entry `e` of table `g` of instance `i`.
///
/// Bit `c` of a 64-bit little-endian chunk `q` of an instance's packed tables is entry `c mod 4`
/// of gate `16q + c/4`, i.e. sliced row `64q + c`; so 64 instances' chunk `q` is a 64×64 bit
/// matrix whose transpose is rows `64q ..` of one lane word — one [`transpose64`] per 64
/// instances and 16 gates instead of a shift per bit.
fn slice_tables(preps: &[BinaryPrep], ands: usize, l: usize, tables: &mut [u64]) {
    let rows = 4 * ands;
    let mut m = [0u64; 64];
    for (word, group) in preps.chunks(64).enumerate() {
        for q in 0..rows.div_ceil(64) {
            m.fill(0);
            for (i, prep) in group.iter().enumerate() {
                let bytes = prep.tables.get(8 * q..).unwrap_or(&[]);
                let mut chunk = [0u8; 8];
                let take = bytes.len().min(8);
                chunk[..take].copy_from_slice(&bytes[..take]);
                m[i] = u64::from_le_bytes(chunk);
            }
            transpose64(&mut m);
            for (c, &row) in m.iter().enumerate().take(rows - 64 * q) {
                tables[(64 * q + c) * l + word] = row;
            }
        }
    }
}

/// `if sel { one } else { zero }` lane-wise.
#[inline(always)]
pub(crate) fn select(sel: u64, one: u64, zero: u64) -> u64 {
    zero ^ (sel & (one ^ zero))
}

/// Table lookup for 64 lanes: entry `2c + d` of the four entry words `t`.
#[inline(always)]
pub(crate) fn lookup(t: &[u64], c: u64, d: u64) -> u64 {
    select(c, select(d, t[3], t[2]), select(d, t[1], t[0]))
}

/// Packs `groups` groups of `n` lanes (group `g` in words `g·L .. (g+1)·L`) into `groups · n`
/// bits, group after group.
pub(crate) fn pack(words: &[u64], groups: usize, n: usize) -> Vec<u8> {
    let l = lane_words(n);
    if n.is_multiple_of(64) {
        return words[..groups * l].iter().flat_map(|w| w.to_le_bytes()).collect();
    }
    let mut out = vec![0u8; (groups * n).div_ceil(8)];
    for g in 0..groups {
        for i in 0..n {
            let bit = words[g * l + i / 64] >> (i % 64) & 1;
            let pos = g * n + i;
            out[pos / 8] |= (bit as u8) << (pos % 8);
        }
    }
    out
}

/// Inverse of [`pack`]: writes group `g` to `out[g·L ..]` (lanes past `n` are zero). The caller
/// checked `bytes.len() == ceil(groups · n / 8)`.
pub(crate) fn unpack(bytes: &[u8], groups: usize, n: usize, out: &mut [u64]) {
    let l = lane_words(n);
    if n.is_multiple_of(64) {
        for (w, chunk) in out[..groups * l].iter_mut().zip(bytes.chunks_exact(8)) {
            let mut raw = [0u8; 8];
            raw.copy_from_slice(chunk);
            *w = u64::from_le_bytes(raw);
        }
        return;
    }
    out[..groups * l].fill(0);
    for g in 0..groups {
        for i in 0..n {
            let pos = g * n + i;
            out[g * l + i / 64] |= u64::from(bytes[pos / 8] >> (pos % 8) & 1) << (i % 64);
        }
    }
}

/// Bit `i` of lane-word row `row` (`L` words).
#[inline(always)]
pub(crate) fn lane(row: &[u64], i: usize) -> bool {
    row[i / 64] >> (i % 64) & 1 == 1
}

/// Passive (Fig. 6) material of a batch of `n` instances in the bit-sliced layout; built from
/// per-instance [`BinaryPrep`]s ([`SlicedPrep::from_instances`]) or directly by
/// [`super::TrustedDealer::sliced_batch`].
#[derive(Clone, PartialEq, Eq)]
pub struct SlicedPrep {
    pub(crate) party: PartyId,
    pub(crate) io: IoSpec,
    pub(crate) instances: usize,
    pub(crate) and_gates: usize,
    /// Table shares: word `(4g + e)·L + l`.
    pub(crate) tables: Vec<u64>,
    /// Masks of owned input wires (owned-wire order): word `k·L + l`.
    pub(crate) input_masks: Vec<u64>,
    /// Masks of output wires revealed to this party (wire order): word `k·L + l`.
    pub(crate) output_masks: Vec<u64>,
}

impl core::fmt::Debug for SlicedPrep {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SlicedPrep")
            .field("party", &self.party)
            .field("instances", &self.instances)
            .field("and_gates", &self.and_gates)
            .finish()
    }
}

impl SlicedPrep {
    /// Transposes per-instance material (all for the same party and [`IoSpec`]) into one batch.
    pub fn from_instances(circuit: &Circuit, preps: &[BinaryPrep]) -> Result<SlicedPrep, TinyTableError> {
        let Some(first) = preps.first() else {
            return Err(TinyTableError::PrepMismatch { party: 0, reason: "empty batch".into() });
        };
        let party = first.party;
        for prep in preps {
            prep.check(circuit, party)?;
            if prep.io != first.io {
                return Err(TinyTableError::PrepMismatch {
                    party,
                    reason: "instances differ in their IoSpec".into(),
                });
            }
        }
        let (n, l, ands) = (preps.len(), lane_words(preps.len()), first.and_gates);
        let mut tables = vec![0u64; 4 * ands * l];
        slice_tables(preps, ands, l, &mut tables);
        let mut input_masks = vec![0u64; first.input_masks.len() * l];
        let mut output_masks = vec![0u64; first.output_masks.len() * l];
        for (i, prep) in preps.iter().enumerate() {
            let (word, shift) = (i / 64, i % 64);
            for (k, &m) in prep.input_masks.iter().enumerate() {
                input_masks[k * l + word] |= u64::from(m) << shift;
            }
            for (k, &m) in prep.output_masks.iter().enumerate() {
                output_masks[k * l + word] |= u64::from(m) << shift;
            }
        }
        Ok(SlicedPrep {
            party,
            io: first.io.clone(),
            instances: n,
            and_gates: ands,
            tables,
            input_masks,
            output_masks,
        })
    }

    /// The party this material belongs to.
    pub fn party(&self) -> PartyId {
        self.party
    }

    /// Number of instances in the batch.
    pub fn instances(&self) -> usize {
        self.instances
    }

    /// The input/output specification the material was made for.
    pub fn io(&self) -> &IoSpec {
        &self.io
    }

    /// Bits of table shares per instance: 4 per AND gate (Table 1, "Passive").
    pub fn table_bits_per_instance(&self) -> usize {
        4 * self.and_gates
    }

    /// Checks the material fits `circuit`, `party` and a batch of `n` instances.
    pub(crate) fn check(&self, circuit: &Circuit, party: PartyId, n: usize) -> Result<(), TinyTableError> {
        check_shape(
            party,
            circuit,
            Shape {
                party: self.party,
                io: &self.io,
                instances: self.instances,
                and_gates: self.and_gates,
                tables: self.tables.len(),
                input_masks: self.input_masks.len(),
            },
            n,
        )?;
        let revealed = self.io.revealed_output_wires(circuit, party).len();
        if self.output_masks.len() != revealed * lane_words(n) {
            return Err(TinyTableError::PrepMismatch {
                party,
                reason: "output mask count differs from revealed output wires".into(),
            });
        }
        Ok(())
    }
}

/// The parts of batch material checked the same way for passive and malicious material.
pub(crate) struct Shape<'a> {
    pub(crate) party: PartyId,
    pub(crate) io: &'a IoSpec,
    pub(crate) instances: usize,
    pub(crate) and_gates: usize,
    pub(crate) tables: usize,
    pub(crate) input_masks: usize,
}

pub(crate) fn check_shape(
    party: PartyId,
    circuit: &Circuit,
    shape: Shape<'_>,
    n: usize,
) -> Result<(), TinyTableError> {
    let mismatch = |reason: String| Err(TinyTableError::PrepMismatch { party, reason });
    if shape.party != party {
        return mismatch(format!("material is for party {}", shape.party));
    }
    shape.io.check(circuit)?;
    if shape.instances != n {
        return mismatch(format!("material for {} instances, {n} input sets", shape.instances));
    }
    let (ands, l) = (circuit.gate_counts().and, lane_words(n));
    if shape.and_gates != ands || shape.tables != 4 * ands * l {
        return mismatch(format!("{} AND tables for a circuit with {ands} AND gates", shape.and_gates));
    }
    if shape.input_masks != shape.io.owned_input_wires(circuit, party).len() * l {
        return mismatch("input mask count differs from owned input wires".into());
    }
    Ok(())
}

/// This party's input bits of all instances, sliced per owned input wire (word `k·L + l`), after
/// checking every instance's values against the circuit's widths.
pub(crate) fn slice_inputs(
    circuit: &Circuit,
    io: &IoSpec,
    party: PartyId,
    inputs: &[Vec<Vec<bool>>],
    n: usize,
) -> Result<Vec<u64>, TinyTableError> {
    if inputs.len() != n {
        return Err(TinyTableError::BadInput {
            party,
            instance: inputs.len().min(n),
            reason: format!("{} input sets for {n} instances", inputs.len()),
        });
    }
    let owned: Vec<usize> = (0..io.input_owners.len()).filter(|&v| io.input_owners[v] == party).collect();
    let wires: usize = owned.iter().map(|&v| circuit.input_widths()[v] as usize).sum();
    let l = lane_words(n);
    let mut out = vec![0u64; wires * l];
    for (instance, values) in inputs.iter().enumerate() {
        if values.len() != owned.len() {
            return Err(TinyTableError::BadInput {
                party,
                instance,
                reason: format!("{} input values supplied, party owns {}", values.len(), owned.len()),
            });
        }
        let mut k = 0;
        for (&value, supplied) in owned.iter().zip(values) {
            let width = circuit.input_widths()[value] as usize;
            if supplied.len() != width {
                return Err(TinyTableError::BadInput {
                    party,
                    instance,
                    reason: format!("input value {value} has {} bits, expected {width}", supplied.len()),
                });
            }
            for &bit in supplied {
                out[k * l + instance / 64] |= u64::from(bit) << (instance % 64);
                k += 1;
            }
        }
    }
    Ok(out)
}

/// Per instance, per output value: `Some(bits)` if revealed to `party`. `clear` holds the revealed
/// output wires' values (wire order), word `k·L + l`.
pub(crate) fn unslice_outputs(
    circuit: &Circuit,
    io: &IoSpec,
    party: PartyId,
    clear: &[u64],
    n: usize,
) -> Vec<Outputs> {
    let l = lane_words(n);
    (0..n)
        .map(|instance| {
            let mut k = 0;
            (0..circuit.output_widths().len())
                .map(|value| {
                    let width = circuit.output_widths()[value] as usize;
                    io.reveal[value].includes(party).then(|| {
                        let bits = (k..k + width).map(|j| lane(&clear[j * l..], instance)).collect();
                        k += width;
                        bits
                    })
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    #[test]
    fn pack_and_unpack_round_trip_and_match_bit_order() {
        let mut rng = ChaCha20Rng::seed_from_u64(8);
        for n in [1usize, 7, 63, 64, 65, 128, 200] {
            let (groups, l) = (5, lane_words(n));
            let mut words: Vec<u64> = (0..groups * l).map(|_| rng.next_u64()).collect();
            if n % 64 != 0 {
                for g in 0..groups {
                    words[g * l + l - 1] &= (1u64 << (n % 64)) - 1;
                }
            }
            let bytes = pack(&words, groups, n);
            assert_eq!(bytes.len(), (groups * n).div_ceil(8), "n = {n}");
            for g in 0..groups {
                for i in 0..n {
                    let pos = g * n + i;
                    assert_eq!(bytes[pos / 8] >> (pos % 8) & 1 == 1, lane(&words[g * l..], i));
                }
            }
            let mut back = vec![0u64; groups * l];
            unpack(&bytes, groups, n, &mut back);
            assert_eq!(back, words, "n = {n}");
        }
    }

    #[test]
    fn lookup_selects_the_entry_of_each_lane() {
        let t = [0x1111u64, 0x2222, 0x4444, 0x8888];
        for e in 0..4u64 {
            let c = 0u64.wrapping_sub(e >> 1);
            let d = 0u64.wrapping_sub(e & 1);
            assert_eq!(lookup(&t, c, d), t[e as usize]);
        }
        // Lanes 0..4 take entries 0, 1, 2, 3; higher lanes (c = d = 0) take entry 0.
        let want = (0x1111 & !0xf) | (0x1111 & 1) | (0x2222 & 2) | (0x4444 & 4) | (0x8888 & 8);
        assert_eq!(lookup(&t, 0b1100, 0b1010), want);
    }
}
