//! Authenticated elements from COPE ([`super::cope`]) with their check (Π_Auth of \[20\] as the
//! paper uses it in §4.3.3 / App. C, which is MASCOT's Π_[[·]]), and the check of encoding pairs.
//!
//! **Sharing from COPE.** Element j has contributions `x_{P,j}` from the parties in its
//! [`Contributor`] set (every party for random shared elements, only the owner for an input mask,
//! whose other shares are the constant 0). With `α = Σ_P α_P`,
//! `α·x = Σ_P α_P x_P + Σ_{P≠Q} α_Q x_P`: P's MAC share is `α_P·x_P` plus its COPE outputs `ρ(t)`
//! for its own contribution under each peer's key plus its COPE outputs `ρ(q)` for each peer's
//! contribution under its own key. The arguments below are per ordered pair of parties (one of
//! them honest); with n parties the same check covers every pair at once.
//!
//! **Authentication check** ([`Check::Authentication`]): besides the requested elements, each
//! party P contributes [`KEY_TEST`] test pairs `(x_k, c·x_k)` (only P contributes, c = X, i.e.
//! [`LINEARITY_C`]), and one extra element with contributions from every party is appended. After
//! every column has been sent, coins `χ_j ∈ F` are tossed (commit-and-open, [`coin_toss`]);
//! `y = Σ_j χ_j x_j + x_extra` over the *requested* elements and the test openings
//! `z_k = [[c·x_k]] − c·[[x_k]]` are opened, the batched SPDZ MAC check of
//! [`crate::proto::coral::checks`] runs on all of them, and every z_k must be 0. `x_extra` is
//! uniform to the adversary (the honest party's contribution), so `y` reveals nothing of the x_j;
//! an honest owner's z_k is 0 and its x_k are used nowhere else.
//!
//! *Corrupt input side* (the X of F_vCOPEe, Fig. 16; MASCOT's proof of Π_[[·]], which \[20\]'s
//! Π_Auth and the paper's Theorem 9 reuse for the vectorised COPEe). Columns of a bit matrix with
//! rows `X_j = σ(x_j) + E_j` leave the honest key holder P_h with the MAC-share error
//! `e_j(α_h) = ρ(σ(α_h) ⊙ E_j) = Σ_h σ(α_h)_h·E_{jh}·ρ(e_h)`, an F_2-linear function of α_h — the
//! same kind of error as with bit decomposition (`Σ_i X^i α_h[i] E_{ij}`), with the bits of
//! σ(α_h) in place of those of α_h. Every F_2-linear map F → F is a linearized polynomial
//! `Σ_k c_k α^{2^k}`; its F-linear part `c_0·α` is merely the different input `x_j + c_0`. Passing
//! needs `Σ_j χ_j e_j(α_h) + δ·α_h` (δ: the shift of the opening) predicted after the coins: if
//! some e_j has a part of degree > 1, the combined part vanishes with probability ≤ 2^-42 over χ;
//! otherwise the check passes only for α_h in an affine subspace of co-dimension r ≥ 1, with
//! probability 2^-r, and the r key bits learned cut the MAC layer's later forging bound 2^-42 by
//! the same 2^r (MASCOT's selective-failure trade-off): overall ≤ 2/|F| = 2^-41, the MAC layer's
//! own security.
//!
//! *Corrupt key holder* (the `α^(i,j) ∈ F_2^t` of F_vCOPEe). Its base-OT choices `a` need not be
//! a σ-image. The honest party's key and MAC shares do not depend on `a` (they are ρ of its own
//! PRG streams plus α_h·x), so a forgery against it still needs α_h and the bound above stands.
//! But the adversary's own MAC shares on honest contributions become `ρ(a ⊙ σ(x)) = α'·x + D(x)`
//! with D F_2-linear. If D is F-linear (`γ·x`), this is an honest key holder with key α' + γ.
//! Otherwise the adversary does not know its correct MAC shares, and whether a MAC check passes
//! depends on F_2-linear functions of the honest party's values that the openings do not reveal:
//! a selective-failure leak (e.g. one flipped coordinate h and one honest input mask r in the
//! batch: the check passes with probability about 1/4 and then says σ(r)_h = 0, one linear bit of
//! the input that r will mask). With bit decomposition every `a` is some α', so the case did not
//! arise; the paper says \[20\]'s proof carries over, and we do not rely on that for privacy: the
//! **key-linearity test** rules it out. Write `D(x) = Σ_k d_k x^{2^k}`; then
//! `D(cx) − c·D(x) = Σ_{k≥1} d_k (c^{2^k} − c) x^{2^k}`, and `c^{2^k} ≠ c` for 0 < k < 42 because
//! X lies in no proper subfield, so `D' = D(c·) − c·D` is non-zero exactly when D is not
//! F-linear. The adversary's MAC-share error on z_k is then `w_k = D'(x_k)`: uniform on the
//! non-zero subspace Im D', independent across k, and independent of every other opening's error
//! (the x_k enter nothing else, not even y). The MAC check combines them with coins λ_k ∈ F drawn
//! after the openings; `Σ_k λ_k w_k` is uniform on a subspace containing `span_{F_2}(λ_k·v)` for a
//! fixed `v ∈ Im D' \ {0}`, of dimension `rank_{F_2}(λ_1..λ_s)`, so whatever the adversary
//! predicts after seeing the coins it passes with probability
//! ≤ `E[2^-rank] = 2^-42 + 2^-s − 2^-(42+s) < 2^-41 + 2^-42 < 2^-40` (s = [`KEY_TEST`] = 41).
//! (The Π_Auth opening alone catches a key holder that does not correct its shares, but gives no
//! batch-independent bound against one that guesses: about 1/4 in the example above.)
//!
//! **Encoding pairs** `([[r]], [[τ(r)]])`: each party contributes `r_P` and `τ(r_P)` (τ is
//! F_2-linear, so `τ(r) = Σ_P τ(r_P)`), but a cheater may authenticate `τ(r_P) + ε`. τ is not
//! F-linear, so the check combines with **bits**, like Fig. 7 steps 6–8: with s =
//! [`ENCODING_SECURITY`] extra pairs and public random bit vectors ρ_h (coin toss after the pairs
//! are authenticated), open `d_h = Σ_j ρ_{h,j} r_j + r_{E+h}` and
//! `f_h = Σ_j ρ_{h,j} τ(r)_j + τ(r)_{E+h}` and require `τ(d_h) = f_h` ([`Check::EncodingTau`]).
//! With `ε_j = τ(r)_j − τ(r_j)`, `τ(d_h) − f_h = Σ_j ρ_{h,j} ε_j + ε_{E+h}`; if some ε_j ≠ 0
//! (j < E) this vanishes with probability ≤ 1/2 for each h independently (flip ρ_{h,j}), so a bad
//! pair survives with probability ≤ 2^-s — the argument of Theorem 7's proof. `r_{E+h}` is
//! uniform and used once, so `d_h` reveals nothing; the openings join the MAC log and are
//! MAC-checked before the material is handed out, so lying about `d_h`, `f_h` is caught there.

