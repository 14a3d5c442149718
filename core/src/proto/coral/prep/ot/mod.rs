//! Coral's **OT-based preprocessing** for n ≥ 2 parties ([`OtProvider`]): every kind of material
//! of Fig. 4 from oblivious transfer, with no trusted party, maliciously secure with abort against
//! n − 1 corrupt parties.
//!
//! What comes from where (paper sections and figures; at most [`MAX_PARTIES`] parties,
//! [`CoralError::Limit`] else):
//! - **tBits, tTriples** (Fig. 4; §4.3.3 "TinyOT triple generation"): for two parties the TinyOT
//!   engine of [`crate::ot::tinyot`] over SoftSpoken OT extension ([`EXTENSION`]; Roy 2022, the
//!   "VOLE-style OT" family §4.3.3 builds TinyOT on) for authenticated bits, WRK17 leaky AND with
//!   bucketing for triples. Its [`ABit`] (share, MAC under the peer's Δ, key for the peer's
//!   share) maps to Coral's [`TinyBit`] with `macs[peer] = M`, `keys[peer] = K`; each party's Δ is
//!   its OT-extension Δ (bit 63 pinned by the engine, so BDOZ forgeries succeed with ≤ 2^-127).
//!   For three or more, [`MultiTinyOt`](crate::ot::multi::MultiTinyOt) (pairwise correlated OT with each party's one Δ, the
//!   cross-pair consistency check, WRK17's n-party leaky AND and bucketing), whose [`NBits`] have
//!   Coral's layout already.
//! - **Authenticated elements** of F = GF(2^42) under α = Σ_P α_P (each α_P sampled locally):
//!   [`cope`], the paper's vectorised COPEe (Fig. 16, Fig. 18 over Fig. 17's F_2-vOLE) with the
//!   (195, 42)_2-MFE of Table 1 (§4.3.3 "Vectorizing MFE-based offline phase", the MFE route of
//!   Fig. 1): t = 195 IKNP-style bit columns per direction, one bit per element and column, so
//!   195 bits per element, ordered pair and direction instead of bit decomposition's
//!   42·42 = 1764 (9.05× fewer) — followed by the Π_Auth / MASCOT Π_[[·]] random-combination MAC check with a
//!   key-linearity test against a key holder whose base-OT choices are not a σ-image ([`auth`],
//!   argued there: 41 bits against the input side, 40 against the key holder).
//! - **Input masks** `[[r]]` known to their owner: elements only the owner contributes to.
//! - **Encoding pairs** `([[r]], [[τ(r)]])`: every party contributes `(r_P, τ(r_P))`; the
//!   bit-combination check of [`auth::check_encodings`] (Fig. 7 steps 6–8 style, 2^-40) catches an
//!   inconsistent τ(r_P).
//! - **Quintuples**: Π_rQuintuple (Fig. 7, [`super::quintuple`]) run inside the provider on the
//!   tTriples, tBits and masks above, with rConv (Fig. 6) and its sacrifice.
//!
//! Order of one [`OtProvider::material`] call: TinyOT setup (first call only), bits and triples;
//! COPE setup and α (first call only), all elements (and the key-linearity test pairs) in one
//! extension, authentication check (coin toss,
//! one opening frame, MAC check); encoding check; quintuple generation; one final batched MAC
//! check of every value opened in the encoding check and Π_rQuintuple. Material is returned only
//! if every check passed; otherwise the honest party gets a typed error
//! ([`CoralError::CheckFailed`] naming the check, [`CoralError::Ot`] for the engine's checks,
//! [`CoralError::Malformed`] / [`CoralError::UnexpectedFrame`] for bad frames) and no material.
//!
//! **Trust model:** n ≥ 2 parties, all but one may be malicious (static corruption); security with
//! abort (checks that only some honest parties can run end with every party's verdict, so one
//! honest party's failed check aborts the others too). α_P and Δ_P live across a provider's calls,
//! as MASCOT's MAC keys and TinyOT's Δ do across their extensions: every call's checks draw fresh
//! coins, no call opens a key, and a call that fails drops them (the provider sets up anew). Statistical security: min(40 (bucketing,
//! rConv, sacrifice, encoding check, key-linearity test), 41 (MAC layer, authentication check))
//! bits; computational: base OT (Ristretto255),
//! AES-based PRG and correlation-robust hash, SHA-256 commitments. Secrets (α_P, Δ_P, shares)
//! never select a branch or an index; randomness comes from the caller's ChaCha20 CSPRNG.
//!
//! **Not covered:** silent (PCG-style) VOLE behind COPE's F_2-vOLEs — COPE's columns are
//! IKNP-style and send L bits per column (the paper's "\[20\] w/ IKNP-OT"-like input-authentication
//! cost, small next to the TinyOT material); TinyOT's abits use SoftSpoken, whose corrections
//! still cost 16/k bytes per OT, unlike silent OT's sublinear traffic.

