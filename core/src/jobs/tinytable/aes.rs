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
//!   with k = 64 only: `mac_bits` must be 64). 10 lookup rounds instead of 60 AND layers. With
//!   **one key holder** the key owner expands the key locally and inputs 11 masked round keys (as
//!   in §5), and the plaintext owner must be the other party (else [`JobError::InvalidSpec`]
//!   naming `plaintext_owner`); under malicious security a cheating key owner can input round
//!   keys that are not the schedule of any key (the paper's setting). With **both parties as key
//!   holders** the key schedule runs in the protocol on 40 more authenticated tables per block
//!   ([`crate::proto::tinytable::sbox::schedule`]: 10 more rounds), so neither party holds the
//!   key and the round keys are always its schedule; this needs the authenticated material,
//!   so a semi-honest job with the dealer then gets the dealer's malicious tables and runs the
//!   malicious online phase. Either [`Preprocessing`]: the dealer's tables, or the two parties'
//!   own (§4 construction over TinyOT, [`super::sbox_ot`]), which always carry the §3 MACs, so
//!   with OT preprocessing a semi-honest job runs the malicious online phase too. The
//!   construction costs 39 520 AND triples per block (49 400 with a shared key), about six times
//!   the circuit's 6400 AND gates; what it buys is an online phase of 10 lookup rounds instead of
//!   60 AND layers.

use super::aes_prep_codec;
use super::circuit::{self, CircuitJobInput, CircuitJobSpec};
use super::ot_prep::Material;
use super::prepared;
use super::sbox_ot;
use super::{
    agree_on_spec, check_common, check_direction, check_instances, deal_or_receive, JobError, MacBits,
    Preprocessing, Security,
};
use crate::aes::{Block, KeySize};
use crate::jobs::aes::AesOutput;
use crate::jobs::keyed_aes;
pub use crate::jobs::options::AesPath;
use crate::jobs::options::Direction;
use crate::jobs::prepared::{
    agree_to_prepare, kind_of, plan_bytes, Plan, PrepareOutput, Prepared, PreparedUse, Stock,
};
use crate::jobs::view::TwoPartyView;
use crate::net::{NetStats, Network, PartyId};
use crate::proto::tinytable::sbox::{malicious as sbox_malicious, tables as sbox_tables};
use crate::proto::tinytable::{IoSpec, Reveal, TrustedDealer};
use rand_core::{CryptoRng, RngCore};

/// One member's inputs on the S-box-table path, per block.
struct SboxInputs {
    /// The key, or this party's share of it.
    keys: Vec<Block>,
    /// The plaintext (ciphertext) blocks.
    plaintexts: Vec<Block>,
}

impl SboxInputs {
    /// The one input list of a party under a key owner's expanded key (the key at the key
    /// owner, the plaintexts at the other party).
    fn expanded(&self) -> &[Block] {
        if self.keys.is_empty() {
            &self.plaintexts
        } else {
            &self.keys
        }
    }
}

/// Runs the malicious S-box online phase on `prep` for the key kind it was made for.
async fn sbox_online<N: Network>(
    net: &mut N,
    prep: &crate::proto::tinytable::MaliciousAesPrep,
    inputs: &SboxInputs,
) -> Result<Vec<Option<Block>>, crate::proto::tinytable::TinyTableError> {
    if prep.shared_key() {
        sbox_malicious::encrypt_batch_shared_key(net, prep, &inputs.keys, &inputs.plaintexts).await
    } else {
        sbox_malicious::encrypt_batch(net, prep, inputs.expanded()).await
    }
}

/// What the session members agree to compute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TinyTableAesSpec {
    /// How the S-box is evaluated.
    pub path: AesPath,
    /// Where the material comes from; decides the session size (2 for OT, 3 with the dealer).
    pub preprocessing: Preprocessing,
    /// The security level.
    pub security: Security,
    /// Width of the authentication strings under [`Security::Malicious`] (the S-box path supports
    /// [`MacBits::K64`] only).
    pub mac_bits: MacBits,
    /// The key size (the circuit path: any; the S-box-table path: AES-128).
    pub key_size: KeySize,
    /// Encryption or decryption, on either path (S-box-table decryption uses inverse S-box tables).
    pub direction: Direction,
    /// Number of 16-byte blocks processed under the key.
    pub blocks: usize,
    /// Parties (0 and/or 1, ascending) that each input an XOR share of the key.
    pub key_holders: Vec<PartyId>,
    /// The party (0 or 1) that inputs the plaintext.
    pub plaintext_owner: PartyId,
    /// Parties (0 and/or 1, ascending) that learn the ciphertext.
    pub reveal_to: Vec<PartyId>,
}

