//! Coral's mixed circuits in the shared circuit job: a [`JobCircuit::Mixed`] circuit (Summon's
//! arithmetic gates on Z_{2^k}, [`crate::circuit::mixed`]) evaluated on Spdz2k shares
//! ([`crate::proto::coral::arith`], Coral paper §4.3.1), many instances per job, maliciously
//! secure with abort.
//!
//! # Parties and trust model
//!
//! Every member of the session computes: 2 to [`MAX_PARTIES`] parties (Spdz2k is an n-party
//! protocol), each owning any of the inputs. They make all material among themselves with
//! [`ArithOtProvider`] (COPE over Z_{2^(k+s)} between every pair, triples by OT multiplication
//! with combination and sacrifice, input masks, checked random bits): **nobody but the parties is
//! trusted**, and security holds against any n − 1 of them colluding. There is no
//! dealer for mixed circuits (the labelled [`crate::proto::coral::arith::ArithDealer`] is a test
//! helper), so `preprocessing: 'dealer'` is [`JobError::NotAvailable`]. A party that deviates
//! anywhere makes every honest party's job fail with [`JobError::Coral`] naming the check, before
//! any output is opened.
//!
//! An output value goes to every party (`Reveal::Both`) or to one (`Reveal::To(p)`: opened
//! masked by one of p's input masks, [`ArithParty::output_to`]; the others learn nothing of it and
//! get no value).
//!
//! # Steps
//!
//! 1. Spec agreement ([`super::super::agreement`]): a tag, k, the circuit's digest
//!    ([`crate::circuit::mixed::MixedCircuit::digest`]), the input owners, the inputs declared
//!    bits (checked by the evaluation, [`evaluate_to`]), the outputs' recipients and the instance
//!    count.
//! 2. The provider's setup (base OTs, COPE keys, OT extension) under the agreed digest, once.
//! 3. Per chunk of instances: the chunk's material ([`demand_to`]), then its evaluation
//!    ([`evaluate_to`]: random bits, inputs and their bit checks, one Beaver round per
//!    layer, MAC checks, outputs). Where the chunk's bit-level gates decompose enough values
//!    that the conversions through Coral's boolean sharings take fewer Spdz2k triples
//!    ([`Plan::converts`], the same at every member: it depends on the agreed spec alone), the
//!    chunk's material is [`demand_converting`]'s — Spdz2k's from the same provider, Coral's from
//!    Coral's OT-based provider ([`OtProvider`], set up by the first such chunk under the agreed
//!    digest, no trusted party either) — and the evaluation is [`evaluate_converting`]. Chunks
//!    are sized to [`stream::MATERIAL_BUDGET_BYTES`] (counting the arithmetic decompositions'
//!    material, which is more than the conversions' in both sharings wherever they are chosen)
//!    and to the evaluation's own bounds (wire values, random bits — a daBit's lanes counted as
//!    random bits —, items per provider call), so a job of any instance count holds one chunk's
//!    material at a time.
//!
//! Inputs and outputs are the job's bit lists: k bits per value, least significant first.

use super::super::aes::JobPhase;
use super::super::agreement::agree_on_spec;
use super::super::circuit::check_io;
use super::super::circuit::{CircuitInput, CircuitOutput, CircuitSpec, MixedJobCircuit};
use super::super::error::JobError;
use super::super::preprocessing::Preprocessing;
use super::super::stream;
use super::seed;
use crate::circuit::mixed::MixedCircuit;
use crate::net::{NetStats, Network, PartyId};
use crate::proto::coral::arith::circuit::{
    demand_converting, demand_to, evaluate_converting, evaluate_to, Plan, MAX_RANDOM_BITS, MAX_WIRE_VALUES,
};
use crate::proto::coral::arith::ot::{MAX_ITEMS, MAX_PARTIES};
use crate::proto::coral::arith::{ArithDemand, ArithOtProvider, ArithParty, ArithRing};
use crate::proto::coral::{CoralError, OtProvider, Party, Preprocessing as _};
use crate::proto::tinytable::circuit::online::Outputs;
use crate::proto::tinytable::Reveal;
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};

/// The agreement tag of a mixed circuit job.
const TAG: &[u8] = b"chorus/coral-mixed/v3";

/// Bytes of material per triple and per mask at one party (three or one sharing of a value and
/// its MAC, two `u128` each), for the chunk size.
const TRIPLE_BYTES: usize = 96;
const MASK_BYTES: usize = 48;

