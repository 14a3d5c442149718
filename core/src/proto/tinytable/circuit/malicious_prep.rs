//! Malicious-security material (Fig. 3 with free XOR, Fig. 6) for a batch of instances, and the
//! trusted-dealer provider of it.
//!
//! On top of the passive material each party holds, per AND gate, instance and table entry
//! `(c, d)` (Fig. 3 step 2–3):
//! - as prover, its own authentication string `a^{A[c,d]}` for its table bit (k bits);
//! - as verifier, both verification strings `b^0, b^1` of the peer's table bit (2k bits), in one
//!   of two representations (`TableKeys`):
//!   - **explicit** (stored, 2k bits per entry): what [`crate::proto::tinytable::prep::fig8`] produces (the strings are `F`
//!     of TinyOT keys and cannot be re-derived from a short seed) and what
//!     [`super::TrustedDealer::malicious_batch`] produces;
//!   - **seeded** (16 bytes per batch): what [`super::TrustedDealer::malicious_batch_seeded`]
//!     produces; the strings are AES-128 of the entry index under a secret seed
//!     (`mac::SeededKeys`), so the online verifier reads no key material and computes
//!     only the strings of opened entries (one AES block each).
//!
//! Which is faster online depends on the machine. The accumulation loop (`opened_macs`) streams,
//! per gate and instance, the 4 own strings and, if stored, the 8 verification strings (96 bytes
//! for k = 64), and reads one of each: the stored form is bound by the memory stream. The seeded
//! form trades those verification strings for one AES-128 block per opened entry, run by a fused
//! AES-NI loop where the CPU has it. [`crate::proto::tinytable::TrustedDealer::malicious_batch`]
//! keeps the explicit representation (the one [`crate::proto::tinytable::prep::fig8`] produces);
//! `crate::jobs::tinytable::SEEDED_VERIFIER_KEYS` is where the jobs choose the seeded form
//! (measurements in `docs/performance.md`).
//!
//! Sizes per party and instance (table bits and strings; masks excluded as in the paper):
//! - prover part: `4 · ANDs · (1 + k)` bits ([`MaliciousPrep::prover_bits_per_instance`]);
//! - verifier part: explicit `4 · ANDs · 2k` bits, seeded 128 bits per *batch*
//!   ([`MaliciousPrep::verifier_bits_per_instance`]).
//!
//! With explicit strings the total is Table 1's "Lookup-k" binary column, `4 · ANDs · (1 + 3k)`
//! bits (5440 ANDs: 512.7 KiB for k = 64, 257.7 KiB for k = 32); the dealer's seeded material
//! stores `4 · ANDs · (1 + k)` bits plus the seed (for our 6400-AND AES-128 circuit: 203.1 KiB for
//! k = 64, 103.1 KiB for k = 32, against 603.1 / 303.1 KiB explicit); see
//! [`MaliciousPrep::table_bits_per_instance`].
//!
//! Output masks are not handed out in the clear (as Fig. 6 step 3 does for the passive protocol):
//! a party that knows `r_o` learns its output as soon as the last layer is opened, before the MAC
//! check, so a cheater could learn the output of a tampered computation and abort afterwards. As in
//! Fig. 5, where output-gate openings wait until after the check, each output mask is XOR-shared
//! and each share committed with the same lookup MAC scheme; the shares are opened to the
//! recipients only after the table check passed (see [`crate::proto::tinytable::circuit::malicious`]). Their verification
//! strings are always explicit (a few per instance).
//!
//! **Trust model of [`super::TrustedDealer::malicious_batch`] and
//! [`super::TrustedDealer::malicious_batch_seeded`]:** as for the passive dealer, a third
//! party that sees everything (including both verifiers' seeds) must be honest and must not
//! collude. [`crate::proto::tinytable::prep::fig8`] produces the same material, with explicit verification strings, in a
//! two-party protocol instead.

