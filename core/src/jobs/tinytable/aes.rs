//! AES-128 between two parties under TinyTable, with preprocessing over OT between the two parties
//! (default, circuit path only) or from the trusted dealer as member 2 (see the
//! [trust model](super)).
//!
//! Inputs as in [`crate::jobs::maestro_aes`]: the key is the XOR of the shares of the
//! `key_holders` (party 0, party 1 or both), one party owns the plaintext, the ciphertext goes to
//! `reveal_to`.
//!
//! Paths ([`AesPath`]), each semi-honest or malicious ([`Security`]):
//! - [`AesPath::BinaryCircuit`]: the project's AES-128 circuit ([`crate::circuit::aes_gen`], 6400
//!   AND gates, AND-depth 60, key schedule inside), preceded by free XOR gates that combine the
//!   key shares, so neither party ever holds the key. One circuit instance per block; malicious
//!   security with `k`-bit lookup MACs ([`MacBits`], Fig. 3/5). Either [`Preprocessing`]: OT
//!   (Fig. 8 between the two parties, no dealer) or the dealer.
//! - [`AesPath::SboxTables`]: the §2.3 S-box tables of [`crate::proto::tinytable::sbox::tables`]
//!   (semi-honest) and [`crate::proto::tinytable::sbox::malicious`] (malicious, §3 linear MAC
//!   with k = 64 only: `mac_bits` must be 64). 10 lookup rounds instead of 60 AND layers, but
//!   **one party must own the whole key**: the key owner expands it locally and inputs 11 masked
//!   round keys (as in §5). So this path needs exactly one key holder, and the plaintext owner
//!   must be the other party; anything else is [`TinyTableJobError::InvalidSpec`] naming
//!   `key_holders` / `plaintext_owner` (a shared key would need the key schedule's 40 S-boxes as
//!   tables, not implemented; use the circuit path for XOR-shared keys). Under malicious
//!   security a cheating key owner can input round keys that are not the schedule of any key
//!   (the paper's setting). **Dealer preprocessing only**: the two-party §4 construction of the
//!   tables ([`crate::proto::tinytable::sbox::construct`]) exists over an ideal source of
//!   authenticated bits, but its cost per block is far above the circuit path's, so
//!   [`Preprocessing::Ot`] with this path is [`TinyTableJobError::NotAvailable`].

use super::aes_prep_codec;
use super::circuit::{self, CircuitJobInput, CircuitJobSpec};
use super::view::TwoPartyView;
use super::{
    agree_on_spec, check_common, check_instances, deal_or_receive, MacBits, Preprocessing, Security,
    TinyTableJobError,
};
use crate::aes::Block;
use crate::circuit::aes_bristol::{output_bytes, value_bits};
use crate::circuit::{aes_gen, Circuit, Gate, LinearGate};
use crate::net::{NetStats, Network, PartyId};
use crate::proto::tinytable::sbox::{malicious as sbox_malicious, tables as sbox_tables};
use crate::proto::tinytable::{IoSpec, Reveal, TrustedDealer};
use rand_core::{CryptoRng, RngCore};
use std::sync::OnceLock;

/// How the S-box is evaluated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum AesPath {
    /// 256-entry S-box tables (§2.3): one key owner (see the module docs).
    SboxTables,
    /// The boolean AES-128 circuit with AND tables (Fig. 7).
    #[default]
    BinaryCircuit,
}

impl AesPath {
    /// `sbox-tables` or `circuit` (the SDK's names).
    pub fn name(self) -> &'static str {
        match self {
            AesPath::SboxTables => "sbox-tables",
            AesPath::BinaryCircuit => "circuit",
        }
    }

    /// The path called `name` (see [`Self::name`]).
    pub fn from_name(name: &str) -> Option<AesPath> {
        [AesPath::SboxTables, AesPath::BinaryCircuit].into_iter().find(|p| p.name() == name)
    }
}

/// What the session members agree to compute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TinyTableAesSpec {
    /// How the S-box is evaluated.
    pub path: AesPath,
    /// Where the material comes from; decides the session size (2 for OT, 3 with the dealer).
    /// [`AesPath::SboxTables`] needs [`Preprocessing::Dealer`].
    pub preprocessing: Preprocessing,
    /// The security level.
    pub security: Security,
    /// Width of the authentication strings under [`Security::Malicious`] (the S-box path supports
    /// [`MacBits::K64`] only).
    pub mac_bits: MacBits,
    /// Number of 16-byte blocks encrypted under the key.
    pub blocks: usize,
    /// Parties (0 and/or 1, ascending) that each input an XOR share of the 16-byte key.
    pub key_holders: Vec<PartyId>,
    /// The party (0 or 1) that inputs the plaintext.
    pub plaintext_owner: PartyId,
    /// Parties (0 and/or 1, ascending) that learn the ciphertext.
    pub reveal_to: Vec<PartyId>,
}

