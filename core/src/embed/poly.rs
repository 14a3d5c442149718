//! Polynomials over a runtime binary field GF(2^r), the algebra behind every embedding map.
//!
//! One generic implementation parameterized by a [`BinaryField`] value serves all the rings the
//! paper needs (Coral §2.2.3, §3.2, §3.3): F_q\[X\] for the RMFE/MFE interpolation and evaluation,
//! F_q\[Y\]/(P(Y)) for composite fields, and GF(2^m)\[Z\] for finding the roots that define the
//! composite ↔ binary conversion. This is the reference (slow, allocation-heavy) path: it is run
//! once per map to compile it into an F2-linear map (see [`super::linear_map`]) and in tests.
//!
//! A polynomial is a `Vec<u64>` of coefficients, lowest degree first, with no trailing zeros (the
//! zero polynomial is empty). Characteristic 2 makes subtraction the same as addition.

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

use crate::field::BinaryField;

/// A polynomial over a binary field, lowest coefficient first, without trailing zeros.
pub(crate) type Poly = Vec<u64>;

/// Drops trailing zero coefficients.
pub(crate) fn normalize(mut p: Poly) -> Poly {
    while p.last() == Some(&0) {
        p.pop();
    }
    p
}

/// The degree, `None` for the zero polynomial.
pub(crate) fn degree(p: &[u64]) -> Option<usize> {
    p.iter().rposition(|&c| c != 0)
}

/// `a + b` (= `a - b`).
pub(crate) fn add(a: &[u64], b: &[u64]) -> Poly {
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let mut sum = long.to_vec();
    for (s, &c) in sum.iter_mut().zip(short) {
        *s ^= c;
    }
    normalize(sum)
}

/// `c · p`.
pub(crate) fn scale(field: &BinaryField, p: &[u64], c: u64) -> Poly {
    normalize(p.iter().map(|&a| field.mul(a, c)).collect())
}

/// `a · b`.
pub(crate) fn mul(field: &BinaryField, a: &[u64], b: &[u64]) -> Poly {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut product = vec![0u64; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        if x == 0 {
            continue;
        }
        for (j, &y) in b.iter().enumerate() {
            product[i + j] ^= field.mul(x, y);
        }
    }
    normalize(product)
}

/// Quotient and remainder of `a / b`; `b` must be non-zero (callers pass validated moduli).
pub(crate) fn div_rem(field: &BinaryField, a: &[u64], b: &[u64]) -> (Poly, Poly) {
    let Some(db) = degree(b) else {
        return (Vec::new(), normalize(a.to_vec()));
    };
    let mut rem = normalize(a.to_vec());
    if rem.len() <= db {
        return (Vec::new(), rem);
    }
    let lead_inv = field.inverse(b[db]);
    let mut quot = vec![0u64; rem.len() - db];
    while let Some(dr) = degree(&rem) {
        if dr < db {
            break;
        }
        let c = field.mul(rem[dr], lead_inv);
        let shift = dr - db;
        quot[shift] = c;
        for (i, &bc) in b[..=db].iter().enumerate() {
            rem[shift + i] ^= field.mul(c, bc);
        }
        rem.truncate(dr);
        rem = normalize(rem);
    }
    (normalize(quot), rem)
}

/// `a mod b` for non-zero `b`.
pub(crate) fn rem(field: &BinaryField, a: &[u64], b: &[u64]) -> Poly {
    div_rem(field, a, b).1
}

/// `a · b mod modulus`.
pub(crate) fn mul_mod(field: &BinaryField, a: &[u64], b: &[u64], modulus: &[u64]) -> Poly {
    rem(field, &mul(field, a, b), modulus)
}

/// The monic greatest common divisor (zero if both are zero).
pub(crate) fn gcd(field: &BinaryField, a: &[u64], b: &[u64]) -> Poly {
    let mut a = normalize(a.to_vec());
    let mut b = normalize(b.to_vec());
    while !b.is_empty() {
        let r = rem(field, &a, &b);
        a = b;
        b = r;
    }
    match a.last() {
        Some(&lead) => scale(field, &a, field.inverse(lead)),
        None => a,
    }
}

/// `p(x)` by Horner's rule.
pub(crate) fn eval(field: &BinaryField, p: &[u64], x: u64) -> u64 {
    p.iter().rev().fold(0, |acc, &c| field.add(field.mul(acc, x), c))
}

/// `∏ (X − r)` over the given roots.
pub(crate) fn from_roots(field: &BinaryField, roots: &[u64]) -> Poly {
    roots.iter().fold(vec![1], |acc, &r| mul(field, &acc, &[r, 1]))
}

/// The unique polynomial of degree < `xs.len()` with `p(xs[i]) = ys[i]` (Lagrange form).
/// The points must be distinct; callers validate them at construction.
pub(crate) fn interpolate(field: &BinaryField, xs: &[u64], ys: &[u64]) -> Poly {
    let vanishing = from_roots(field, xs);
    let mut result = vec![0u64; xs.len()];
    for (i, (&xi, &yi)) in xs.iter().zip(ys).enumerate() {
        if yi == 0 {
            continue;
        }
        let (basis, _) = div_rem(field, &vanishing, &[xi, 1]);
        let denominator = xs
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .fold(1, |acc, (_, &xj)| field.mul(acc, field.add(xi, xj)));
        let weight = field.mul(yi, field.inverse(denominator));
        for (r, &c) in result.iter_mut().zip(&basis) {
            *r ^= field.mul(weight, c);
        }
    }
    normalize(result)
}