use rand_core::RngCore;

use crate::net::{Network, PartyId};
use crate::proto::coral::checks::coin_toss;
use crate::proto::coral::error::{Check, CoralError};
use crate::proto::coral::messages::Step;
use crate::proto::coral::online::Party;
use crate::proto::coral::prep::Encoding;
use crate::proto::coral::share::RShare;

use super::cope::Cope;

/// The statistical security s of the encoding check (2^-40).
pub const ENCODING_SECURITY: usize = 40;

/// Test pairs per party of the key-linearity test: a key holder whose COPE vector makes its MAC
/// shares non-F-linear passes with probability < 2^-41 + 2^-42 < 2^-40 (see the module docs).
pub const KEY_TEST: usize = 41;

/// The public multiplier c of the key-linearity test: X (the element 2), which generates F over
/// F_2 — its minimal polynomial is F's modulus, so it lies in no proper subfield.
pub(crate) const LINEARITY_C: u64 = 2;

/// Who contributes to an authenticated element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Contributor {
    /// Every party (a random shared element).
    All,
    /// Only this party (an input mask it knows); every other share is 0.
    Only(PartyId),
}

impl Contributor {
    fn includes(self, party: PartyId) -> bool {
        match self {
            Contributor::All => true,
            Contributor::Only(p) => p == party,
        }
    }
}

