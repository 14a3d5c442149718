//! The words one party contributes to a chunk ([`contributions`]: TinyOT share planes and bytes,
//! with data 0 at unused positions, zero-data `R` words, masks) and the online phase's material assembled from the checked shares
//! of every slot ([`assemble`]); see the [parent module](super) for the relations.

use super::layout::{Layout, CODEWORD_REPS, CONSISTENCY_REPS, C_WORD, PER_TRIPLE, R_A};
#[cfg(test)]
use super::Cheat;
use crate::field::Gf256;
use crate::net::PartyId;
use crate::ot::any_tiny::{Bits, Triples};
use crate::proto::minimac::error::MiniMacError;
use crate::proto::minimac::params::MiniMacCode;
use crate::proto::minimac::prep::{xor_into, A, A_BITS, B, B_BITS, C, TRIPLE_WORDS};
use rand_chacha::ChaCha20Rng;
use rand_core::RngCore;

/// One party's material of one chunk, before it joins the batch.
pub(super) struct ChunkMaterial {
    pub triples: Vec<u8>,
    pub input_masks: Vec<u8>,
    pub own_masks: Vec<u8>,
    pub output_masks: Vec<u8>,
    pub own_output_masks: Vec<u8>,
}

/// This party's contributions to one chunk (its slots only, `n` bytes each, slot order) and the
/// data it alone knows.
pub(super) struct Contributions {
    pub words: Vec<u8>,
    pub own_masks: Vec<u8>,
    pub own_output_masks: Vec<u8>,
}

/// This party's contributions to `layout`'s slots (see the module docs).
pub(super) fn contributions(
    code: &'static MiniMacCode,
    layout: &Layout,
    triples: &Triples,
    masks: &Bits,
    me: PartyId,
    rng: &mut ChaCha20Rng,
    #[cfg(test)] cheat: Option<Cheat>,
) -> Result<Contributions, MiniMacError> {
    let (n, k, k_star) = (code.n(), code.k(), code.star.k());
    let mut words = Vec::with_capacity(layout.len() * n);
    let (mut own_masks, mut own_output_masks) = (Vec::new(), Vec::new());
    let mut word = vec![Gf256(0); n];
    let mut c_word = |data: &[u8], words: &mut Vec<u8>| -> Result<(), MiniMacError> {
        code.c.encode_into(Gf256::from_bytes(data), &mut word)?;
        words.extend_from_slice(Gf256::as_bytes(&word));
        Ok(())
    };
    let r_word = |rng: &mut ChaCha20Rng, words: &mut Vec<u8>| -> Result<(), MiniMacError> {
        let mut systematic = vec![Gf256(0); k_star];
        rng.fill_bytes(Gf256::as_bytes_mut(&mut systematic[k..]));
        words.extend_from_slice(Gf256::as_bytes(&code.star.encode(&systematic)?));
        Ok(())
    };
    let random = |rng: &mut ChaCha20Rng| {
        let mut v = vec![0u8; k];
        rng.fill_bytes(&mut v);
        v
    };
    for t in 0..layout.triples {
        // Bit i of byte j is position 8j + i: its TinyOT share bit if used, else 0.
        let bit = |p: usize, which: usize| layout.tiny(t, p).map_or(0, |at| u8::from(triples.bit(which, at)));
        let bytes = |which: usize| -> Vec<u8> {
            (0..k).map(|j| (0..8).fold(0u8, |acc, i| acc | bit(8 * j + i, which) << i)).collect()
        };
        for which in [0, 1] {
            let data = bytes(which);
            for i in 0..8u32 {
                let plane = code.c.encode_bit_plane(Gf256::from_bytes(&data), i)?;
                words.extend_from_slice(Gf256::as_bytes(&plane));
            }
        }
        c_word(&bytes(2), &mut words)?;
        for _ in R_A..PER_TRIPLE {
            r_word(rng, &mut words)?;
        }
    }
    for &owner in &layout.inputs {
        if owner == me {
            let r = random(rng);
            c_word(&r, &mut words)?;
            own_masks.extend_from_slice(&r);
        }
    }
    for &recipient in &layout.outputs {
        if recipient == me {
            let s = random(rng);
            c_word(&s, &mut words)?;
            own_output_masks.extend_from_slice(&s);
        } else {
            r_word(rng, &mut words)?;
        }
    }
    for _ in 0..CODEWORD_REPS {
        let m = random(rng);
        c_word(&m, &mut words)?;
    }
    for _ in 0..CODEWORD_REPS {
        r_word(rng, &mut words)?;
    }
    for h in 0..CONSISTENCY_REPS {
        let data: Vec<u8> = (0..k)
            .map(|j| (0..8).fold(0u8, |acc, i| acc | u8::from(masks.bit((h * k + j) * 8 + i)) << i))
            .collect();
        c_word(&data, &mut words)?;
    }
    #[cfg(test)]
    apply_cheat(cheat, code, &mut words, layout.triples > 0)?;
    Ok(Contributions { words, own_masks, own_output_masks })
}