/// `p^(2^times) mod modulus` by repeated squaring (the Frobenius map applied `times` times).
fn frobenius_mod(field: &BinaryField, p: &[u64], modulus: &[u64], times: u32) -> Poly {
    let mut acc = rem(field, p, modulus);
    for _ in 0..times {
        acc = mul_mod(field, &acc, &acc, modulus);
    }
    acc
}

/// Ben-Or's test: a monic `p` of degree `d ≥ 1` over F_q (q = 2^r) is irreducible iff
/// `gcd(p, X^(q^i) − X) = 1` for every `1 ≤ i ≤ d/2`.
pub(crate) fn is_irreducible(field: &BinaryField, p: &[u64]) -> bool {
    let Some(d) = degree(p) else { return false };
    if d == 0 {
        return false;
    }
    let x: Poly = vec![0, 1];
    let mut x_power = rem(field, &x, p);
    for _ in 1..=d / 2 {
        x_power = frobenius_mod(field, &x_power, p, field.m());
        if degree(&gcd(field, p, &add(&x_power, &x))) != Some(0) {
            return false;
        }
    }
    true
}

/// All distinct roots in `field` of a non-zero `p`, sorted increasingly (so the result does not
/// depend on the splitting order). `None` if the splitting did not finish, which does not happen
/// in practice: each random trace split succeeds with probability about 1/2.
pub(crate) fn distinct_roots(field: &BinaryField, p: &[u64]) -> Option<Vec<u64>> {
    let p = normalize(p.to_vec());
    if degree(&p)? == 0 {
        return Some(Vec::new());
    }
    let x: Poly = vec![0, 1];
    let x_to_field_size = frobenius_mod(field, &x, &p, field.m());
    let split_part = gcd(field, &p, &add(&x_to_field_size, &x));
    let mut rng = ChaCha20Rng::seed_from_u64(0x636f_7261_6c5f_726f);
    let mut roots = Vec::new();
    split_into_roots(field, &split_part, &mut rng, &mut roots)?;
    roots.sort_unstable();
    Some(roots)
}

/// Splits a monic product of distinct linear factors with random trace polynomials
/// `Tr(cX) = Σ_{i<m} (cX)^(2^i) mod g` (equal-degree factorization in characteristic 2).
fn split_into_roots(
    field: &BinaryField,
    g: &[u64],
    rng: &mut ChaCha20Rng,
    roots: &mut Vec<u64>,
) -> Option<()> {
    const MAX_ATTEMPTS: usize = 256;
    match degree(g) {
        None | Some(0) => return Some(()),
        Some(1) => {
            roots.push(field.mul(g[0], field.inverse(g[1])));
            return Some(());
        }
        Some(_) => {}
    }
    for _ in 0..MAX_ATTEMPTS {
        let c = field.random(rng);
        let mut term = rem(field, &[0, c], g);
        let mut trace = term.clone();
        for _ in 1..field.m() {
            term = mul_mod(field, &term, &term, g);
            trace = add(&trace, &term);
        }
        let factor = gcd(field, g, &trace);
        let factor_degree = degree(&factor)?;
        if factor_degree > 0 && factor_degree < degree(g)? {
            let (cofactor, _) = div_rem(field, g, &factor);
            split_into_roots(field, &factor, rng, roots)?;
            return split_into_roots(field, &cofactor, rng, roots);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gf8() -> BinaryField {
        BinaryField::new(3, 0b101).unwrap()
    }

    #[test]
    fn division_reconstructs_the_dividend() {
        let f = gf8();
        let a = vec![3, 1, 7, 0, 5, 2];
        let b = vec![6, 0, 1, 4];
        let (q, r) = div_rem(&f, &a, &b);
        assert!(degree(&r).is_none_or(|d| d < 3));
        assert_eq!(add(&mul(&f, &q, &b), &r), normalize(a));
    }

    #[test]
    fn interpolation_hits_every_point() {
        let f = gf8();
        let xs = [0, 1, 2, 3, 4, 5, 6];
        let ys = [7, 0, 3, 3, 1, 6, 2];
        let p = interpolate(&f, &xs, &ys);
        assert!(degree(&p).unwrap() < xs.len());
        for (&x, &y) in xs.iter().zip(&ys) {
            assert_eq!(eval(&f, &p, x), y);
        }
    }

    #[test]
    fn irreducibility_over_gf2_matches_known_polynomials() {
        let f2 = BinaryField::new(1, 0).unwrap();
        assert!(is_irreducible(&f2, &[1, 1, 1]));
        assert!(is_irreducible(&f2, &[1, 1, 0, 1]));
        assert!(!is_irreducible(&f2, &[1, 0, 1]));
        assert!(!is_irreducible(&f2, &[1, 1, 1, 1]));
        assert!(!is_irreducible(&f2, &[0, 1, 1]));
    }

    #[test]
    fn irreducibility_over_gf8_counts_match_gauss_formula() {
        // Monic irreducible quadratics over F_8: (8^2 - 8) / 2 = 28.
        let f = gf8();
        let count = (0..8u64)
            .flat_map(|a| (0..8u64).map(move |b| vec![b, a, 1]))
            .filter(|p| is_irreducible(&f, p))
            .count();
        assert_eq!(count, 28);
    }

    #[test]
    fn roots_of_a_split_polynomial_are_found() {
        let f = BinaryField::new(42, 0x2000_0007).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let mut expected: Vec<u64> = (0..9).map(|_| f.random(&mut rng)).collect();
        expected.sort_unstable();
        expected.dedup();
        let p = from_roots(&f, &expected);
        // An irreducible quintic over GF(2) has no root in GF(2^42) because 5 does not divide 42.
        let p = mul(&f, &p, &[1, 0, 1, 0, 0, 1]);
        assert_eq!(distinct_roots(&f, &p).unwrap(), expected);
    }
}