/// This member's private inputs (only what its roles require; nothing for the dealer).
#[derive(Clone, Default)]
pub struct TinyTableAesInput {
    /// This party's XOR share of the key (16 bytes), if it is a key holder.
    pub key_share: Option<Vec<u8>>,
    /// The plaintext (`16 · blocks` bytes), if this party owns it.
    pub plaintext: Option<Vec<u8>>,
}

impl core::fmt::Debug for TinyTableAesInput {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Inputs are secrets: show only which ones are present.
        f.debug_struct("TinyTableAesInput")
            .field("key_share", &self.key_share.as_ref().map(|_| "<secret>"))
            .field("plaintext", &self.plaintext.as_ref().map(|_| "<secret>"))
            .finish()
    }
}

/// What this member learns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TinyTableAesOutput {
    /// The ciphertext if this party is in `reveal_to`, else `None`.
    pub ciphertext: Option<Vec<u8>>,
    /// This member's communication for the whole job.
    pub stats: NetStats,
    /// The online phase alone (zero for the dealer).
    pub online_stats: NetStats,
}

impl TinyTableAesSpec {
    /// Checks the spec, including that its path and security level are available.
    pub fn validate(&self) -> Result<(), TinyTableJobError> {
        let bad = |m: String| Err(TinyTableJobError::InvalidSpec(m));
        if self.blocks == 0 {
            return bad("blocks must be at least 1".into());
        }
        for (field, list) in [("key_holders", &self.key_holders), ("reveal_to", &self.reveal_to)] {
            if list.is_empty() || list.len() > 2 || !list.windows(2).all(|w| w[0] < w[1]) {
                return bad(format!("{field} must name party 0, party 1 or both, ascending: {list:?}"));
            }
            if let Some(p) = list.iter().find(|&&p| p > 1) {
                return bad(format!("{field} names party {p}, but the computing parties are 0 and 1"));
            }
        }
        if self.plaintext_owner > 1 {
            return bad(format!(
                "plaintext_owner is {}, but the computing parties are 0 and 1",
                self.plaintext_owner
            ));
        }
        if self.path == AesPath::SboxTables {
            if self.preprocessing == Preprocessing::Ot {
                return Err(TinyTableJobError::NotAvailable(
                    "the S-box-table path has no OT preprocessing yet (the two-party construction \
                     of its tables is too costly for now): use path 'circuit' with preprocessing \
                     'ot', or preprocessing 'dealer' with the S-box tables"
                        .into(),
                ));
            }
            if let [owner] = self.key_holders[..] {
                if self.plaintext_owner == owner {
                    return bad(format!(
                        "the S-box-table path needs the plaintext_owner to be the other party than \
                         the key owner (both are party {owner})"
                    ));
                }
            } else {
                return bad(format!(
                    "the S-box-table path needs exactly one of key_holders (it expands the whole key \
                     locally), got {:?}; use path 'circuit' for an XOR-shared key",
                    self.key_holders
                ));
            }
            if self.security == Security::Malicious && self.mac_bits != MacBits::K64 {
                return Err(TinyTableJobError::NotAvailable(
                    "the malicious S-box-table path authenticates with k = 64 only (mac_bits 32 is \
                     for the circuit path)"
                        .into(),
                ));
            }
        }
        Ok(())
    }

    /// A canonical byte encoding, used for the agreement check (the circuit follows from it).
    pub(super) fn encode(&self) -> Vec<u8> {
        let mut out = b"chorus/tinytable-aes/v3".to_vec();
        out.push(u8::from(self.path == AesPath::SboxTables));
        out.push(u8::from(self.preprocessing == Preprocessing::Dealer));
        out.push(u8::from(self.security == Security::Malicious));
        out.push(self.mac_bits.bits() as u8);
        out.extend_from_slice(&(self.blocks as u64).to_be_bytes());
        for list in [&self.key_holders, &self.reveal_to] {
            out.push(list.len() as u8);
            out.extend(list.iter().map(|&p| p as u8));
        }
        out.push(self.plaintext_owner as u8);
        out
    }

    /// The circuit job this spec runs: key shares XORed into the AES-128 circuit's key.
    fn circuit_spec(&self) -> Result<CircuitJobSpec, TinyTableJobError> {
        let circuit = cached_keyed_aes128(self.key_holders.len())?;
        let mut input_owners = self.key_holders.clone();
        input_owners.push(self.plaintext_owner);
        let reveal = self.reveal();
        Ok(CircuitJobSpec {
            preprocessing: self.preprocessing,
            security: self.security,
            mac_bits: self.mac_bits,
            circuit,
            io: IoSpec { input_owners, reveal: vec![reveal] },
            instances: self.blocks,
        })
    }