/// This member's private inputs: the shared AES job's (nothing for the dealer).
pub type TinyTableAesInput = crate::jobs::aes::AesInput;

impl TinyTableAesSpec {
    /// Checks the spec, including that its path and security level are available.
    pub fn validate(&self) -> Result<(), JobError> {
        let bad = |field: &'static str, m: String| Err(JobError::invalid_spec(field, m));
        if self.blocks == 0 {
            return bad("blocks", "blocks must be at least 1".into());
        }
        for (field, list) in [("keyHolders", &self.key_holders), ("reveal", &self.reveal_to)] {
            if list.is_empty() || list.len() > 2 || !list.windows(2).all(|w| w[0] < w[1]) {
                return bad(
                    field,
                    format!("{field} must name party 0, party 1 or both, ascending: {list:?}"),
                );
            }
            if let Some(p) = list.iter().find(|&&p| p > 1) {
                return bad(field, format!("{field} names party {p}, but the computing parties are 0 and 1"));
            }
        }
        if self.plaintext_owner > 1 {
            return bad(
                "plaintextOwner",
                format!("plaintextOwner is {}, but the computing parties are 0 and 1", self.plaintext_owner),
            );
        }
        if self.path == AesPath::SboxTables {
            if self.key_size != KeySize::Aes128 {
                return Err(JobError::not_available(
                    "keyBits",
                    "the S-box-table path runs AES-128 only; use path 'circuit' for 192- and 256-bit keys",
                ));
            }
            if let [owner] = self.key_holders[..] {
                if self.plaintext_owner == owner {
                    return bad(
                        "plaintextOwner",
                        format!(
                            "with one key holder the S-box-table path needs the plaintextOwner to \
                             be the other party (both are party {owner}; name both parties in \
                             keyHolders for an XOR-shared key)"
                        ),
                    );
                }
            }
            if self.security == Security::Malicious && self.mac_bits != MacBits::K64 {
                return Err(JobError::not_available(
                    "macBits",
                    "the malicious S-box-table path authenticates with k = 64 only (mac_bits 32 is \
                     for the circuit path)",
                ));
            }
        }
        Ok(())
    }

    /// A canonical byte encoding, used for the agreement check (the circuit follows from it).
    pub(super) fn encode(&self) -> Vec<u8> {
        let mut out = b"chorus/tinytable-aes/v4".to_vec();
        out.push(u8::from(self.path == AesPath::SboxTables));
        out.push(u8::from(self.preprocessing == Preprocessing::Dealer));
        out.push(u8::from(self.security == Security::Malicious));
        out.push(self.mac_bits.bits() as u8);
        out.push(self.key_size.key_bytes() as u8);
        out.push(u8::from(self.direction == Direction::Decrypt));
        out.extend_from_slice(&(self.blocks as u64).to_be_bytes());
        for list in [&self.key_holders, &self.reveal_to] {
            out.push(list.len() as u8);
            out.extend(list.iter().map(|&p| p as u8));
        }
        out.push(self.plaintext_owner as u8);
        out
    }