mod auth;
pub(crate) mod cope;

use std::sync::Arc;

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use crate::net::{Network, PartyId};
use crate::ot::any_tiny::Tiny;
pub use crate::ot::multi::MAX_PARTIES;
use crate::ot::multi::{NBits, MAX_TRIPLES as N_TRIPLE_BATCH};
use crate::ot::tinyot::SOFTSPOKEN_K;
use crate::ot::{ABit, Extension};
use crate::proto::coral::error::CoralError;
use crate::proto::coral::online::Party;
use crate::proto::coral::share::{CoralParams, TinyBit};

use super::{quintuple, CoralMaterial, Cursors, Demand, Encoding, InputMask, Preprocessing};
use auth::Contributor;
pub use auth::{ENCODING_SECURITY, KEY_TEST};
pub use cope::CHUNK as COPE_CHUNK;

/// tTriples per TinyOT batch: bounds the engine's memory (a batch holds 3·B times this many
/// authenticated bits). Each batch keeps 40-bit bucketing security on its own; batches of
/// 2^17..2^20 triples all have bucket size B = 4, so splitting costs only above 2^20 triples,
/// where one batch could use B = 3 ([`crate::ot::tinyot::bucket_size`]).
pub const TRIPLE_BATCH: usize = 1 << 18;

/// The OT extension under the TinyOT material: SoftSpoken with [`SOFTSPOKEN_K`] (4 bytes per
/// authenticated bit and direction instead of KOS15's 16), because Coral's preprocessing is
/// bounded by its traffic (§4.3.3 "TinyOT triple generation" replaces the OT engine likewise).
pub const EXTENSION: Extension = Extension::SoftSpoken { k: SOFTSPOKEN_K };

/// A deviation of a test attacker inside the provider (material-level cheats that no wire edit
/// expresses).
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cheat {
    /// Authenticate `τ(r_P) + offset` instead of τ(r_P) for encoding pair `index`.
    EncodingTau { index: usize, offset: u64 },
    /// Flip bit 0 of this party's MAC on the x-bit of tTriple `index` before quintuple generation.
    TinyMac { index: usize },
    /// Run COPE as key holder with base-OT choice `flip` of σ(α_P) flipped (a vector a ∉ σ(F)).
    CopeChoice { flip: usize },
}

/// The OT-based provider (see the module docs).
pub struct OtProvider {
    params: Arc<CoralParams>,
    rng: ChaCha20Rng,
    session: Vec<u8>,
    runs: u64,
    /// The TinyOT engine (Δ) and COPE (α) of this provider's first run, kept for the later ones:
    /// all the material one provider makes is under the same keys, so a job may evaluate the
    /// material of several runs in one online phase ([`CoralMaterial::absorb`]).
    keys: Option<Keys>,
    #[cfg(test)]
    pub(crate) cheat: Option<Cheat>,
}

/// The keys of one provider's material and the engines that extend under them.
struct Keys {
    /// The TinyOT engine, set up on the first run that needs TinyOT material.
    tiny: Option<Tiny>,
    alpha: u64,
    cope: cope::Cope,
}

impl core::fmt::Debug for OtProvider {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OtProvider").field("runs", &self.runs).finish_non_exhaustive()
    }
}

/// Maps the OT engine's authenticated bit to Coral's two-party TinyOT sharing.
fn tiny(bit: &ABit, me: PartyId) -> TinyBit {
    let mut t = TinyBit::zero(2);
    t.bit = bit.bit;
    t.macs[1 - me] = bit.mac;
    t.keys[1 - me] = bit.key;
    t
}

impl OtProvider {
    /// A provider with its CSPRNG; both parties use the same `session` tag (unique per pair of
    /// parties and session; each [`Preprocessing::material`] call appends a run counter).
    pub fn new(params: Arc<CoralParams>, rng: ChaCha20Rng, session: &[u8]) -> Self {
        OtProvider {
            params,
            rng,
            session: session.to_vec(),
            runs: 0,
            keys: None,
            #[cfg(test)]
            cheat: None,
        }
    }