/// Checks a circuit spec whose protocol is Coral and whose circuit is mixed: OT preprocessing,
/// owners and recipients that fit, and a circuit one instance of which fits the Spdz2k
/// evaluation's bounds. The session size is
/// checked by the run (the spec does not fix it).
pub(crate) fn validate(spec: &CircuitSpec, circuit: &MixedJobCircuit) -> Result<(), JobError> {
    if spec.protocol.preprocessing() != Preprocessing::Ot {
        return Err(JobError::not_available(
            "preprocessing",
            "a mixed circuit's Spdz2k material is made over OT between the parties; there is no dealer for it",
        ));
    }
    if spec.instances == 0 {
        return Err(JobError::invalid_spec("instances", "instances must be at least 1"));
    }
    let owners = &spec.io.input_owners;
    // The session decides how many parties compute (every member does); the owners need at least
    // as many.
    let to = recipients(&spec.io.reveal);
    let parties = owners.iter().chain(to.iter().flatten()).max().map_or(2, |&p| (p + 1).max(2));
    check_io(&spec.io, spec.circuit.input_widths().len(), spec.circuit.output_widths().len(), MAX_PARTIES)?;
    per_instance(circuit, owners, &to, parties).map(|_| ())
}

/// Each output's recipient: `None` for every party.
fn recipients(reveal: &[Reveal]) -> Vec<Option<PartyId>> {
    reveal
        .iter()
        .map(|r| match *r {
            Reveal::Both => None,
            Reveal::To(p) => Some(p),
        })
        .collect()
}

/// What one instance among `parties` parties takes: its material and its random bits; a typed
/// error for a gate the evaluation does not support or an instance over its bounds.
fn per_instance(
    circuit: &MixedJobCircuit,
    owners: &[usize],
    to: &[Option<PartyId>],
    parties: usize,
) -> Result<(ArithDemand, usize), JobError> {
    let (mixed, ring, bits) = (circuit.circuit(), circuit.ring(), circuit.bit_inputs());
    let one = demand_to(mixed, ring, bits, owners, to, parties, 1).map_err(spec_error)?;
    let random_bits =
        Plan::with_bit_inputs(mixed, ring, bits).map_err(spec_error)?.random_lanes(ring.bits(), 1);
    let items = items(&one);
    if items > MAX_ITEMS {
        return Err(JobError::invalid_spec(
            "circuit",
            format!("one evaluation needs {items} triples or masks; the limit is {MAX_ITEMS}"),
        ));
    }
    Ok((one, random_bits))
}

/// The most triples or masks of one kind in `demand` (what the provider bounds per call).
fn items(demand: &ArithDemand) -> usize {
    demand.input_masks.iter().fold(demand.triples.max(demand.output_masks), |a, &b| a.max(b))
}

/// A planning error as the error of the spec field at fault.
fn spec_error(e: CoralError) -> JobError {
    match e {
        CoralError::Limit { .. } | CoralError::BadInput(_) => {
            JobError::invalid_spec("circuit", e.to_string())
        }
        e => JobError::Coral(e),
    }
}

/// Instances per chunk: within the material budget and the evaluation's bounds, at least one
/// (`one` and `random_bits`: what one instance takes).
fn chunk_size(circuit: &MixedCircuit, (one, random_bits): &(ArithDemand, usize), instances: usize) -> usize {
    let masks = one.input_masks.iter().sum::<usize>() + one.output_masks;
    let bytes = one.triples * TRIPLE_BYTES + masks * MASK_BYTES;
    let bounds = [
        stream::chunk_size(bytes, 1, instances),
        MAX_WIRE_VALUES / (circuit.wires as usize).max(1),
        MAX_RANDOM_BITS / random_bits.max(&1),
        MAX_ITEMS / items(one).max(1),
    ];
    bounds.into_iter().min().unwrap_or(1).max(1)
}

/// The values member `me` gives for inputs declared bits are 0 or 1 (the protocol would catch
/// anything else; an honest member learns it here, before anything is sent).
fn check_bit_values(me: usize, bits: &[u32], owners: &[usize], input: &CircuitInput) -> Result<(), JobError> {
    let mut is_bit = vec![false; owners.len()];
    for &w in bits.iter().filter(|&&w| (w as usize) < owners.len()) {
        is_bit[w as usize] = true;
    }
    let owned: Vec<usize> = (0..owners.len()).filter(|&v| owners[v] == me).collect();
    for (instance, values) in input.values.iter().enumerate() {
        for (&value, given) in owned.iter().zip(values) {
            if is_bit[value] && given.iter().skip(1).any(|&b| b) {
                return Err(JobError::InvalidInput {
                    party: me,
                    field: format!("inputs[{value}]"),
                    reason: format!("instance {instance}: input {value} is a boolean, 0 or 1"),
                });
            }
        }
    }
    Ok(())
}

/// This member's input values of one instance from their bits (least significant first).
fn values(bits: &[Vec<bool>]) -> Vec<u64> {
    bits.iter().map(|v| v.iter().rev().fold(0u64, |acc, &b| acc << 1 | u64::from(b))).collect()
}

