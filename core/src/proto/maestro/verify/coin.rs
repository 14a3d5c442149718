//! Coin tossing 𝓕_coin (MAESTRO Fig. 1) without Fiat–Shamir: a public random GF(2^64) challenge.
//!
//! Realized as the paper's §2.5 states — "𝓕_coin can be realized by running Reconst on a random
//! sharing from 𝓕_rand": the parties take a fresh PRSS sharing of a random element
//! ([`super::rss64::random`]) and open it ([`super::rss64::open`]). The value is unpredictable
//! to a single corrupt party before the opening round, because the component x_j it lacks comes
//! from the key k_j only the two other parties hold. A rushing adversary can make *one* honest
//! party see a different coin by lying about its component, but the coin is part of the
//! [`PublicView`], so the split is detected at the next hash comparison — before any output.
//! This costs one round and 8 bytes per party per coin (commit-then-open with hashes would cost
//! two rounds).

use super::rss64::{open, random};
use super::view::PublicView;
use crate::net::Network;
use crate::proto::maestro::error::{MaestroError, Step};
use crate::proto::maestro::online::Party;

/// A public uniformly random GF(2^64) element, recorded in `view`. One round, 8 bytes per party.
pub async fn toss<N: Network>(
    party: &mut Party,
    net: &mut N,
    view: &mut PublicView,
) -> Result<u64, MaestroError> {
    let sharing = random(party, 1);
    let coin = open(party, net, view, &sharing, Step::Coin).await?;
    Ok(coin[0])
}
