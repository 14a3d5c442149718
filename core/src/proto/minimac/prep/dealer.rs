//! The **trusted dealer** ([`TrustedDealer`]): a third party that sees every value, the whole MAC
//! key and every party's shares generates the material, and [`DealtMaterial`] hands one party's
//! dealt material out through [`MiniMacPreprocessing`].
//!
//! **Trust model:** security holds only if the dealer is honest and colludes with nobody; it is for
//! tests, demos and benchmarks of the online phase. Two parties that trust nobody use the OT-based
//! provider ([`super::ot::OtPreprocessing`]) instead.

use super::{xor_into, MiniMacPreprocessing, PartyPrep, PrepRequest, TRIPLE_WORDS};
use crate::field::Gf256;
use crate::net::Network;
use crate::proto::minimac::error::MiniMacError;
use rand_core::{CryptoRng, RngCore};

/// The trusted-dealer provider (see the module docs for its trust model).
#[derive(Debug)]
pub struct TrustedDealer<R> {
    rng: R,
}

impl<R: RngCore + CryptoRng> TrustedDealer<R> {
    /// A dealer drawing its randomness from `rng`.
    pub fn new(rng: R) -> Self {
        TrustedDealer { rng }
    }

    /// Every party's material for `request`, in party order.
    pub fn deal(&mut self, request: &PrepRequest) -> Result<Vec<PartyPrep>, MiniMacError> {
        let parties = request.parties;
        if parties < 2 {
            return Err(MiniMacError::TooFewParties(parties));
        }
        if let Some(p) = request.input_owners.iter().find(|&&p| p >= parties) {
            return Err(MiniMacError::BadInput(format!(
                "input owner {p} is not one of the {parties} parties"
            )));
        }
        if let Some(p) = request.output_recipients.iter().flatten().find(|&&p| p >= parties) {
            return Err(MiniMacError::BadInput(format!(
                "output recipient {p} is not one of the {parties} parties"
            )));
        }
        let private_outputs = request.output_recipients.iter().flatten().count();
        let code = request.code.code();
        let (n, k, k_star) = (code.n(), code.k(), code.star.k());
        let mut out: Vec<PartyPrep> = (0..parties)
            .map(|party| PartyPrep {
                party,
                parties,
                code: request.code,
                alpha: self.bytes(n),
                and_gates: request.and_gates,
                instances: code.instances(),
                triples: Vec::with_capacity(request.and_gates * TRIPLE_WORDS * 2 * n),
                input_owners: request.input_owners.clone(),
                input_masks: Vec::with_capacity(request.input_owners.len() * 2 * n),
                own_masks: Vec::new(),
                output_recipients: request.output_recipients.clone(),
                output_masks: Vec::with_capacity(private_outputs * 2 * n),
                own_output_masks: Vec::new(),
            })
            .collect();
        let mut alpha = vec![0u8; n];
        for p in &out {
            xor_into(&mut alpha, &p.alpha);
        }
        let mut sharer = Sharer { alpha, n, scratch: vec![0u8; 2 * n] };

        let mut systematic = vec![Gf256(0); k_star];
        let mut word = vec![Gf256(0); n];
        for _ in 0..request.and_gates {
            let a = self.bytes(k);
            let b = self.bytes(k);
            let c: Vec<u8> = a.iter().zip(&b).map(|(x, y)| x & y).collect();
            for data in [&a, &b, &c] {
                // A uniformly random codeword of C* with `data` in its first k positions.
                Gf256::as_bytes_mut(&mut systematic[..k]).copy_from_slice(data);
                self.rng.fill_bytes(Gf256::as_bytes_mut(&mut systematic[k..]));
                code.star.encode_into(&systematic, &mut word)?;
                sharer.share(&mut self.rng, Gf256::as_bytes(&word), &mut out, |p| &mut p.triples);
            }
            for data in [&a, &b] {
                let message = Gf256::from_bytes(data);
                for bit in 0..8u32 {
                    // [[x^i]] = x^i · C(x↓i), by the constant-time plane encoding (x is secret).
                    let plane = code.c.encode_bit_plane(message, bit)?;
                    word.fill(Gf256(0));
                    Gf256::mul_add_scalar_slice(&mut word, &plane, Gf256(1 << bit));
                    sharer.share(&mut self.rng, Gf256::as_bytes(&word), &mut out, |p| &mut p.triples);
                }
            }
        }
        for &owner in &request.input_owners {
            let r = self.bytes(k);
            code.c.encode_into(Gf256::from_bytes(&r), &mut word)?;
            sharer.share(&mut self.rng, Gf256::as_bytes(&word), &mut out, |p| &mut p.input_masks);
            out[owner].own_masks.extend_from_slice(&r);
        }
        for &recipient in request.output_recipients.iter().flatten() {
            // A uniformly random codeword of C* (random data and random non-data coefficients), so
            // that `x + s` is uniform in C* whatever the output codeword x; only its data goes to
            // the recipient.
            let s = self.bytes(k);
            Gf256::as_bytes_mut(&mut systematic[..k]).copy_from_slice(&s);
            self.rng.fill_bytes(Gf256::as_bytes_mut(&mut systematic[k..]));
            code.star.encode_into(&systematic, &mut word)?;
            sharer.share(&mut self.rng, Gf256::as_bytes(&word), &mut out, |p| &mut p.output_masks);
            out[recipient].own_output_masks.extend_from_slice(&s);
        }
        Ok(out)
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut v = vec![0u8; len];
        self.rng.fill_bytes(&mut v);
        v
    }
}