    /// Runs `run`; a failed run drops the keys (nothing half-extended is used again).
    async fn run<N: Network>(&mut self, net: &mut N, demand: &Demand) -> Result<CoralMaterial, CoralError> {
        let out = self.run_once(net, demand).await;
        if out.is_err() {
            self.keys = None;
        }
        out
    }

    async fn run_once<N: Network>(
        &mut self,
        net: &mut N,
        demand: &Demand,
    ) -> Result<CoralMaterial, CoralError> {
        let (me, n) = (net.party(), net.parties());
        if n > MAX_PARTIES {
            return Err(CoralError::Limit {
                what: "parties of the OT-based provider",
                found: n,
                limit: MAX_PARTIES,
            });
        }
        if demand.input_masks.len() > n {
            return Err(CoralError::Limit {
                what: "input-mask owners",
                found: demand.input_masks.len(),
                limit: n,
            });
        }
        let session = [&self.session[..], b"/run-", &self.runs.to_le_bytes()].concat();
        self.runs += 1;
        let mut seed = [0u8; 32];
        self.rng.fill_bytes(&mut seed);
        let mut rng = ChaCha20Rng::from_seed(seed);
        let mut total =
            if demand.quintuples > 0 { quintuple::demand(n, demand.quintuples) } else { Demand::empty(n) };
        total.add(demand);

        // The keys of an earlier run, if any: its TinyOT engine (Δ), α and COPE.
        let kept = self.keys.take();
        let (mut kept_tiny, kept_cope) = match kept {
            Some(Keys { tiny, alpha, cope }) => (tiny, Some((alpha, cope))),
            None => (None, None),
        };

        // tBits and tTriples (TinyOT; the engine set up on the first run that needs it).
        let (mut tbits, mut ttriples) = (Vec::new(), Vec::new());
        if total.tbits + total.ttriples > 0 {
            if kept_tiny.is_none() {
                let tag = [&session[..], b"/tinyot"].concat();
                kept_tiny = Some(Tiny::setup(net, &tag, EXTENSION, &mut rng).await?);
            }
            let engine = kept_tiny.as_mut().expect("set up above");
            tinyot_material(net, engine, &total, &mut tbits, &mut ttriples, &mut rng).await?;
        }
        let delta = kept_tiny.as_ref().map_or(0, Tiny::delta);

        // Authenticated elements (COPE + Π_Auth; α and COPE set up on the first run).
        let field = *self.params.field();
        let (alpha, mut cope) = match kept_cope {
            Some(kept) => kept,
            None => {
                let alpha = field.random(&mut rng);
                let cope_session = [&session[..], b"/cope"].concat();
                #[allow(unused_mut)]
                let mut choices = cope::choices(&self.params, alpha);
                #[cfg(test)]
                if let Some(Cheat::CopeChoice { flip }) = self.cheat {
                    choices[flip] ^= true;
                }
                (alpha, cope::Cope::setup(net, &self.params, &cope_session, &choices, &mut rng).await?)
            }
        };
        let skeleton = CoralMaterial {
            party: me,
            parties: n,
            alpha,
            delta,
            quintuples: Vec::new(),
            later_quintuples: Vec::new(),
            encodings: Vec::new(),
            input_masks: vec![Vec::new(); n],
            tbits,
            ttriples,
            cursor: Cursors { input_masks: vec![0; n], ..Cursors::default() },
        };
        let mut party_seed = [0u8; 32];
        rng.fill_bytes(&mut party_seed);
        let mut party = Party::new(self.params.clone(), me, n, skeleton, ChaCha20Rng::from_seed(party_seed))?;
        let pairs = if demand.encodings > 0 { demand.encodings + ENCODING_SECURITY } else { 0 };
        let masks: Vec<usize> = (0..n).map(|o| total.input_masks.get(o).copied().unwrap_or(0)).collect();
        let mut kinds = vec![Contributor::All; 2 * pairs];
        let mut own = Vec::with_capacity(2 * pairs + masks[me]);
        for _ in 0..pairs {
            let r = field.random(&mut rng);
            own.extend([r, self.params.tau(r)]);
        }
        #[cfg(test)]
        if let Some(Cheat::EncodingTau { index, offset }) = self.cheat {
            own[2 * index + 1] ^= offset;
        }
        for (owner, &count) in masks.iter().enumerate() {
            kinds.extend(std::iter::repeat_n(Contributor::Only(owner), count));
            own.extend((0..count).map(|_| if owner == me { field.random(&mut rng) } else { 0 }));
        }
        let shares = auth::authenticate(&mut party, &mut cope, net, &kinds, &own).await?;
        let encodings: Vec<Encoding> =
            shares[..2 * pairs].chunks_exact(2).map(|p| Encoding { r: p[0], tau_r: p[1] }).collect();
        if pairs > 0 {
            auth::check_encodings(&mut party, net, &encodings).await?;
        }
        let mut next = 2 * pairs;
        for (owner, &count) in masks.iter().enumerate() {
            party.material.input_masks[owner] = (next..next + count)
                .map(|j| InputMask { share: shares[j], value: (owner == me).then_some(own[j]) })
                .collect();
            next += count;
        }

        // Quintuples (Fig. 7) and the final MAC check.
        #[cfg(test)]
        if let Some(Cheat::TinyMac { index }) = self.cheat {
            party.material.ttriples[index][0].macs[(me + 1) % n] ^= 1;
        }
        let quintuples = if demand.quintuples > 0 {
            party.generate_quintuples(net, demand.quintuples).await?
        } else {
            Vec::new()
        };
        party.check(net).await?;

        let m = party.material;
        let rest = |v: &[InputMask], c: usize| v[c..].to_vec();
        let out = CoralMaterial {
            party: me,
            parties: n,
            alpha,
            delta,
            quintuples,
            later_quintuples: Vec::new(),
            encodings: encodings[..demand.encodings].to_vec(),
            input_masks: (0..n).map(|o| rest(&m.input_masks[o], m.cursor.input_masks[o])).collect(),
            tbits: m.tbits[m.cursor.tbits..].to_vec(),
            ttriples: m.ttriples[m.cursor.ttriples..].to_vec(),
            cursor: Cursors { input_masks: vec![0; n], ..Cursors::default() },
        };
        out.covers(demand)?;
        self.keys = Some(Keys { tiny: kept_tiny, alpha, cope });
        Ok(out)
    }
}

