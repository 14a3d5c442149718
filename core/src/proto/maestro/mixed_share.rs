//! State bytes that are either replicated ⟦·⟧ or (3,3) additively ⟨⟨·⟩⟩ shared, the share type of
//! the (3,3) LUT-256 S-box ([`super::sbox::lut256_33`]; MAESTRO §3.5.3, Protocol 7).
//!
//! Protocol 7 carries the AES state additively between S-box layers: the lookup of Protocol 6
//! outputs ⟨⟨S(x)⟩⟩, the linear layer and round-key addition run on it locally, and only the
//! input of the first layer and the final output are replicated. [`MixedShare`] lets the one AES
//! driver ([`super::aes`]) do exactly that: the sum of two replicated shares stays replicated,
//! any sum involving an additive share is additive (a replicated share contributes its first
//! component x_party, and x₀ + x₁ + x₂ = x). Which form a byte is in depends only on the
//! protocol's public control flow, never on secrets.
//!
//! [`to_replicated`] is the "Reshare" of Protocol 7 step 8 (§2.6 "Share Conversion"): party i
//! sends tᵢ + αᵢ (α a PRSS zero sharing) to party i−1 — one byte per element, one round.

use super::error::{MaestroError, Step};
use super::msg::{recv_elements, send_elements};
use super::online::Party;
use super::rss::RssShare;
use crate::aes::AesByte;
use crate::field::Gf256;
use crate::net::{Network, PartyId};
use core::ops::{Add, AddAssign};

/// Party `party`'s component tₚ of a (3,3) additive sharing t = t₀ + t₁ + t₂.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AdditiveShare {
    value: Gf256,
    party: u8,
}

impl AdditiveShare {
    /// The component `value` of party `party`.
    ///
    /// # Panics
    /// If `party > 2` (a programming error: party indices come from a validated session).
    pub fn new(party: PartyId, value: Gf256) -> Self {
        assert!(party < 3, "AdditiveShare: party {party} is not 0, 1 or 2");
        AdditiveShare { value, party: party as u8 }
    }

    /// This party's component.
    pub fn value(self) -> Gf256 {
        self.value
    }

    /// The party holding this share.
    pub fn party(self) -> PartyId {
        self.party as PartyId
    }

    /// Sums all three parties' components, or `None` if they are not parties 0, 1, 2 in order.
    pub fn reconstruct(shares: &[AdditiveShare; 3]) -> Option<Gf256> {
        let ordered = (0..3).all(|i| shares[i].party() == i);
        ordered.then(|| shares[0].value + shares[1].value + shares[2].value)
    }
}

/// A state byte in replicated or additive form (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MixedShare {
    /// ⟦x⟧: the (2,3) replicated pair.
    Replicated(RssShare),
    /// ⟨⟨x⟩⟩: one (3,3) additive component.
    Additive(AdditiveShare),
}

impl From<RssShare> for MixedShare {
    fn from(share: RssShare) -> Self {
        MixedShare::Replicated(share)
    }
}

impl MixedShare {
    /// The additive form: a replicated share contributes its first component x_party.
    #[inline]
    pub fn to_additive(self) -> AdditiveShare {
        match self {
            MixedShare::Replicated(s) => AdditiveShare { value: s.first(), party: s.party() as u8 },
            MixedShare::Additive(a) => a,
        }
    }

    /// The replicated share, or `None` for an additive one (see [`to_replicated`]).
    pub fn as_replicated(self) -> Option<RssShare> {
        match self {
            MixedShare::Replicated(s) => Some(s),
            MixedShare::Additive(_) => None,
        }
    }

    /// Whether this byte is replicated.
    pub fn is_replicated(self) -> bool {
        matches!(self, MixedShare::Replicated(_))
    }
}

impl Add for MixedShare {
    type Output = Self;