    /// The circuit job this spec runs: key shares XORed into the key of the AES circuit of the
    /// spec's key size and direction.
    fn circuit_spec(&self) -> Result<CircuitJobSpec, JobError> {
        let circuit = keyed_aes::cached(self.key_holders.len(), self.key_size, self.direction)?;
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

    fn circuit_input(&self, me: PartyId, input: TinyTableAesInput) -> Result<CircuitJobInput, JobError> {
        self.check_input(me, &input)?;
        if self.preprocessing.is_dealer(me) {
            return Ok(CircuitJobInput::default());
        }
        let values = keyed_aes::instance_inputs(&input, self.blocks);
        Ok(CircuitJobInput { values })
    }

    /// The S-box path's key input: the key owner and whether the key is XOR-shared (then the key
    /// owner is the party other than the plaintext owner; both input key shares).
    fn sbox_key(&self) -> (PartyId, bool) {
        match self.key_holders[..] {
            [owner] => (owner, false),
            _ => (usize::from(self.plaintext_owner == 0), true),
        }
    }

    /// The S-box path's per-block inputs: the key (share) repeated for every block at a key
    /// holder, and the plaintext blocks at the plaintext owner (both empty at the dealer).
    fn sbox_input(&self, me: PartyId, input: TinyTableAesInput) -> Result<SboxInputs, JobError> {
        self.check_input(me, &input)?;
        let block = |b: &[u8]| -> Block { b.try_into().unwrap_or_default() };
        Ok(SboxInputs {
            keys: input.key_share.as_deref().map_or_else(Vec::new, |k| vec![block(k); self.blocks]),
            plaintexts: input
                .plaintext
                .as_deref()
                .map_or_else(Vec::new, |p| p.chunks_exact(16).map(block).collect()),
        })
    }

    fn check_input(&self, me: PartyId, input: &TinyTableAesInput) -> Result<(), JobError> {
        input.check(me, &self.key_holders, self.plaintext_owner, self.key_size.key_bytes(), self.blocks)
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
) -> Result<AesOutput, JobError> {
    run_prepared(net, spec, input, rng, &mut Prepared::default(), PreparedUse::Never).await
}

/// Makes material for `spec.blocks` future blocks of AES jobs like `spec` into `store`
/// ([`super::prepared`]), on either path; OT preprocessing only. The S-box path's material is its
/// authenticated tables ([`super::sbox_ot`]), of a kind of its own ([`sbox_kind`]).
pub async fn prepare<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &TinyTableAesSpec,
    rng: &mut R,
    store: &mut Prepared,
) -> Result<PrepareOutput, JobError> {
    spec.validate()?;
    if spec.path != AesPath::SboxTables {
        return prepared::prepare(net, &spec.circuit_spec()?, &spec.encode(), rng, (store, "blocks")).await;
    }
    prepared::check_preparable(spec.preprocessing)?;
    check_common(net, spec.preprocessing)?;
    check_room(spec, store)?;
    let start = net.stats();
    let digest = agree_to_prepare(net, &spec.encode()).await?;
    let (key_owner, shared_key) = spec.sbox_key();
    let tables =
        sbox_ot::make(net, spec.direction, key_owner, shared_key, spec.reveal(), spec.blocks, &digest, rng)
            .await?;
    let stock = Stock::per_instance(Material::SboxTables(tables), sbox_bytes_per_block(spec));
    Ok(store.add(sbox_kind(spec), &digest, stock, net.stats().since(&start)))
}

/// Checks that `spec.blocks` blocks of material fit `store`'s bound.
pub(crate) fn check_room(spec: &TinyTableAesSpec, store: &Prepared) -> Result<(), JobError> {
    if spec.path != AesPath::SboxTables {
        return prepared::check_room(&spec.circuit_spec()?, store, "blocks");
    }
    store.check_room(spec.blocks.saturating_mul(sbox_bytes_per_block(spec)), "blocks")
}

/// One block's authenticated S-box tables: 160 tables of 256 entries (200 with the key schedule
/// of a shared key), each a share with its MAC (16 bytes) and the verifier's key for the peer's
/// (16 bytes).
fn sbox_bytes_per_block(spec: &TinyTableAesSpec) -> usize {
    use crate::proto::tinytable::sbox::{
        schedule::SCHEDULE_ENTRIES_PER_BLOCK, tables::TABLE_BYTES_PER_BLOCK,
    };
    let schedule = if spec.sbox_key().1 { SCHEDULE_ENTRIES_PER_BLOCK } else { 0 };
    (TABLE_BYTES_PER_BLOCK + schedule) * 32
}

/// The kind of prepared material an S-box-table job of `spec` takes: everything it agrees on but
/// the block count.
fn sbox_kind(spec: &TinyTableAesSpec) -> [u8; 32] {
    kind_of(b"tinytable/sbox-tables", &TinyTableAesSpec { blocks: 0, ..spec.clone() }.encode())
}

/// What an S-box-table job of `spec` consumes from `store` under `usage`.
fn sbox_plan(
    spec: &TinyTableAesSpec,
    store: &Prepared,
    usage: PreparedUse,
) -> Result<Option<Plan>, JobError> {
    if spec.preprocessing != Preprocessing::Ot {
        crate::jobs::prepared::refuse_required(usage, prepared::DEALER_MAKES_NONE)?;
        return Ok(None);
    }
    store.plan(|| sbox_kind(spec), spec.blocks, usage)
}

/// Whether an AES job of `spec` consumes prepared material from `store` under `usage` (an error
/// naming `usePrepared` if `usage` requires it and none fits; see [`super::prepared`]). Dealer
/// jobs never do.
pub fn uses_prepared(
    spec: &TinyTableAesSpec,
    store: &Prepared,
    usage: PreparedUse,
) -> Result<bool, JobError> {
    if spec.path == AesPath::SboxTables {
        return Ok(sbox_plan(spec, store, usage)?.is_some());
    }
    prepared::uses(&spec.circuit_spec()?, store, usage)
}

/// [`run`] with the session's prepared material (see [`super::prepared`]).
pub async fn run_prepared<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &TinyTableAesSpec,
    input: TinyTableAesInput,
    rng: &mut R,
    store: &mut Prepared,
    usage: PreparedUse,
) -> Result<AesOutput, JobError> {
    spec.validate()?;
    check_common(net, spec.preprocessing)?;
    if spec.path == AesPath::SboxTables {
        return run_sbox_tables(net, spec, input, rng, store, usage).await;
    }
    let input = spec.circuit_input(net.party(), input)?;
    let circuit = spec.circuit_spec()?;
    let out =
        circuit::run_agreed(net, &circuit, &spec.encode(), input, rng, (store, usage), &mut |_| {}).await?;
    let ciphertext = keyed_aes::ciphertext(&out.outputs);
    Ok(AesOutput {
        ciphertext,
        stats: out.stats,
        online_stats: out.online_stats,
        preprocessing_stats: out.stats.since(&out.online_stats),
    })
}

