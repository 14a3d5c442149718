//! Joint AES with three parties under MAESTRO (MAESTRO §2, Table 1), as one job: spec agreement,
//! PRSS setup, the lookup-table variants' preprocessing for every S-box of the job, inputs, key
//! schedule in MPC, encryption or decryption ([`Direction`]) of a batch of blocks, and opening to
//! the chosen parties.
//!
//! The spec names the S-box variant ([`SboxVariant`]) and the security level ([`Security`]).
//! Semi-honest: GF(2^8)-circuit, GF(2^4)-circuit, LUT-16, (2,3) LUT-256. Malicious with abort
//! (§2.7): GF(2^8)-circuit, GF(2^4)-circuit, LUT-16 and (3,3) LUT-256 — every multiplication is
//! recorded and verified by Protocol 2 and every opening hash-compared (§2.4) before the output
//! is revealed, so a deviating party makes the honest ones fail with a typed error and learn no
//! output. Other combinations fail with [`JobError::NotAvailable`] before any communication.
//!
//! Inputs: the key is the XOR of the shares supplied by the `key_holders` (one holder = the key
//! itself; two or three holders = nobody ever holds the key), and the plaintext comes from one
//! party. This is what lets, say, two browser tabs each hold half a key and a third encrypt.
//!
//! Before anything secret is sent, parties exchange a SHA-256 digest of the encoded spec; any
//! difference aborts with [`JobError::SpecMismatch`] naming the disagreeing party.

pub use super::aes::{AesOutput, JobPhase};
use super::agreement::agree_on_spec;
pub use super::error::JobError;
pub use super::options::{Direction, SboxVariant, DEFAULT_SECURITY, DEFAULT_VARIANT};
pub use super::security::Security;
use crate::aes::KeySize;
use crate::field::Gf256;
use crate::net::{NetStats, Network, PartyId};
use crate::proto::maestro::aes::{decrypt_blocks, encrypt_blocks, expand_key, to_blocks};
use crate::proto::maestro::malicious::{
    MaliciousAdditiveLut256Sbox, MaliciousGf16CircuitSbox, MaliciousGf256CircuitSbox, MaliciousLut16Sbox,
    MaliciousLut256Sbox, MaliciousSboxLayer,
};
use crate::proto::maestro::mixed_share::{replicated_shares, StateShare};
use crate::proto::maestro::{
    AdditiveLut256Sbox, Gf16CircuitSbox, Gf256CircuitSbox, Lut16Sbox, Lut256Sbox, MaestroError, Party,
    RssShare, SboxLayer,
};
use rand_core::{CryptoRng, RngCore};

/// What all three parties agree to compute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AesJobSpec {
    /// How the S-box is evaluated.
    pub variant: SboxVariant,
    /// The security level: semi-honest, or malicious with abort (every variant but (2,3)
    /// LUT-256; outputs are revealed only after the §2.7 verification and §2.4 hash comparison).
    pub security: Security,
    /// Encrypt or decrypt the blocks (the "plaintext" input is then the ciphertext).
    pub direction: Direction,
    /// AES-128, -192 or -256.
    pub key_size: KeySize,
    /// Number of 16-byte blocks encrypted under the key.
    pub blocks: usize,
    /// Parties that each input an XOR share of the key (1 to 3 distinct parties, ascending).
    pub key_holders: Vec<PartyId>,
    /// The party that inputs the plaintext.
    pub plaintext_owner: PartyId,
    /// Parties that learn the ciphertext (the others learn nothing).
    pub reveal_to: Vec<PartyId>,
}

/// This party's private inputs: the shared AES job's.
pub type AesJobInput = super::AesInput;

impl AesJobSpec {
    /// Checks the spec for a three-party session.
    pub fn validate(&self) -> Result<(), JobError> {
        let bad = |field: &'static str, m: String| Err(JobError::invalid_spec(field, m));
        if self.blocks == 0 {
            return bad("blocks", "blocks must be at least 1".into());
        }
        if self.key_holders.is_empty() || self.key_holders.len() > 3 {
            return bad(
                "keyHolders",
                format!("keyHolders must name 1 to 3 parties, got {}", self.key_holders.len()),
            );
        }
        if !self.key_holders.windows(2).all(|w| w[0] < w[1]) {
            return bad("keyHolders", "keyHolders must be distinct and ascending".into());
        }
        for (field, parties) in [("keyHolders", &self.key_holders), ("reveal", &self.reveal_to)] {
            if let Some(p) = parties.iter().find(|&&p| p > 2) {
                return bad(field, format!("{field} names party {p}, but parties are 0, 1 and 2"));
            }
        }
        if self.plaintext_owner > 2 {
            return bad(
                "plaintextOwner",
                format!("plaintextOwner is {}, but parties are 0, 1 and 2", self.plaintext_owner),
            );
        }
        Ok(())
    }