use crate::circuit::Circuit;
use crate::net::PartyId;
use crate::proto::tinytable::circuit::slice::{check_shape, lane_words, Shape};
use crate::proto::tinytable::error::TinyTableError;
use crate::proto::tinytable::mac::lookup::{MacWord, SeededKeys};
use crate::proto::tinytable::spec::IoSpec;
use rand_core::RngCore;

/// One party's malicious-security material for `instances` evaluations of one circuit, bit-sliced
/// like [`super::SlicedPrep`], with `k`-bit authentication strings `M` (k = 64: [`u64`], k = 32:
/// [`u32`]).
#[derive(Clone, PartialEq, Eq)]
pub struct MaliciousPrep<M> {
    pub(crate) party: PartyId,
    pub(crate) io: IoSpec,
    pub(crate) instances: usize,
    pub(crate) and_gates: usize,
    /// Table shares: word `(4g + e)·L + l`.
    pub(crate) tables: Vec<u64>,
    /// Masks of owned input wires: word `k·L + l`.
    pub(crate) input_masks: Vec<u64>,
    /// This party's own strings: `(g·n + i)·4 + e`.
    pub(crate) own_macs: Vec<M>,
    /// Verification strings for the peer's entries (entry `(g·n + i)·4 + e`).
    pub(crate) peer_keys: TableKeys<M>,
    /// This party's share of every output wire's mask (output position `k`): word `k·L + l`.
    pub(crate) out_shares: Vec<u64>,
    /// Own strings of the output shares revealed to the peer (peer-revealed position `k`):
    /// `k·n + i`.
    pub(crate) out_macs: Vec<M>,
    /// Verification strings of the peer's output shares revealed to this party: `(k·n + i)·2 + bit`.
    pub(crate) out_keys: Vec<M>,
}

/// A verifier's strings for the peer's table entries (see the module docs for who uses which).
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum TableKeys<M> {
    /// Derived from a secret seed (trusted dealer): nothing stored per entry.
    Seeded(Box<SeededKeys>),
    /// Stored: entry `j`'s strings at `2j + bit` ([`crate::proto::tinytable::prep::fig8`]).
    Explicit(Vec<M>),
}

impl<M: MacWord> TableKeys<M> {
    /// The string of entry `entry` for bit `bit`; `entry` must be in range.
    #[cfg(test)]
    pub(crate) fn key(&self, entry: usize, bit: bool) -> M {
        match self {
            TableKeys::Seeded(keys) => keys.key(entry as u64, bit),
            TableKeys::Explicit(keys) => keys[2 * entry + usize::from(bit)],
        }
    }

    /// Bits this representation stores for a batch.
    fn stored_bits(&self) -> usize {
        match self {
            TableKeys::Seeded(_) => 128,
            TableKeys::Explicit(keys) => keys.len() * 8 * M::BYTES,
        }
    }
}

impl<M> core::fmt::Debug for MaliciousPrep<M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Masks, shares and strings are secret: never print them.
        f.debug_struct("MaliciousPrep")
            .field("party", &self.party)
            .field("instances", &self.instances)
            .field("and_gates", &self.and_gates)
            .field("mac_bits", &(8 * core::mem::size_of::<M>()))
            .finish()
    }
}

/// Output positions (0-based among the output wires) revealed to `party`.
pub(crate) fn output_positions(circuit: &Circuit, io: &IoSpec, party: PartyId) -> Vec<usize> {
    let first = circuit.num_wires() - circuit.num_output_wires();
    io.revealed_output_wires(circuit, party).into_iter().map(|w| w - first).collect()
}

impl<M: MacWord> MaliciousPrep<M> {
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

