//! Tests of Coral: plaintext agreement (FIPS-197 AES, random Bristol circuits, partial packs,
//! n = 2 and 3), property tests of quintuples and rConv, attacks, the MAC check on its own, exact
//! costs.

mod attacks;
mod circuits;
mod cost;
mod mac_check;
mod ops;
mod ot_provider;
mod ot_provider_n;
mod private;
mod props;
mod quintuples;

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

use crate::circuit::Circuit;
use crate::net::memory::MemoryNetwork;
use crate::net::tamper::Tamper;
use crate::net::Network;
use crate::rng::seeded_rng;

use super::error::CoralError;
use super::messages::{Step, HEADER_BYTES};
use super::online::Party;
use super::prep::dealer::TrustedDealer;
use super::prep::{CoralMaterial, Demand};
use super::share::CoralParams;

pub(super) fn params() -> Arc<CoralParams> {
    static P: OnceLock<Arc<CoralParams>> = OnceLock::new();
    P.get_or_init(|| Arc::new(CoralParams::new().expect("Table 1 set 1 builds"))).clone()
}

pub(super) fn aes_circuit() -> &'static Circuit {
    static C: OnceLock<Circuit> = OnceLock::new();
    C.get_or_init(|| {
        let path = format!("{}/../circuits/aes_128.txt", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        Circuit::parse_bristol(&text).expect("aes_128.txt parses")
    })
}

pub(super) fn deal(seed: u64, parties: usize, demand: &Demand) -> Vec<CoralMaterial> {
    TrustedDealer::new(seeded_rng(seed)).deal(&params(), parties, demand).expect("dealer")
}

/// How the attacker (if any) deviates: an edit of its sent messages and/or of its material
/// (Coral's, or another material type `M` of the protocols under `proto::coral`).
type Edit = Box<dyn FnMut(u64, &mut Vec<u8>)>;

pub(in crate::proto::coral) struct Deviate<M> {
    pub attacker: usize,
    pub edit: Edit,
    pub material: Box<dyn FnOnce(&mut M)>,
}

impl<M> Deviate<M> {
    pub fn none() -> Self {
        Deviate { attacker: usize::MAX, edit: Box::new(|_, _| {}), material: Box::new(|_| {}) }
    }

    pub fn wire(attacker: usize, edit: impl FnMut(u64, &mut Vec<u8>) + 'static) -> Self {
        Deviate { attacker, edit: Box::new(edit), material: Box::new(|_| {}) }
    }

    pub fn material(attacker: usize, f: impl FnOnce(&mut M) + 'static) -> Self {
        Deviate { attacker, edit: Box::new(|_, _| {}), material: Box::new(f) }
    }
}

/// A deviation of a Coral party.
pub(super) type Deviation = Deviate<CoralMaterial>;

/// Runs `body` at every party of an in-memory session with the dealt `materials`, the attacker's
/// messages going through its edit. Results in party order.
pub(super) fn run<T, F, Fut>(
    materials: Vec<CoralMaterial>,
    deviation: Deviation,
    body: F,
) -> Vec<Result<T, CoralError>>
where
    F: Fn(Party, Tamper<'static, MemoryNetwork>) -> Fut,
    Fut: Future<Output = Result<T, CoralError>>,
{
    run_recorded(materials, deviation, body).0
}

/// As [`run`], also returning the step tags of the messages each party sent.
pub(super) fn run_recorded<T, F, Fut>(
    materials: Vec<CoralMaterial>,
    deviation: Deviation,
    body: F,
) -> (Vec<Result<T, CoralError>>, Vec<Vec<u8>>)
where
    F: Fn(Party, Tamper<'static, MemoryNetwork>) -> Fut,
    Fut: Future<Output = Result<T, CoralError>>,
{
    run_parties(
        materials,
        deviation,
        |me, n, m| Party::new(params(), me, n, m, seeded_rng(1000 + me as u64)).expect("party"),
        body,
    )
}

/// Runs `body` at every party of an in-memory session: party `me` of `n` is `party(me, n, its
/// material)`, the attacker's material and messages deviate. Returns the results in party order
/// and the step tags each party sent.
pub(in crate::proto::coral) fn run_parties<M, P, T, F, Fut>(
    materials: Vec<M>,
    deviation: Deviate<M>,
    party: impl Fn(usize, usize, M) -> P,
    body: F,
) -> (Vec<Result<T, CoralError>>, Vec<Vec<u8>>)
where
    F: Fn(P, Tamper<'static, MemoryNetwork>) -> Fut,
    Fut: Future<Output = Result<T, CoralError>>,
{
    let n = materials.len();
    let Deviate { attacker, edit, material } = deviation;
    let mut materials = materials;
    if attacker < n {
        material(&mut materials[attacker]);
    }
    let edit = RefCell::new(Some(edit));
    let slots = RefCell::new(materials.into_iter().map(Some).collect::<Vec<_>>());
    let nets = MemoryNetwork::session(n);
    let sent: Rc<RefCell<Vec<Vec<u8>>>> = Rc::new(RefCell::new(vec![Vec::new(); n]));
    let futures: Vec<_> = nets
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
            body(party(me, n, material), net)
        })
        .collect();
    let results = futures::executor::block_on(futures::future::join_all(futures));
    let tags = sent.borrow().clone();
    (results, tags)
}

/// An edit applied to the `nth` message (from 0) the attacker sends with step tag `step`.
pub(in crate::proto::coral) fn on_step(
    step: Step,
    nth: usize,
    mut f: impl FnMut(&mut Vec<u8>) + 'static,
) -> impl FnMut(u64, &mut Vec<u8>) + 'static {
    let mut seen = 0usize;
    move |_, msg| {
        if msg.first() == Some(&(step as u8)) {
            if seen == nth {
                f(msg);
            }
            seen += 1;
        }
    }
}

pub(in crate::proto::coral) fn flip_payload_bit(bit: usize) -> impl FnMut(&mut Vec<u8>) {
    move |msg| msg[HEADER_BYTES + bit / 8] ^= 1 << (bit % 8)
}