/// Authenticates elements: `own[j]` is this party's contribution to element j (ignored where it
/// does not contribute). Runs COPE, then the authentication check.
///
/// # Errors
/// [`CoralError::CheckFailed`] with [`Check::Authentication`] (or a coin-toss / MAC commitment
/// check) if the peer deviated; malformed frames; network errors.
pub(crate) async fn authenticate<N: Network>(
    party: &mut Party,
    cope: &mut Cope,
    net: &mut N,
    kinds: &[Contributor],
    own: &[u64],
) -> Result<Vec<RShare>, CoralError> {
    let (me, n) = (party.me, party.parties);
    let params = party.params.clone();
    let field = *params.field();
    let real = kinds.len();
    let mut kinds = kinds.to_vec();
    let mut own = own.to_vec();
    own.resize(real, 0);
    for owner in 0..n {
        for _ in 0..KEY_TEST {
            let x = if owner == me { field.random(&mut party.rng) } else { 0 };
            kinds.extend([Contributor::Only(owner); 2]);
            own.extend([x, params.mul(LINEARITY_C, x)]);
        }
    }
    kinds.push(Contributor::All);
    own.push(field.random(&mut party.rng));
    let mine: Vec<u64> = kinds.iter().zip(&own).filter(|(k, _)| k.includes(me)).map(|(_, &x)| x).collect();
    let counts: Vec<usize> = (0..n).map(|j| kinds.iter().filter(|k| k.includes(j)).count()).collect();
    let out = cope.extend(&mut party.channel, net, &mine, &counts).await?;
    let mut t: Vec<_> = out.own.into_iter().map(|v| v.into_iter()).collect();
    let mut q: Vec<_> = out.peer.into_iter().map(|v| v.into_iter()).collect();
    let alpha = party.material.alpha;
    let mut shares = Vec::with_capacity(kinds.len());
    for (&k, &x) in kinds.iter().zip(&own) {
        let mut s = RShare::default();
        for j in (0..n).filter(|&j| j != me) {
            if k.includes(me) {
                s.mac ^= t[j].next().expect("one t per own element and peer");
            }
            if k.includes(j) {
                s.mac ^= q[j].next().expect("one q per peer element");
            }
        }
        if k.includes(me) {
            s.value = x;
            s.mac ^= params.mul(alpha, x);
        }
        shares.push(s);
    }
    let extra = shares.pop().expect("the extra element");
    let tests = shares.split_off(real);
    let mut coins = coin_toss(&mut party.channel, net, &mut party.rng).await?;
    let y = shares.iter().fold(extra, |acc, s| acc + s.scale(&params, field.random(&mut coins)));
    let mut opens = vec![y];
    opens.extend(tests.chunks_exact(2).map(|p| p[1] + p[0].scale(&params, LINEARITY_C)));
    let opened = party.open(net, Step::AuthOpen, &opens).await?;
    party.check(net).await.map_err(|e| match e {
        CoralError::CheckFailed { check: Check::Mac } => CoralError::failed(Check::Authentication),
        e => e,
    })?;
    if opened[1..].iter().any(|&z| z != 0) {
        return Err(CoralError::failed(Check::Authentication));
    }
    Ok(shares)
}

/// The encoding-pair check on `pairs` (the last [`ENCODING_SECURITY`] are sacrificed). The
/// openings are logged for the caller's MAC check.
///
/// # Errors
/// [`CoralError::CheckFailed`] with [`Check::EncodingTau`]; coin-toss, frame or network errors.
pub(crate) async fn check_encodings<N: Network>(
    party: &mut Party,
    net: &mut N,
    pairs: &[Encoding],
) -> Result<(), CoralError> {
    let s = ENCODING_SECURITY;
    let e = pairs.len().saturating_sub(s);
    if pairs.len() != e + s {
        return Err(CoralError::BadInput(format!("the encoding check needs at least {s} pairs")));
    }
    let mut coins = coin_toss(&mut party.channel, net, &mut party.rng).await?;
    let mut opens = Vec::with_capacity(2 * s);
    for h in 0..s {
        let (mut d, mut f) = (pairs[e + h].r, pairs[e + h].tau_r);
        for p in &pairs[..e] {
            if coins.next_u32() & 1 == 1 {
                d = d + p.r;
                f = f + p.tau_r;
            }
        }
        opens.extend([d, f]);
    }
    let opened = party.open(net, Step::EncodingOpen, &opens).await?;
    for df in opened.chunks_exact(2) {
        if party.params.tau_public(df[0]) != df[1] {
            return Err(CoralError::failed(Check::EncodingTau));
        }
    }
    Ok(())
}