    /// Bits of table material per instance held by this party: [`Self::prover_bits_per_instance`]
    /// plus [`Self::verifier_bits_per_instance`]. With explicit verification strings this is
    /// `4 · ANDs · (1 + 3k)` (Table 1, "Lookup-k", binary column; masks excluded as in the paper);
    /// with seeded ones `4 · ANDs · (1 + k)` plus the seed's 128 bits shared by the batch.
    pub fn table_bits_per_instance(&self) -> usize {
        self.prover_bits_per_instance() + self.verifier_bits_per_instance()
    }

    /// Bits per instance this party holds as prover: its table bits and own strings,
    /// `4 · ANDs · (1 + k)`.
    pub fn prover_bits_per_instance(&self) -> usize {
        4 * self.and_gates * (1 + 8 * M::BYTES)
    }

    /// Bits per instance this party holds as verifier of the peer's table bits: `4 · ANDs · 2k`
    /// if stored explicitly, the 128-bit seed divided among the batch (rounded down) if seeded.
    pub fn verifier_bits_per_instance(&self) -> usize {
        self.peer_keys.stored_bits() / self.instances.max(1)
    }

    /// Whether the verification strings are derived from a seed (trusted dealer) rather than
    /// stored (Fig. 8).
    pub fn has_seeded_keys(&self) -> bool {
        matches!(self.peer_keys, TableKeys::Seeded(_))
    }

    /// The verifier seed of seeded material (for codec tests).
    #[cfg(test)]
    pub(crate) fn verifier_seed(&self) -> Option<&[u8; 16]> {
        match &self.peer_keys {
            TableKeys::Seeded(keys) => Some(keys.seed()),
            TableKeys::Explicit(_) => None,
        }
    }

    /// The same material with the verification strings stored explicitly (the Fig. 8
    /// representation); lets tests run both online paths on one dealer's material.
    #[cfg(test)]
    pub(crate) fn with_explicit_keys(&self) -> Self {
        let entries = 4 * self.and_gates * self.instances;
        let keys = (0..2 * entries).map(|j| self.peer_keys.key(j / 2, j % 2 == 1)).collect();
        MaliciousPrep { peer_keys: TableKeys::Explicit(keys), ..self.clone() }
    }

    /// Checks the material fits `circuit`, `party` and a batch of `n` instances.
    pub(crate) fn check(&self, circuit: &Circuit, party: PartyId, n: usize) -> Result<(), TinyTableError> {
        let shape = Shape {
            party: self.party,
            io: &self.io,
            instances: self.instances,
            and_gates: self.and_gates,
            tables: self.tables.len(),
            input_masks: self.input_masks.len(),
        };
        check_shape(party, circuit, shape, n)?;
        let entries = 4 * self.and_gates * n;
        let mine = output_positions(circuit, &self.io, party).len();
        let theirs = output_positions(circuit, &self.io, 1 - party).len();
        let keys_ok = match &self.peer_keys {
            TableKeys::Seeded(_) => true,
            TableKeys::Explicit(keys) => keys.len() == 2 * entries,
        };
        let ok = self.own_macs.len() == entries
            && keys_ok
            && self.out_shares.len() == circuit.num_output_wires() * lane_words(n)
            && self.out_macs.len() == theirs * n
            && self.out_keys.len() == 2 * mine * n;
        if !ok {
            return Err(TinyTableError::PrepMismatch {
                party,
                reason: "authentication strings do not fit the circuit and batch".into(),
            });
        }
        Ok(())
    }
}

/// Commits a prover to `count` bits (`bit(j)`) with the lookup MAC scheme: independent uniform
/// verification strings (`(j·2 + b)`) and the prover's string for each actual bit.
pub(crate) fn commit<M: MacWord, R: RngCore>(
    rng: &mut R,
    count: usize,
    bit: impl Fn(usize) -> bool,
) -> (Vec<M>, Vec<M>) {
    let keys: Vec<M> = (0..2 * count).map(|_| M::random(rng)).collect();
    let macs = (0..count).map(|j| keys[2 * j + usize::from(bit(j))]).collect();
    (macs, keys)
}