/// Material-level cheats on the first triple's words (every triple slot is this party's).
#[cfg(test)]
fn apply_cheat(
    cheat: Option<Cheat>,
    code: &'static MiniMacCode,
    words: &mut [u8],
    any: bool,
) -> Result<(), MiniMacError> {
    let (n, k) = (code.n(), code.k());
    let mut e0 = vec![Gf256(0); k];
    e0[0] = Gf256(1);
    let unit = code.c.encode(&e0)?;
    let word = |w: usize| w * n..(w + 1) * n;
    match cheat {
        Some(Cheat::NonCodewordPlane) if any => words[n - 1] ^= 1,
        Some(Cheat::RData) if any => words[word(R_A)].iter_mut().for_each(|b| *b ^= 1),
        Some(Cheat::PlaneData) if any => xor_into(&mut words[word(0)], Gf256::as_bytes(&unit)),
        Some(Cheat::UnusedPlaneData) if any => {
            // Bit 0 of the last data byte of plane 0 of a: position 8(k - 1), unused in a batch
            // of at most 8(k - 1) instances.
            let mut last = vec![Gf256(0); k];
            last[k - 1] = Gf256(1);
            xor_into(&mut words[word(0)], Gf256::as_bytes(&code.c.encode(&last)?));
        }
        Some(Cheat::CData) if any => xor_into(&mut words[word(C_WORD)], Gf256::as_bytes(&unit)),
        _ => {}
    }
    Ok(())
}

/// `acc += c·src` on `2n`-byte shares.
fn axpy(acc: &mut [u8], src: &[u8], c: u8) {
    Gf256::mul_add_scalar_slice(Gf256::from_bytes_mut(acc), Gf256::from_bytes(src), Gf256(c));
}

/// The online phase's material from the checked shares of one chunk.
pub(super) fn assemble(
    layout: &Layout,
    shares: &[u8],
    n: usize,
    own_masks: Vec<u8>,
    own_output_masks: Vec<u8>,
) -> ChunkMaterial {
    let share = |slot: usize| &shares[slot * 2 * n..(slot + 1) * 2 * n];
    let mut triples = vec![0u8; layout.triples * TRIPLE_WORDS * 2 * n];
    for (t, triple) in triples.chunks_exact_mut(TRIPLE_WORDS * 2 * n).enumerate() {
        let word = |w: usize| w * 2 * n..(w + 1) * 2 * n;
        for (x, bits, planes, r) in [(A, A_BITS, 0, R_A), (B, B_BITS, 8, R_A + 1)] {
            for i in 0..8 {
                let plane = share(layout.triple(t, planes + i));
                axpy(&mut triple[word(bits + i)], plane, 1 << i);
                axpy(&mut triple[word(x)], plane, 1 << i);
            }
            xor_into(&mut triple[word(x)], share(layout.triple(t, r)));
        }
        xor_into(&mut triple[word(C)], share(layout.triple(t, C_WORD)));
        xor_into(&mut triple[word(C)], share(layout.triple(t, R_A + 2)));
    }
    let mut input_masks = Vec::with_capacity(layout.inputs.len() * 2 * n);
    for i in 0..layout.inputs.len() {
        input_masks.extend_from_slice(share(layout.input(i)));
    }
    let mut output_masks = Vec::with_capacity(layout.outputs.len() * 2 * n);
    for o in 0..layout.outputs.len() {
        let (s, r) = layout.output(o);
        let mut m = share(s).to_vec();
        xor_into(&mut m, share(r));
        output_masks.extend_from_slice(&m);
    }
    ChunkMaterial { triples, input_masks, own_masks, output_masks, own_output_masks }
}
