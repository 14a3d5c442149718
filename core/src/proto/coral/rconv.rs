//! General boolean share conversion ΠrConv (§4.1, Fig. 5 functionality, Fig. 6 protocol): TinyOT
//! sharings `[[x_1]]_B, …, [[x_{14·n}]]_B` become RMFE sharings `[[y_j]]` with
//! `y_j = φ(x_{14(j−1)+1}, …, x_{14j})` — normal and consistent with the bits.
//!
//! Steps (numbers as in Fig. 6), with s = [`RCONV_SECURITY`]:
//! 1. take s·14 random tBits `[[r]]_B`;
//! 2. every party P_i rInputs `y^i_j = φ(its shares of group j)` for the n + s groups (one
//!    round, one input mask per group and party), and 3. everyone sums `[[y_j]] = Σ_i [[y^i_j]]`;
//! 4. public random bits c_{j,g} from the commit-and-open coin toss (two rounds);
//! 5. open `w_g = Σ_j c_{j,g} y_j + q_g` and 7. `z_{g,h} = Σ_j c_{j,g} x_{(j−1)14+h} ⊕
//!    r_{(g−1)14+h}` together (one round; the TinyOT shares travel with a SHA-256 digest of their
//!    MACs, which the receiver recomputes from its keys: [`Check::TinyMac`]);
//! 6. check τ(w_g) = w_g ([`Check::RConvNormality`]); 8. check ψ(w_g) = z_g
//!    ([`Check::RConvConsistency`]); 9. the w_g join the log of the batched MAC check, which
//!    runs before any output opens.
//!
//! Each check catches a wrong y_j with probability ≥ 1/2 per g, so a cheating party passes with
//! probability ≤ 2^-s (Theorem 3). Works for any n ≥ 2 (pairwise TinyOT MACs).
//! Cost per party: (n+s) packed inputs; s field elements + 14·s bits + 32 bytes to each peer;
//! among three or more parties one verdict byte to each peer after the MAC digests, so a failed
//! digest at one honest party aborts every honest party.

use sha2::{Digest, Sha256};

use crate::net::Network;

use super::checks::coin_toss;
use super::error::{Check, CoralError};
use super::messages::{field_bytes, pack_bits, pack_elements, unpack_bits, unpack_elements, Step};
use super::online::{InputRequest, Party};
use super::prep::Demand;
use super::share::{RShare, TinyBit, LANES};

/// The statistical security parameter s of rConv's checks (2^-40).
pub const RCONV_SECURITY: usize = 40;

const MAC_DIGEST_TAG: &[u8] = b"chorus/coral/rconv/tinyot-macs/v1";

/// The material one rConv of `packs` groups consumes.
pub fn demand(parties: usize, packs: usize) -> Demand {
    let mut d = Demand::empty(parties);
    d.tbits = RCONV_SECURITY * LANES;
    d.input_masks = vec![packs + RCONV_SECURITY; parties];
    d
}

fn digest(macs: impl Iterator<Item = u128>) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(MAC_DIGEST_TAG);
    for m in macs {
        h.update(m.to_le_bytes());
    }
    h.finalize().into()
}