/// The k bits of `value`, least significant first.
pub(crate) fn value_bits(value: u64, k: u32) -> Vec<bool> {
    (0..k).map(|i| value >> i & 1 == 1).collect()
}

/// Runs a validated circuit spec whose protocol is Coral and whose circuit is `circuit`
/// (the steps of the module docs); `observe` hears when each chunk's online phase starts and
/// when it is done.
pub(crate) async fn run<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &CircuitSpec,
    circuit: &MixedJobCircuit,
    input: CircuitInput,
    rng: &mut R,
    mut observe: impl FnMut(JobPhase),
) -> Result<CircuitOutput, JobError> {
    let (me, parties) = (net.party(), net.parties());
    let owners = &spec.io.input_owners;
    super::check_parties(parties, owners, &spec.io.reveal)?;
    input.check(me, false, spec.circuit.input_widths(), &spec.io, spec.instances)?;
    check_bit_values(me, circuit.bit_inputs(), owners, &input)?;
    let to = recipients(&spec.io.reveal);
    let one = per_instance(circuit, owners, &to, parties)?;
    let (mixed, ring, bits) = (circuit.circuit(), circuit.ring(), circuit.bit_inputs());
    let start = net.stats();

    let mut agreed = TAG.to_vec();
    agreed.push(ring.bits() as u8);
    agreed.extend_from_slice(&mixed.digest());
    agreed.extend_from_slice(&(owners.len() as u32).to_be_bytes());
    agreed.extend(owners.iter().map(|&p| p as u8));
    agreed.extend_from_slice(&(bits.len() as u32).to_be_bytes());
    agreed.extend(bits.iter().flat_map(|w| w.to_be_bytes()));
    agreed.extend_from_slice(&(to.len() as u32).to_be_bytes());
    agreed.extend(to.iter().map(|t| t.map_or(u8::MAX, |p| p as u8)));
    agreed.extend_from_slice(&(spec.instances as u64).to_be_bytes());
    let digest = agree_on_spec(net, &agreed).await?;

    let session = [b"chorus/coral-mixed/ot-prep/".as_slice(), &digest].concat();
    let arith = ArithRing::new(ring);
    let mut provider =
        ArithOtProvider::setup(net, arith, &session, ChaCha20Rng::from_seed(seed(rng))).await?;
    // Coral's provider for the conversions, set up by the first chunk that converts.
    let mut boolean_provider: Option<OtProvider> = None;
    let plan = Plan::with_bit_inputs(mixed, ring, bits).map_err(spec_error)?;
    let per_chunk = chunk_size(mixed, &one, spec.instances);
    let mut outputs = Vec::with_capacity(spec.instances);
    let mut online = NetStats::default();
    for range in stream::chunks(spec.instances, per_chunk) {
        let own: Vec<Vec<u64>> = input.values[range.clone()].iter().map(|v| values(v)).collect();
        let results = if plan.converts(ring.bits(), parties, range.len()) {
            let need = demand_converting(mixed, ring, bits, owners, &to, parties, range.len())?;
            let material = provider.material(net, &need.arith).await?;
            let params = super::params()?;
            let coral = boolean_provider.get_or_insert_with(|| {
                let session = [b"chorus/coral-mixed/conversions/".as_slice(), &digest].concat();
                OtProvider::new(params.clone(), ChaCha20Rng::from_seed(seed(rng)), &session)
            });
            let boolean_material = coral.material(net, &need.boolean).await?;
            observe(JobPhase::OnlineStarts);
            let before = net.stats();
            let mut party = ArithParty::new(me, parties, material, ChaCha20Rng::from_seed(seed(rng)))?;
            let mut boolean =
                Party::new(params, me, parties, boolean_material, ChaCha20Rng::from_seed(seed(rng)))?;
            let results =
                evaluate_converting(&mut party, &mut boolean, net, mixed, bits, owners, &to, &own).await?;
            online = online.plus(&net.stats().since(&before));
            results
        } else {
            let need = demand_to(mixed, ring, bits, owners, &to, parties, range.len())?;
            let material = provider.material(net, &need).await?;
            observe(JobPhase::OnlineStarts);
            let before = net.stats();
            let mut party = ArithParty::new(me, parties, material, ChaCha20Rng::from_seed(seed(rng)))?;
            let results = evaluate_to(&mut party, net, mixed, bits, owners, &to, &own).await?;
            online = online.plus(&net.stats().since(&before));
            results
        };
        outputs.extend(results.into_iter().map(|values| -> Outputs {
            values.into_iter().map(|v| v.map(|v| value_bits(v, ring.bits()))).collect()
        }));
        observe(JobPhase::Instances { done: range.end, total: spec.instances });
    }
    Ok(CircuitOutput::new(outputs, net.stats().since(&start), online))
}
