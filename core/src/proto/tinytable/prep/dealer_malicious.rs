//! The trusted dealer's malicious-security material for the binary protocol (Fig. 3 with free
//! XOR): table shares committed bit by bit with `k`-bit lookup MACs, in the stored or the seeded
//! verification-string form ([`MaliciousPrep`]; the forms are described in
//! [`crate::proto::tinytable::circuit::malicious_prep`]).
//!
//! **Trust model:** as for the passive dealer ([`super::dealer`]), a third party sees every mask
//! and string; it must be honest and must not collude with either party.

use super::dealer::{SlicedMasks, TrustedDealer};
use crate::circuit::Circuit;
use crate::proto::tinytable::circuit::malicious_prep::{commit, output_positions, MaliciousPrep, TableKeys};
use crate::proto::tinytable::circuit::slice::{lane, lane_words};
use crate::proto::tinytable::error::TinyTableError;
use crate::proto::tinytable::mac::lookup::{key_blocks, MacWord, SeededKeys, KEY_CHUNK};
use crate::proto::tinytable::spec::IoSpec;
use rand_core::{CryptoRng, RngCore};

impl<R: RngCore + CryptoRng> TrustedDealer<R> {
    /// Malicious-security material (Fig. 3 with free XOR) for `instances` evaluations of
    /// `circuit`, with `k`-bit strings `M` and stored verification strings (the representation
    /// Fig. 8 produces; for speed against the seeded one see the module docs). Element `p` is
    /// party `p`'s.
    /// See the [`crate::proto::tinytable::circuit::malicious_prep`] module docs for the trust model.
    pub fn malicious_batch<M: MacWord>(
        &mut self,
        circuit: &Circuit,
        io: &IoSpec,
        instances: usize,
    ) -> Result<[MaliciousPrep<M>; 2], TinyTableError> {
        self.malicious_material(circuit, io, instances, false)
    }

    /// As [`Self::malicious_batch`], but each verifier gets a 16-byte seed instead of its stored
    /// strings (`mac::SeededKeys`): a third of the material (for k = 64), at the cost of
    /// one AES block per opened entry online (faster than stored at k = 64 with AES-NI, see the
    /// module docs).
    pub fn malicious_batch_seeded<M: MacWord>(
        &mut self,
        circuit: &Circuit,
        io: &IoSpec,
        instances: usize,
    ) -> Result<[MaliciousPrep<M>; 2], TinyTableError> {
        self.malicious_material(circuit, io, instances, true)
    }

    fn malicious_material<M: MacWord>(
        &mut self,
        circuit: &Circuit,
        io: &IoSpec,
        instances: usize,
        seeded: bool,
    ) -> Result<[MaliciousPrep<M>; 2], TinyTableError> {
        let rng = self.rng();
        let masks = SlicedMasks::sample(rng, circuit, io, instances)?;
        let (n, l, ands) = (instances, lane_words(instances), masks.and_gates);
        let tables = masks.table_shares(rng);
        let entry_bit = |p: usize, j: usize| {
            let (g, i, e) = (j / (4 * n), j / 4 % n, j % 4);
            lane(&tables[p][(4 * g + e) * l..], i)
        };
        let ((macs0, keys_for_1), (macs1, keys_for_0)) = if seeded {
            let (keys_for_1, keys_for_0) = (SeededKeys::random(rng), SeededKeys::random(rng));
            let macs0 = commit_seeded::<M>(&keys_for_1, 4 * ands * n, |j| entry_bit(0, j));
            let macs1 = commit_seeded::<M>(&keys_for_0, 4 * ands * n, |j| entry_bit(1, j));
            (
                (macs0, TableKeys::Seeded(Box::new(keys_for_1))),
                (macs1, TableKeys::Seeded(Box::new(keys_for_0))),
            )
        } else {
            let (macs0, keys_for_1) = commit::<M, _>(rng, 4 * ands * n, |j| entry_bit(0, j));
            let (macs1, keys_for_0) = commit::<M, _>(rng, 4 * ands * n, |j| entry_bit(1, j));
            ((macs0, TableKeys::Explicit(keys_for_1)), (macs1, TableKeys::Explicit(keys_for_0)))
        };

        let first_out = circuit.num_wires() - circuit.num_output_wires();
        let out_mask = masks.rows((first_out..circuit.num_wires()).collect());
        let share0: Vec<u64> = out_mask.iter().map(|_| rng.next_u64()).collect();
        let share1: Vec<u64> = out_mask.iter().zip(&share0).map(|(m, s)| m ^ s).collect();
        let shares = [share0, share1];
        let mut out_macs = [Vec::new(), Vec::new()];
        let mut out_keys = [Vec::new(), Vec::new()];
        for prover in 0..2 {
            let positions = output_positions(circuit, io, 1 - prover);
            let share = &shares[prover];
            let (macs, keys) =
                commit::<M, _>(rng, positions.len() * n, |j| lane(&share[positions[j / n] * l..], j % n));
            out_macs[prover] = macs;
            out_keys[1 - prover] = keys;
        }

        let [tables0, tables1] = tables;
        let [shares0, shares1] = shares;
        let [out_macs0, out_macs1] = out_macs;
        let [out_keys0, out_keys1] = out_keys;
        let make = |party, tables, own_macs, peer_keys, out_shares, out_macs, out_keys| MaliciousPrep {
            party,
            io: io.clone(),
            instances: n,
            and_gates: ands,
            tables,
            input_masks: masks.rows(io.owned_input_wires(circuit, party)),
            own_macs,
            peer_keys,
            out_shares,
            out_macs,
            out_keys,
        };
        Ok([
            make(0, tables0, macs0, keys_for_0, shares0, out_macs0, out_keys0),
            make(1, tables1, macs1, keys_for_1, shares1, out_macs1, out_keys1),
        ])
    }
}

/// A prover's own strings for `count` table bits (`bit(j)`) under seeded verification strings.
fn commit_seeded<M: MacWord>(keys: &SeededKeys, count: usize, bit: impl Fn(usize) -> bool) -> Vec<M> {
    let mut macs = Vec::with_capacity(count);
    let mut blocks = key_blocks();
    let mut entries = [0u64; KEY_CHUNK];
    for start in (0..count).step_by(KEY_CHUNK) {
        let len = KEY_CHUNK.min(count - start);
        for (t, e) in entries[..len].iter_mut().enumerate() {
            *e = (start + t) as u64;
        }
        keys.blocks(&entries[..len], &mut blocks);
        macs.extend(
            blocks[..len].iter().enumerate().map(|(t, b)| M::from_block(&b.to_le_bytes(), bit(start + t))),
        );
    }
    macs
}
