//! Exact bytes and rounds of a Spdz2k circuit evaluation against the formula of
//! [`crate::proto::coral::arith::circuit`]'s docs.

use super::{deal, dot_product, own, random_inputs, run, seeded, Deviation};
use crate::circuit::mixed::RingBits;
use crate::net::Network;
use crate::proto::coral::arith::circuit::{demand, evaluate};
use crate::proto::coral::arith::ArithRing;
use crate::proto::coral::messages::HEADER_BYTES;

#[test]
fn bytes_and_rounds_of_a_dot_product_are_exact() {
    let len = 10u32;
    let circuit = dot_product(len);
    let owners: Vec<usize> = (0..2 * len as usize).map(|i| usize::from(i >= len as usize)).collect();
    for (ring, instances) in [(RingBits::K32, 1usize), (RingBits::K64, 7)] {
        let inputs = random_inputs(&mut seeded(3), &circuit, ring, instances);
        let d = demand(&circuit, ring, &owners, 2, instances).unwrap();
        let (results, sent) = run(deal(6, ring, 2, &d), Deviation::none(), |mut party, mut net| {
            let mine = own(&inputs, &owners, party.party());
            let (circuit, owners) = (&circuit, owners.clone());
            async move {
                evaluate(&mut party, &mut net, circuit, &owners, &mine).await?;
                Ok(net.stats())
            }
        });
        let e = ArithRing::new(ring).element_bytes();
        // Multiplicative depth 1; 7·x_0 is a product with a public value, so local.
        let rounds = 1 + 1 + 9;
        let muls = len as usize * instances;
        let outputs = 2 * instances;
        let checks = 2 * (32 + 32 + 32 + (e + 32));
        for (p, stats) in results.into_iter().enumerate() {
            let stats = stats.unwrap();
            let own_inputs = len as usize * instances;
            let payload = e * own_inputs + 2 * e * muls + e * outputs + checks;
            assert_eq!(
                stats.bytes_sent as usize,
                payload + rounds * HEADER_BYTES,
                "party {p}, k = {}",
                ring.bits()
            );
            assert_eq!(stats.messages_sent as usize, rounds, "party {p}");
            assert_eq!(stats.rounds as usize, rounds, "party {p}");
            assert_eq!(sent[p].len(), rounds);
        }
    }
}