impl Party {
    /// ΠrConv (Fig. 6) on `bits` (14 per pack, lane h of pack j = `bits[14 j + h]`).
    ///
    /// # Errors
    /// [`CoralError::Limit`] unless `bits.len()` is a multiple of 14; [`CoralError::BadInput`]
    /// if a TinyOT sharing has the wrong number of MACs or keys; [`CoralError::CheckFailed`] on
    /// a failed check; material or network errors.
    pub async fn rconv<N: Network>(
        &mut self,
        net: &mut N,
        bits: &[TinyBit],
    ) -> Result<Vec<RShare>, CoralError> {
        if !bits.len().is_multiple_of(LANES) {
            return Err(CoralError::Limit {
                what: "rConv bits (must be a multiple of 14)",
                found: bits.len(),
                limit: LANES,
            });
        }
        let n = self.parties;
        if bits.iter().any(|b| b.macs.len() != n || b.keys.len() != n) {
            return Err(CoralError::BadInput(format!("TinyOT sharings must carry {n} MACs and keys")));
        }
        let groups = bits.len() / LANES;
        let s = RCONV_SECURITY;
        // 1.
        let r = self.material.take_tbits(s * LANES)?;
        let all: Vec<&TinyBit> = bits.iter().chain(r.iter()).collect();
        // 2.
        let mut requests = Vec::with_capacity(n * (groups + s));
        for owner in 0..n {
            for chunk in all.chunks(LANES) {
                let lanes = (owner == self.me)
                    .then(|| chunk.iter().enumerate().fold(0u64, |acc, (h, b)| acc | u64::from(b.bit) << h));
                requests.push(InputRequest { owner, lanes });
            }
        }
        let inputs = self.input_step(net, Step::RConvInput, &requests).await?;
        // 3.
        let mut y = vec![RShare::default(); groups + s];
        for per_owner in inputs.chunks_exact(groups + s) {
            for (acc, v) in y.iter_mut().zip(per_owner) {
                *acc = *acc + *v;
            }
        }
        // 4.
        let mut coins = coin_toss(&mut self.channel, net, &mut self.rng).await?;
        let c: Vec<Vec<bool>> = (0..s).map(|_| (0..groups).map(|_| coins.next_u32_bit()).collect()).collect();
        // 5. and 7.
        let mut w = Vec::with_capacity(s);
        let mut z = Vec::with_capacity(s * LANES);
        for (g, cg) in c.iter().enumerate() {
            let mut acc = y[groups + g];
            for (j, _) in cg.iter().enumerate().filter(|(_, &b)| b) {
                acc = acc + y[j];
            }
            w.push(acc);
            for h in 0..LANES {
                let mut zb = r[g * LANES + h].clone();
                for (j, _) in cg.iter().enumerate().filter(|(_, &b)| b) {
                    zb = zb.xor(&bits[j * LANES + h]);
                }
                z.push(zb);
            }
        }
        let w_own: Vec<u64> = w.iter().map(|x| x.value).collect();
        let z_own: Vec<bool> = z.iter().map(|b| b.bit).collect();
        let payloads: Vec<Vec<u8>> = (0..n)
            .map(|peer| {
                if peer == self.me {
                    return Vec::new();
                }
                let mut msg = pack_elements(&w_own);
                msg.extend_from_slice(&pack_bits(&z_own));
                msg.extend_from_slice(&digest(z.iter().map(|b| b.macs[peer])));
                msg
            })
            .collect();
        let received = self.channel.pairwise(net, Step::RConvOpen, payloads).await?;
        let (wb, zb) = (field_bytes(s), (s * LANES).div_ceil(8));
        let mut w_open = w_own;
        let mut z_open = z_own;
        let delta = self.material.delta;
        let mut macs_passed = true;
        for (peer, msg) in received.iter().enumerate().filter(|&(p, _)| p != self.me) {
            if msg.len() != wb + zb + 32 {
                return Err(CoralError::malformed(
                    peer,
                    Step::RConvOpen.name(),
                    format!("expected {} bytes, got {}", wb + zb + 32, msg.len()),
                ));
            }
            let theirs_w = unpack_elements(&msg[..wb], s, peer, Step::RConvOpen)?;
            let theirs_z = unpack_bits(&msg[wb..wb + zb], s * LANES, peer, Step::RConvOpen)?;
            let expected =
                digest(z.iter().zip(&theirs_z).map(|(b, &bit)| b.keys[peer] ^ if bit { delta } else { 0 }));
            // No early return: among three or more, the verdict goes to everybody first.
            macs_passed &= expected[..] == msg[wb + zb..];
            for (a, t) in w_open.iter_mut().zip(theirs_w) {
                *a ^= t;
            }
            for (a, t) in z_open.iter_mut().zip(theirs_z) {
                *a ^= t;
            }
        }
        self.tiny_mac_verdicts(net, macs_passed).await?;
        for (v, share) in w_open.iter().zip(&w) {
            self.opened.push(*v, share.mac);
        }
        // 6. and 8.
        for (g, &wg) in w_open.iter().enumerate() {
            if self.params.tau(wg) != wg {
                return Err(CoralError::failed(Check::RConvNormality));
            }
            let zg = z_open[g * LANES..(g + 1) * LANES]
                .iter()
                .enumerate()
                .fold(0u64, |a, (h, &b)| a | u64::from(b) << h);
            if self.params.psi(wg) != zg {
                return Err(CoralError::failed(Check::RConvConsistency));
            }
        }
        y.truncate(groups);
        Ok(y)
    }

    /// The end of the TinyOT MAC check: with two parties a failure is this party's own; among
    /// three or more, every party tells every other whether the MACs it checked passed, so a
    /// cheat one honest party sees aborts them all ([`Check::TinyMac`]).
    async fn tiny_mac_verdicts<N: Network>(&mut self, net: &mut N, passed: bool) -> Result<(), CoralError> {
        if self.parties > 2 {
            let verdicts = self.channel.broadcast(net, Step::TinyMacVerdict, vec![u8::from(passed)]).await?;
            for (j, v) in verdicts.iter().enumerate().filter(|&(j, _)| j != self.me) {
                match v.as_slice() {
                    [1] => {}
                    [0] => return Err(CoralError::failed(Check::TinyMac)),
                    _ => {
                        let reason = "a verdict is one byte, 0 or 1";
                        return Err(CoralError::malformed(j, Step::TinyMacVerdict.name(), reason));
                    }
                }
            }
        }
        if passed {
            Ok(())
        } else {
            Err(CoralError::failed(Check::TinyMac))
        }
    }
}

/// One uniform bit at a time from a coin stream.
trait CoinBits {
    fn next_u32_bit(&mut self) -> bool;
}

impl<R: rand_core::RngCore> CoinBits for R {
    fn next_u32_bit(&mut self) -> bool {
        self.next_u32() & 1 == 1
    }
}