    /// A canonical byte encoding, used for the agreement check.
    fn encode(&self) -> Vec<u8> {
        let mut out = b"chorus/maestro-aes/v3".to_vec();
        out.push(self.variant.code());
        out.push(u8::from(self.security == Security::Malicious));
        out.push(u8::from(self.direction == Direction::Decrypt));
        out.push(self.key_size.key_bytes() as u8);
        out.extend_from_slice(&(self.blocks as u64).to_be_bytes());
        for list in [&self.key_holders, &self.reveal_to] {
            out.push(list.len() as u8);
            out.extend(list.iter().map(|&p| p as u8));
        }
        out.push(self.plaintext_owner as u8);
        out
    }

    /// S-boxes the job evaluates: the key schedule's `SubWord`s and 16 per block and round.
    fn sbox_count(&self) -> usize {
        4 * self.key_size.sub_word_count() + 16 * self.key_size.rounds() * self.blocks
    }

    fn check_input(&self, me: PartyId, input: &AesJobInput) -> Result<(), JobError> {
        input.check(me, &self.key_holders, self.plaintext_owner, self.key_size.key_bytes(), self.blocks)
    }
}

/// Runs the job as this party. All three parties call it with the same spec.
pub async fn run<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &AesJobSpec,
    input: AesJobInput,
    rng: &mut R,
) -> Result<AesOutput, JobError> {
    run_observed(net, spec, input, rng, |_| {}).await
}

/// [`run`], calling `observe` at each [`JobPhase`] milestone.
pub async fn run_observed<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    spec: &AesJobSpec,
    input: AesJobInput,
    rng: &mut R,
    observe: impl FnMut(JobPhase),
) -> Result<AesOutput, JobError> {
    if net.parties() != 3 {
        return Err(MaestroError::NotThreeParties(net.parties()).into());
    }
    spec.validate()?;
    let me = net.party();
    spec.check_input(me, &input)?;
    let start = net.stats();
    agree_on_spec(net, &spec.encode()).await?;

    let party = Party::setup(net, rng).await?;
    let phases = Phases { net, spec, input, start, observe };
    match (spec.variant, spec.security) {
        (SboxVariant::Gf256Circuit, Security::SemiHonest) => phases.run(Gf256CircuitSbox::new(party)).await,
        (SboxVariant::Gf16Circuit, Security::SemiHonest) => phases.run(Gf16CircuitSbox::new(party)).await,
        (SboxVariant::Lut16, Security::SemiHonest) => phases.run(Lut16Sbox::new(party)).await,
        (SboxVariant::Lut256, Security::SemiHonest) => phases.run(Lut256Sbox::new(party)).await,
        (SboxVariant::Lut256Additive, Security::SemiHonest) => {
            phases.run(AdditiveLut256Sbox::new(party)).await
        }
        (SboxVariant::Gf256Circuit, Security::Malicious) => {
            phases.run(MaliciousGf256CircuitSbox::new(party)).await
        }
        (SboxVariant::Gf16Circuit, Security::Malicious) => {
            phases.run(MaliciousGf16CircuitSbox::new(party)).await
        }
        (SboxVariant::Lut16, Security::Malicious) => phases.run(MaliciousLut16Sbox::new(party)).await,
        (SboxVariant::Lut256, Security::Malicious) => phases.run(MaliciousLut256Sbox::new(party)).await,
        (SboxVariant::Lut256Additive, Security::Malicious) => {
            phases.run(MaliciousAdditiveLut256Sbox::new(party)).await
        }
    }
}

/// What the job needs of an S-box variant besides [`SboxLayer`]: preprocessing, inputs and the
/// final reveal. The semi-honest variants use their [`Party`] directly; the malicious ones go
/// through their [`MaliciousSession`](crate::proto::maestro::malicious::MaliciousSession), whose
/// reveal runs the §2.7 verification of every recorded multiplication and the §2.4 hash
/// comparison first and returns nothing unless both pass. Inputs and outputs are replicated; the
/// state in between may be another share type (the (3,3) LUT-256's
/// [`MixedShare`](crate::proto::maestro::MixedShare)).
trait JobSbox: SboxLayer<Share: StateShare> {
    /// Input-independent preprocessing for `count` S-boxes (none by default).
    async fn preprocess_for<N: Network>(&mut self, _net: &mut N, _count: usize) -> Result<(), MaestroError> {
        Ok(())
    }

    async fn input<N: Network>(
        &mut self,
        net: &mut N,
        owner: PartyId,
        values: Option<&[Gf256]>,
        len: usize,
    ) -> Result<Vec<RssShare>, MaestroError>;

    async fn reveal<N: Network>(
        &mut self,
        net: &mut N,
        shares: &[RssShare],
        to: &[PartyId],
    ) -> Result<Option<Vec<Gf256>>, MaestroError>;
}