    fn reveal(&self) -> Reveal {
        match self.reveal_to.as_slice() {
            [p] => Reveal::To(*p),
            _ => Reveal::Both,
        }
    }

    fn circuit_input(
        &self,
        me: PartyId,
        input: TinyTableAesInput,
    ) -> Result<CircuitJobInput, TinyTableJobError> {
        self.check_input(me, &input)?;
        if self.preprocessing.is_dealer(me) {
            return Ok(CircuitJobInput::default());
        }
        let key_bits = input.key_share.as_deref().map(value_bits);
        let values = (0..self.blocks)
            .map(|block| {
                let mut values: Vec<Vec<bool>> = key_bits.iter().cloned().collect();
                if let Some(p) = &input.plaintext {
                    values.push(value_bits(&p[16 * block..16 * (block + 1)]));
                }
                values
            })
            .collect();
        Ok(CircuitJobInput { values })
    }

    /// The S-box path's per-block inputs: the key (repeated) at the key owner, the plaintext
    /// blocks at the other party, nothing at the dealer.
    fn sbox_input(&self, me: PartyId, input: TinyTableAesInput) -> Result<Vec<Block>, TinyTableJobError> {
        self.check_input(me, &input)?;
        let block = |b: &[u8]| -> Block { b.try_into().unwrap_or_default() };
        Ok(match (&input.key_share, &input.plaintext) {
            (Some(key), _) => vec![block(key); self.blocks],
            (None, Some(p)) => p.chunks_exact(16).map(block).collect(),
            (None, None) => Vec::new(),
        })
    }

    fn check_input(&self, me: PartyId, input: &TinyTableAesInput) -> Result<(), TinyTableJobError> {
        let bad = |reason: String| Err(TinyTableJobError::InvalidInput { party: me, reason });
        let holder = self.key_holders.contains(&me);
        let owner = self.plaintext_owner == me;
        match (&input.key_share, holder) {
            (Some(k), true) if k.len() != 16 => {
                return bad(format!("key share has {} bytes, expected 16", k.len()))
            }
            (None, true) => return bad("this party is a key holder but supplied no key share".into()),
            (Some(_), false) => return bad("this member is not a key holder but supplied a key share".into()),
            _ => {}
        }
        match (&input.plaintext, owner) {
            (Some(p), true) if p.len() != 16 * self.blocks => {
                return bad(format!(
                    "plaintext has {} bytes, expected {} ({} blocks)",
                    p.len(),
                    16 * self.blocks,
                    self.blocks
                ))
            }
            (None, true) => return bad("this party owns the plaintext but supplied none".into()),
            (Some(_), false) => return bad("this member does not own the plaintext but supplied one".into()),
            _ => {}
        }
        Ok(())
    }
}

/// Runs the job as this member (party 0, party 1, or the dealer under
/// [`Preprocessing::Dealer`]). Every member calls it with the same spec; `rng` supplies the OT
/// preprocessing's randomness at the parties, or the dealer's.
pub async fn run<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &TinyTableAesSpec,
    input: TinyTableAesInput,
    rng: &mut R,
) -> Result<TinyTableAesOutput, TinyTableJobError> {
    spec.validate()?;
    check_common(net, spec.preprocessing)?;
    if spec.path == AesPath::SboxTables {
        return run_sbox_tables(net, spec, input, rng).await;
    }
    let input = spec.circuit_input(net.party(), input)?;
    let out = circuit::run_agreed(net, &spec.circuit_spec()?, &spec.encode(), input, rng).await?;
    let mut ciphertext = Vec::new();
    for outputs in &out.outputs {
        match outputs.first() {
            Some(Some(bits)) => {
                ciphertext.extend(output_bytes(bits).expect("the AES circuit outputs 128 bits"))
            }
            _ => break,
        }
    }
    let revealed = ciphertext.len() == 16 * spec.blocks;
    Ok(TinyTableAesOutput {
        ciphertext: revealed.then_some(ciphertext),
        stats: out.stats,
        online_stats: out.online_stats,
    })
}

