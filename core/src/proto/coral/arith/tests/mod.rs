//! Tests of the Spdz2k half of mixed circuits: integer programs and random ring circuits against
//! the plaintext evaluator (n = 2, 3, 4; k = 32, 64; 1 and many instances), attacks caught by
//! the MAC check with no output, exact bytes and rounds.

mod attacks;
mod cost;
mod ot_provider;
mod programs;

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use super::online::ArithParty;
use super::prep::{ArithDealer, ArithDemand, ArithMaterial};
use super::ring::ArithRing;
use crate::circuit::mixed::tests::{io, text};
use crate::circuit::mixed::{MixedCircuit, MixedOp, RingBits};
use crate::net::memory::MemoryNetwork;
use crate::net::tamper::Tamper;
use crate::net::Network;
use crate::proto::coral::error::CoralError;
use crate::rng::seeded_rng;

pub(super) fn deal(seed: u64, ring: RingBits, parties: usize, demand: &ArithDemand) -> Vec<ArithMaterial> {
    ArithDealer::new(seeded_rng(seed)).deal(ArithRing::new(ring), parties, demand).expect("dealer")
}

type Edit = Box<dyn FnMut(u64, &mut Vec<u8>)>;

/// How the attacker (if any) deviates: an edit of its sent messages and/or of its material.
pub(super) struct Deviation {
    pub attacker: usize,
    pub edit: Edit,
    pub material: Box<dyn FnOnce(&mut ArithMaterial)>,
}

impl Deviation {
    pub fn none() -> Self {
        Deviation { attacker: usize::MAX, edit: Box::new(|_, _| {}), material: Box::new(|_| {}) }
    }

    pub fn wire(attacker: usize, edit: impl FnMut(u64, &mut Vec<u8>) + 'static) -> Self {
        Deviation { attacker, edit: Box::new(edit), material: Box::new(|_| {}) }
    }

    pub fn material(attacker: usize, f: impl FnOnce(&mut ArithMaterial) + 'static) -> Self {
        Deviation { attacker, edit: Box::new(|_, _| {}), material: Box::new(f) }
    }
}

/// Runs `body` at every party of an in-memory session; returns the results in party order and
/// the step tags each party sent.
pub(super) fn run<T, F, Fut>(
    materials: Vec<ArithMaterial>,
    deviation: Deviation,
    body: F,
) -> (Vec<Result<T, CoralError>>, Vec<Vec<u8>>)
where
    F: Fn(ArithParty, Tamper<'static, MemoryNetwork>) -> Fut,
    Fut: Future<Output = Result<T, CoralError>>,
{
    let n = materials.len();
    let Deviation { attacker, edit, material } = deviation;
    let mut materials = materials;
    if attacker < n {
        material(&mut materials[attacker]);
    }
    let edit = RefCell::new(Some(edit));
    let slots = RefCell::new(materials.into_iter().map(Some).collect::<Vec<_>>());
    let sent: Rc<RefCell<Vec<Vec<u8>>>> = Rc::new(RefCell::new(vec![Vec::new(); n]));
    let futures: Vec<_> = MemoryNetwork::session(n)
        .into_iter()
        .map(|net| {
            let me = net.party();
            let log = sent.clone();
            let net = if me == attacker {
                let mut e = edit.borrow_mut().take().expect("one attacker");
                Tamper::new(net, move |i, m| {
                    log.borrow_mut()[me].push(m.first().copied().unwrap_or(0));
                    e(i, m)
                })
            } else {
                Tamper::new(net, move |_, m| log.borrow_mut()[me].push(m.first().copied().unwrap_or(0)))
            };
            let material = slots.borrow_mut()[me].take().expect("material");
            let party = ArithParty::new(me, n, material, seeded_rng(2000 + me as u64)).expect("party");
            body(party, net)
        })
        .collect();
    let results = futures::executor::block_on(futures::future::join_all(futures));
    let tags = sent.borrow().clone();
    (results, tags)
}

pub(super) use crate::circuit::mixed::gen::dot_product;

/// A random circuit of ring gates on `inputs` inputs and one constant, `gates` gates, the last
/// `outputs` wires as outputs.
pub(super) fn random_ring_circuit(
    rng: &mut ChaCha20Rng,
    inputs: u32,
    gates: u32,
    outputs: usize,
) -> MixedCircuit {
    use MixedOp::*;
    let ops = [Add, Sub, Mul, Mul, UnarySub, UnaryAdd];
    let constant = inputs;
    let mut list = Vec::new();
    for g in 0..gates {
        let wires = inputs + 1 + g;
        let op = ops[rng.next_u32() as usize % ops.len()];
        let (a, b) = (rng.next_u32() % wires, rng.next_u32() % wires);
        list.push((op, a, b, wires));
    }
    let constant_value = rng.next_u64();
    MixedCircuit::parse(
        &text(inputs + 1 + gates, inputs as usize, outputs, &list),
        &io(&[(u64::from(constant), constant_value)]),
    )
    .expect("parses")
}

/// Random inputs: `instances` × (one value per input below 2^k).
pub(super) fn random_inputs(
    rng: &mut ChaCha20Rng,
    circuit: &MixedCircuit,
    ring: RingBits,
    instances: usize,
) -> Vec<Vec<u64>> {
    (0..instances).map(|_| (0..circuit.inputs).map(|_| rng.next_u64() & ring.mask()).collect()).collect()
}

/// The values of `party` in each instance, in input order.
pub(super) fn own(inputs: &[Vec<u64>], owners: &[usize], party: usize) -> Vec<Vec<u64>> {
    inputs
        .iter()
        .map(|values| values.iter().zip(owners).filter(|(_, &o)| o == party).map(|(&v, _)| v).collect())
        .collect()
}

pub(super) fn seeded(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}