/// [`JobSbox`] for a layer whose inputs and reveal go through `self.$via()`: `party` for the
/// semi-honest layers, `session` (verified reveal) for the malicious ones; `$preprocess` names its
/// preprocessing method, if any.
macro_rules! job_sbox {
    ($t:ty, $via:ident $(, $preprocess:ident)?) => {
        impl JobSbox for $t {
            $(
            async fn preprocess_for<N: Network>(&mut self, net: &mut N, count: usize) -> Result<(), MaestroError> {
                self.$preprocess(net, count).await
            }
            )?
            async fn input<N: Network>(
                &mut self,
                net: &mut N,
                owner: PartyId,
                values: Option<&[Gf256]>,
                len: usize,
            ) -> Result<Vec<RssShare>, MaestroError> {
                self.$via().input(net, owner, values, len).await
            }
            async fn reveal<N: Network>(
                &mut self,
                net: &mut N,
                shares: &[RssShare],
                to: &[PartyId],
            ) -> Result<Option<Vec<Gf256>>, MaestroError> {
                self.$via().reveal(net, shares, to).await
            }
        }
    };
}
job_sbox!(Gf256CircuitSbox, party);
job_sbox!(Gf16CircuitSbox, party);
job_sbox!(Lut16Sbox, party, preprocess);
job_sbox!(Lut256Sbox, party, preprocess);
job_sbox!(AdditiveLut256Sbox, party, preprocess);
job_sbox!(MaliciousGf256CircuitSbox, session);
job_sbox!(MaliciousGf16CircuitSbox, session);
job_sbox!(MaliciousLut16Sbox, session, preprocess);
job_sbox!(MaliciousLut256Sbox, session, preprocess);
job_sbox!(MaliciousAdditiveLut256Sbox, session, preprocess);

/// The job after PRSS setup, for any variant.
struct Phases<'a, N, F> {
    net: &'a mut N,
    spec: &'a AesJobSpec,
    input: AesJobInput,
    start: NetStats,
    observe: F,
}

impl<N: Network, F: FnMut(JobPhase)> Phases<'_, N, F> {
    async fn run<S: JobSbox>(mut self, mut sbox: S) -> Result<AesOutput, JobError> {
        let (net, spec, input) = (self.net, self.spec, self.input);
        let me = net.party();
        let before_preprocessing = net.stats();
        sbox.preprocess_for(net, spec.sbox_count()).await?;
        let preprocessing_stats = net.stats().since(&before_preprocessing);
        (self.observe)(JobPhase::OnlineStarts);

        let key_len = spec.key_size.key_bytes();
        let mut key: Vec<RssShare> = vec![RssShare::zero(me); key_len];
        for &holder in &spec.key_holders {
            let share = input.key_share.as_deref().filter(|_| holder == me).map(to_field);
            let shared = sbox.input(net, holder, share.as_deref(), key_len).await?;
            for (k, s) in key.iter_mut().zip(shared) {
                *k += s;
            }
        }
        let pt_len = 16 * spec.blocks;
        let plaintext = input.plaintext.as_deref().filter(|_| spec.plaintext_owner == me).map(to_field);
        let plaintext = sbox.input(net, spec.plaintext_owner, plaintext.as_deref(), pt_len).await?;

        let key: Vec<S::Share> = key.into_iter().map(S::Share::from).collect();
        let plaintext: Vec<S::Share> = plaintext.into_iter().map(S::Share::from).collect();
        let round_keys = expand_key(&mut sbox, net, &key).await?;
        let mut blocks = to_blocks(&plaintext).expect("plaintext length is 16 · blocks");
        let before_rounds = net.stats();
        match spec.direction {
            Direction::Encrypt => encrypt_blocks(&mut sbox, net, &round_keys, &mut blocks).await?,
            Direction::Decrypt => decrypt_blocks(&mut sbox, net, &round_keys, &mut blocks).await?,
        }
        let rounds_stats = net.stats().since(&before_rounds);

        // The driver reshares the cipher output to replicated form (`SboxLayer::to_replicated`).
        let output = replicated_shares(blocks.as_flattened())
            .map_err(|_| JobError::Internal("the cipher output is not replicated"))?;
        let ciphertext = sbox.reveal(net, &output, &spec.reveal_to).await?;
        Ok(AesOutput {
            ciphertext: ciphertext.map(|c| c.into_iter().map(|b| b.value()).collect()),
            stats: net.stats().since(&self.start),
            online_stats: rounds_stats,
            preprocessing_stats,
        })
    }
}

fn to_field(bytes: &[u8]) -> Vec<Gf256> {
    bytes.iter().map(|&b| Gf256::new(b)).collect()
}

#[cfg(test)]
mod tests;