/// The S-box-table path (validated spec): agreement, dealing, then the §2.3 online phase.
async fn run_sbox_tables<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &TinyTableAesSpec,
    input: TinyTableAesInput,
    rng: &mut R,
) -> Result<TinyTableAesOutput, TinyTableJobError> {
    let me = net.party();
    let inputs = spec.sbox_input(me, input)?;
    let start = net.stats();
    agree_on_spec(net, &spec.encode()).await?;
    let (key_owner, reveal, blocks) = (spec.key_holders[0], spec.reveal(), spec.blocks);
    let dealer_output = |net: &N| TinyTableAesOutput {
        ciphertext: None,
        stats: net.stats().since(&start),
        online_stats: NetStats::default(),
    };
    let before;
    let ciphertexts = match spec.security {
        Security::SemiHonest => {
            let deal = |d: &mut TrustedDealer<&mut R>| {
                let [a, b] = d.aes_tables_batch(key_owner, reveal, blocks)?;
                Ok([aes_prep_codec::encode_tables(&a), aes_prep_codec::encode_tables(&b)])
            };
            let Some(preps) = deal_or_receive(net, rng, deal, aes_prep_codec::decode_tables).await? else {
                return Ok(dealer_output(net));
            };
            check_instances(me, preps.len(), blocks)?;
            before = net.stats();
            sbox_tables::encrypt_batch(&mut TwoPartyView::new(net), &preps, &inputs).await?
        }
        Security::Malicious => {
            let deal = |d: &mut TrustedDealer<&mut R>| {
                let [a, b] = d.malicious_aes_tables(key_owner, reveal, blocks)?;
                Ok([aes_prep_codec::encode_malicious(&a), aes_prep_codec::encode_malicious(&b)])
            };
            let Some(prep) = deal_or_receive(net, rng, deal, aes_prep_codec::decode_malicious).await? else {
                return Ok(dealer_output(net));
            };
            check_instances(me, prep.blocks(), blocks)?;
            before = net.stats();
            sbox_malicious::encrypt_batch(&mut TwoPartyView::new(net), &prep, &inputs).await?
        }
    };
    let online_stats = net.stats().since(&before);
    let ciphertext: Option<Vec<Block>> = ciphertexts.into_iter().collect();
    Ok(TinyTableAesOutput {
        ciphertext: ciphertext.map(|c| c.concat()),
        stats: net.stats().since(&start),
        online_stats,
    })
}

/// [`keyed_aes128`] for one or two key holders, built once per process (building and checking
/// the 31 512-wire circuit costs more than a one-block online phase).
fn cached_keyed_aes128(holders: usize) -> Result<Circuit, TinyTableJobError> {
    static CIRCUITS: [OnceLock<Result<Circuit, TinyTableJobError>>; 2] = [OnceLock::new(), OnceLock::new()];
    match CIRCUITS.get(holders.wrapping_sub(1)) {
        Some(cell) => cell.get_or_init(|| keyed_aes128(holders)).clone(),
        None => keyed_aes128(holders),
    }
}

/// AES-128 whose key is the XOR of `holders` 128-bit input values (1 or 2), followed by the
/// plaintext value: the generated circuit with its key wires rewired to free XOR gates.
pub fn keyed_aes128(holders: usize) -> Result<Circuit, TinyTableJobError> {
    let aes = aes_gen::aes128_circuit().map_err(|e| TinyTableJobError::InvalidSpec(e.to_string()))?;
    if holders <= 1 {
        return Ok(aes);
    }
    // New wires: the key shares and the plaintext, then the XOR chain's outputs, then AES's own
    // non-input wires shifted (AES's outputs stay last, as Bristol requires).
    let shares_end = 128 * holders as u32;
    let xor_outputs = 128 * (holders as u32 - 1);
    let first_xor = shares_end + 128;
    let shift = first_xor + xor_outputs - 256;
    let key_wire = first_xor + xor_outputs - 128;
    let map = |w: u32| match w {
        0..128 => key_wire + w,
        128..256 => shares_end + (w - 128),
        _ => w + shift,
    };
    let mut gates = Vec::with_capacity(aes.gates().count() + xor_outputs as usize);
    for bit in 0..128 {
        gates.push(Gate::Linear(LinearGate::Xor { a: bit, b: 128 + bit, out: first_xor + bit }));
    }
    for k in 2..holders as u32 {
        for bit in 0..128 {
            let previous = first_xor + 128 * (k - 2) + bit;
            gates.push(Gate::Linear(LinearGate::Xor { a: previous, b: 128 * k + bit, out: previous + 128 }));
        }
    }
    gates.extend(aes.gates().map(|gate| match gate {
        Gate::And(g) => Gate::And(crate::circuit::AndGate { a: map(g.a), b: map(g.b), out: map(g.out) }),
        Gate::Linear(g) => Gate::Linear(match g {
            LinearGate::Xor { a, b, out } => LinearGate::Xor { a: map(a), b: map(b), out: map(out) },
            LinearGate::Inv { a, out } => LinearGate::Inv { a: map(a), out: map(out) },
            LinearGate::Copy { a, out } => LinearGate::Copy { a: map(a), out: map(out) },
            LinearGate::Const { value, out } => LinearGate::Const { value, out: map(out) },
        }),
    }));
    let mut input_widths = vec![128; holders];
    input_widths.push(128);
    Circuit::new(aes.num_wires() as u32 + shift, input_widths, vec![128], gates)
        .map_err(|e| TinyTableJobError::InvalidSpec(e.to_string()))
}