/// TinyOT material from `engine`: fills `tbits` and `ttriples` as `total` asks.
async fn tinyot_material<N: Network>(
    net: &mut N,
    engine: &mut Tiny,
    total: &Demand,
    tbits: &mut Vec<TinyBit>,
    ttriples: &mut Vec<[TinyBit; 3]>,
    rng: &mut ChaCha20Rng,
) -> Result<(), CoralError> {
    let me = net.party();
    ttriples.reserve(total.ttriples);
    match engine {
        Tiny::Two(engine) => {
            if total.tbits > 0 {
                *tbits = engine.abits(net, total.tbits, rng).await?.iter().map(|b| tiny(b, me)).collect();
            }
            while ttriples.len() < total.ttriples {
                let count = (total.ttriples - ttriples.len()).min(TRIPLE_BATCH);
                ttriples.extend(engine.and_triples_as(net, count, rng, |t| t.map(|b| tiny(&b, me))).await?);
            }
        }
        Tiny::Many(engine) => {
            if total.tbits > 0 {
                let bits = engine.abits(net, total.tbits, rng).await?;
                *tbits = (0..bits.len()).map(|e| tiny_n(&bits, e)).collect();
            }
            while ttriples.len() < total.ttriples {
                let count = (total.ttriples - ttriples.len()).min(N_TRIPLE_BATCH);
                let [x, y, z] = engine.and_triples(net, count, rng).await?;
                ttriples.extend((0..count).map(|e| [tiny_n(&x, e), tiny_n(&y, e), tiny_n(&z, e)]));
            }
        }
    }
    Ok(())
}

/// Bit `e` of an n-party batch in Coral's TinyOT sharing (the same layout).
fn tiny_n(bits: &NBits, e: usize) -> TinyBit {
    let n = bits.parties();
    TinyBit {
        bit: bits.bit(e),
        macs: (0..n).map(|j| bits.mac(e, j)).collect(),
        keys: (0..n).map(|j| bits.key(e, j)).collect(),
    }
}

impl Preprocessing for OtProvider {
    fn name(&self) -> &'static str {
        "ot"
    }

    async fn material<N: Network>(
        &mut self,
        net: &mut N,
        demand: &Demand,
    ) -> Result<CoralMaterial, CoralError> {
        self.run(net, demand).await
    }
}