/// The S-box-table path (validated spec): agreement (with the plan for prepared tables), the
/// dealer's tables, prepared ones or the §4 construction over OT, then the §2.3 online phase.
async fn run_sbox_tables<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &TinyTableAesSpec,
    input: TinyTableAesInput,
    rng: &mut R,
    store: &mut Prepared,
    usage: PreparedUse,
) -> Result<AesOutput, JobError> {
    let me = net.party();
    let inputs = spec.sbox_input(me, input)?;
    let plan = sbox_plan(spec, store, usage)?;
    let start = net.stats();
    let digest = agree_on_spec(net, &[spec.encode(), plan_bytes(plan.as_ref())].concat()).await?;
    let ((key_owner, shared_key), reveal, blocks, direction) =
        (spec.sbox_key(), spec.reveal(), spec.blocks, spec.direction);
    let dealer_output = |net: &N| {
        let stats = net.stats().since(&start);
        AesOutput { ciphertext: None, stats, online_stats: NetStats::default(), preprocessing_stats: stats }
    };
    let before;
    let ciphertexts = match (spec.preprocessing, spec.security) {
        (Preprocessing::Ot, _) => {
            let prep = match &plan {
                Some(plan) => match store.take(plan)?.into_material()? {
                    Material::SboxTables(tables) => tables,
                    _ => return Err(JobError::Internal("prepared material of another kind")),
                },
                None => {
                    sbox_ot::make(net, direction, key_owner, shared_key, reveal, blocks, &digest, rng).await?
                }
            };
            check_instances(me, prep.blocks(), blocks)?;
            check_direction(me, prep.direction(), direction)?;
            before = net.stats();
            sbox_online(net, &prep, &inputs).await?
        }
        (Preprocessing::Dealer, Security::SemiHonest) if !shared_key => {
            let deal = |d: &mut TrustedDealer<&mut R>| {
                let [a, b] = d.aes_tables_batch(direction, key_owner, reveal, blocks)?;
                Ok([aes_prep_codec::encode_tables(&a), aes_prep_codec::encode_tables(&b)])
            };
            let Some(preps) = deal_or_receive(net, rng, deal, aes_prep_codec::decode_tables).await? else {
                return Ok(dealer_output(net));
            };
            check_instances(me, preps.len(), blocks)?;
            for prep in &preps {
                check_direction(me, prep.direction(), direction)?;
            }
            before = net.stats();
            sbox_tables::encrypt_batch(&mut TwoPartyView::new(net), &preps, inputs.expanded()).await?
        }
        // Malicious, or a shared key at either level: the key schedule's tables exist as
        // authenticated material only.
        (Preprocessing::Dealer, _) => {
            let deal = |d: &mut TrustedDealer<&mut R>| {
                let [a, b] = if shared_key {
                    d.malicious_aes_tables_shared_key(direction, 1 - key_owner, reveal, blocks)?
                } else {
                    d.malicious_aes_tables(direction, key_owner, reveal, blocks)?
                };
                Ok([aes_prep_codec::encode_malicious(&a), aes_prep_codec::encode_malicious(&b)])
            };
            let Some(prep) = deal_or_receive(net, rng, deal, aes_prep_codec::decode_malicious).await? else {
                return Ok(dealer_output(net));
            };
            check_instances(me, prep.blocks(), blocks)?;
            check_direction(me, prep.direction(), direction)?;
            before = net.stats();
            sbox_online(&mut TwoPartyView::new(net), &prep, &inputs).await?
        }
    };
    let online_stats = net.stats().since(&before);
    let ciphertext: Option<Vec<Block>> = ciphertexts.into_iter().collect();
    let stats = net.stats().since(&start);
    Ok(AesOutput {
        ciphertext: ciphertext.map(|c| c.concat()),
        stats,
        online_stats,
        preprocessing_stats: stats.since(&online_stats),
    })
}