    #[inline]
    fn add(self, rhs: Self) -> Self {
        match (self, rhs) {
            (MixedShare::Replicated(a), MixedShare::Replicated(b)) => MixedShare::Replicated(a + b),
            (a, b) => {
                let (a, b) = (a.to_additive(), b.to_additive());
                MixedShare::Additive(AdditiveShare { value: a.value + b.value, party: a.party })
            }
        }
    }
}

impl AddAssign for MixedShare {
    #[inline]
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl AesByte for MixedShare {
    #[inline]
    fn xtime(self) -> Self {
        match self {
            MixedShare::Replicated(s) => MixedShare::Replicated(s.xtime()),
            MixedShare::Additive(a) => MixedShare::Additive(AdditiveShare { value: a.value.xtime(), ..a }),
        }
    }

    /// A replicated share follows [`RssShare`]'s convention (component x₀); an additive share
    /// adds the constant at party 0, whose x₀ is its first component — the same convention, so
    /// forms can be mixed freely.
    #[inline]
    fn add_public(self, c: u8) -> Self {
        match self {
            MixedShare::Replicated(s) => MixedShare::Replicated(s.add_public(c)),
            MixedShare::Additive(a) => {
                let c = if a.party == 0 { c } else { 0 };
                MixedShare::Additive(AdditiveShare { value: a.value + Gf256(c), ..a })
            }
        }
    }
}

/// A share type the AES driver runs on ([`super::sbox::SboxLayer::Share`]): inputs enter as
/// replicated shares, and outputs are read back as replicated shares once reshared.
pub trait StateShare: AesByte + From<RssShare> {
    /// The replicated share, or `None` if this byte is in another sharing.
    fn replicated_share(self) -> Option<RssShare>;
}

impl StateShare for RssShare {
    fn replicated_share(self) -> Option<RssShare> {
        Some(self)
    }
}

impl StateShare for MixedShare {
    fn replicated_share(self) -> Option<RssShare> {
        self.as_replicated()
    }
}

/// The replicated shares of `shares`, or [`MaestroError::NotReplicated`] naming the first that is
/// not replicated.
pub fn replicated_shares<T: StateShare>(shares: &[T]) -> Result<Vec<RssShare>, MaestroError> {
    shares
        .iter()
        .enumerate()
        .map(|(index, &s)| s.replicated_share().ok_or(MaestroError::NotReplicated { index }))
        .collect()
}

/// Replaces every additive byte by a replicated sharing of the same value (Protocol 7 step 8):
/// one message of one byte per element to party i−1, one round; nothing is sent if every byte is
/// already replicated.
pub async fn to_replicated<N: Network>(
    party: &mut Party,
    net: &mut N,
    bytes: &mut [MixedShare],
) -> Result<(), MaestroError> {
    if bytes.iter().all(|b| b.is_replicated()) {
        return Ok(());
    }
    let me = party.id();
    let mut z = party.prss_mut().zero(bytes.len());
    for (z, b) in z.iter_mut().zip(bytes.iter()) {
        *z += b.to_additive().value;
    }
    // The share conversion of §2.6, the resharing step of a multiplication.
    send_elements(net, (me + 2) % 3, &z, Step::Multiply)?;
    let z_next = recv_elements(net, (me + 1) % 3, bytes.len(), Step::Multiply).await?;
    for ((b, f), s) in bytes.iter_mut().zip(z).zip(z_next) {
        *b = MixedShare::Replicated(RssShare::new(me, f, s));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::linear::{inv_mix_columns, mix_columns, shift_rows};
    use crate::net::memory::run_session;
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    /// Additive shares of `v`: random components for parties 0 and 1, the rest for party 2.
    fn deal_additive(v: Gf256, rng: &mut ChaCha20Rng) -> [MixedShare; 3] {
        let (a, b) = (Gf256((rng.next_u32() & 0xff) as u8), Gf256((rng.next_u32() & 0xff) as u8));
        let components = [a, b, v + a + b];
        core::array::from_fn(|p| MixedShare::Additive(AdditiveShare::new(p, components[p])))
    }

    fn open(shares: [MixedShare; 3]) -> Gf256 {
        match shares.map(MixedShare::as_replicated) {
            [Some(a), Some(b), Some(c)] => RssShare::reconstruct(&[a, b, c]).expect("consistent"),
            _ => AdditiveShare::reconstruct(&shares.map(MixedShare::to_additive)).expect("ordered"),
        }
    }

    #[test]
    fn linear_layer_on_mixed_forms_matches_plain_bytes() {
        let mut rng = ChaCha20Rng::seed_from_u64(80);
        let plain: [Gf256; 16] = core::array::from_fn(|_| Gf256((rng.next_u32() & 0xff) as u8));
        let key: [Gf256; 16] = core::array::from_fn(|_| Gf256((rng.next_u32() & 0xff) as u8));
        // Even bytes replicated, odd bytes additive; the key replicated.
        let state: Vec<[MixedShare; 3]> = plain
            .iter()
            .enumerate()
            .map(|(j, &v)| {
                if j % 2 == 0 {
                    RssShare::deal(v, &mut rng).map(MixedShare::from)
                } else {
                    deal_additive(v, &mut rng)
                }
            })
            .collect();
        let key_shares: Vec<[MixedShare; 3]> =
            key.iter().map(|&v| RssShare::deal(v, &mut rng).map(MixedShare::from)).collect();
        let mut expected = plain;
        shift_rows(&mut expected);
        mix_columns(&mut expected);
        inv_mix_columns(&mut expected);
        mix_columns(&mut expected);
        let expected: Vec<Gf256> = expected.iter().zip(&key).map(|(&s, &k)| s.add_public(0x63) + k).collect();
        let mut per_party: [[MixedShare; 16]; 3] =
            core::array::from_fn(|p| core::array::from_fn(|j| state[j][p]));
        for (p, s) in per_party.iter_mut().enumerate() {
            shift_rows(s);
            mix_columns(s);
            inv_mix_columns(s);
            mix_columns(s);
            for (j, b) in s.iter_mut().enumerate() {
                *b = b.add_public(0x63) + key_shares[j][p];
            }
        }
        for j in 0..16 {
            assert_eq!(open(core::array::from_fn(|p| per_party[p][j])), expected[j], "byte {j}");
        }
        // Replicated + replicated stays replicated; anything with an additive share is additive.
        assert!((key_shares[0][1] + key_shares[1][1]).is_replicated());
        assert!(!(key_shares[0][1] + state[1][1]).is_replicated());
    }

    #[test]
    fn resharing_gives_consistent_replicated_shares_in_one_round() {
        let mut rng = ChaCha20Rng::seed_from_u64(81);
        let values: Vec<Gf256> = (0..=255u8).map(Gf256).collect();
        let dealt: Vec<[MixedShare; 3]> = values.iter().map(|&v| deal_additive(v, &mut rng)).collect();
        let results = run_session(3, |mut net| {
            let mut bytes: Vec<MixedShare> = dealt.iter().map(|d| d[net.party()]).collect();
            async move {
                let mut r = ChaCha20Rng::seed_from_u64(82 + net.party() as u64);
                let mut party = Party::setup(&mut net, &mut r).await.unwrap();
                let before = net.stats();
                to_replicated(&mut party, &mut net, &mut bytes).await.unwrap();
                let stats = net.stats().since(&before);
                // Already replicated: nothing to send.
                let before = net.stats();
                to_replicated(&mut party, &mut net, &mut bytes).await.unwrap();
                (bytes, stats, net.stats().since(&before).bytes_sent)
            }
        });
        for (k, v) in values.iter().enumerate() {
            let shares = [0, 1, 2].map(|p| results[p].0[k].as_replicated().expect("replicated"));
            assert_eq!(RssShare::reconstruct(&shares), Some(*v));
        }
        for (_, stats, again) in &results {
            assert_eq!((stats.bytes_sent, stats.messages_sent, stats.rounds, *again), (256, 1, 1, 0));
        }
    }
}