/// Splits codewords and their MACs into additive shares.
struct Sharer {
    alpha: Vec<u8>,
    n: usize,
    scratch: Vec<u8>,
}

impl Sharer {
    /// Appends a share of `word` and of `α ∗ word` (`2n` bytes) to each party's buffer.
    fn share<R: RngCore>(
        &mut self,
        rng: &mut R,
        word: &[u8],
        parties: &mut [PartyPrep],
        buffer: impl Fn(&mut PartyPrep) -> &mut Vec<u8>,
    ) {
        let n = self.n;
        let (value, mac) = self.scratch.split_at_mut(n);
        value.copy_from_slice(word);
        Gf256::mul_slices(
            Gf256::from_bytes_mut(mac),
            Gf256::from_bytes(&self.alpha),
            Gf256::from_bytes(word),
        );
        for p in parties.iter_mut().skip(1) {
            let buf = buffer(p);
            let start = buf.len();
            buf.resize(start + 2 * n, 0);
            rng.fill_bytes(&mut buf[start..]);
            xor_into(&mut self.scratch, &buf[start..]);
        }
        buffer(&mut parties[0]).extend_from_slice(&self.scratch);
    }
}

/// The trusted dealer's output for one party, handed out through [`MiniMacPreprocessing`]
/// (in-process dealing: the network is not used).
#[derive(Debug)]
pub struct DealtMaterial {
    material: Option<PartyPrep>,
}

impl DealtMaterial {
    /// Wraps one party's dealt material.
    pub fn new(material: PartyPrep) -> Self {
        DealtMaterial { material: Some(material) }
    }
}

impl MiniMacPreprocessing for DealtMaterial {
    async fn material<N: Network>(
        &mut self,
        net: &mut N,
        request: &PrepRequest,
    ) -> Result<PartyPrep, MiniMacError> {
        let m = self.material.take().ok_or(MiniMacError::NotEnoughMaterial {
            what: "dealt batches",
            needed: 1,
            available: 0,
        })?;
        let fits = m.party == net.party()
            && m.parties == request.parties
            && m.code == request.code
            && m.and_gates >= request.and_gates
            && m.input_owners == request.input_owners
            && m.output_recipients == request.output_recipients;
        if !fits {
            return Err(MiniMacError::MaterialMismatch(format!(
                "dealt material {m:?} does not match the request for party {}",
                net.party()
            )));
        }
        Ok(m)
    }
}
