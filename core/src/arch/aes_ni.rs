//! AES-128 with AES-NI for the TinyTable kernels that run many fixed-key or seeded AES calls in
//! their own loops ([`crate::proto::tinytable::circuit::opened_macs`], `sbox_malicious::openings`): the key schedule
//! expanded once with `aeskeygenassist` (FIPS-197 §5.2) and groups of blocks encrypted
//! interleaved round by round, so the kernels keep the `aesenc` unit busy and the round keys in
//! registers, plus the register type [`Block`] those kernels compute on (so protocol code needs no
//! `core::arch` import). x86-64 only; callers pick their backend once ([`super::AesBackend`]) and
//! fall back to the `aes` crate elsewhere. The same key schedule drives the VAES backend of
//! [`super::many_aes`] ([`RoundKeys::encrypt_many_vaes`]: four blocks per 512-bit instruction).
//! Tested against FIPS-197 Appendix C.1 and the `aes` crate.
//!
//! Every function needs SSE2 (x86-64 baseline) and those that say so AES-NI, SSE4.1 or VAES with
//! AVX-512F; they are `#[target_feature]` functions, callable safely from kernels compiled with
//! the same features, which are only entered after [`super::AesBackend::detect`] (or
//! [`super::ManyAesBackend::detect`]) found them.

use core::arch::x86_64::{
    __m128i, __m512i, _mm512_aesenc_epi128, _mm512_aesenclast_epi128, _mm512_broadcast_i32x4,
    _mm512_loadu_si512, _mm512_storeu_si512, _mm512_xor_si512, _mm_aesenc_si128, _mm_aesenclast_si128,
    _mm_aeskeygenassist_si128, _mm_and_si128, _mm_cvtsi128_si64, _mm_cvtsi64_si128, _mm_extract_epi8,
    _mm_loadu_si128, _mm_set_epi64x, _mm_shuffle_epi32, _mm_slli_si128, _mm_unpackhi_epi64, _mm_xor_si128,
};

/// One 128-bit SSE register (an AES block, a tag, an accumulator).
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub(crate) struct Block(__m128i);

impl Block {
    /// The register holding the little-endian `v`.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(crate) fn from_u128(v: u128) -> Self {
        Block(from_u128(v))
    }

    /// The register as a little-endian `u128`.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(crate) fn to_u128(self) -> u128 {
        to_u128(self.0)
    }

    /// `v` in the low 64 bits, zeros above.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(crate) fn from_u64(v: u64) -> Self {
        Block(_mm_cvtsi64_si128(v as i64))
    }

    /// `*v` loaded straight into a register.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(crate) fn load(v: &u128) -> Self {
        // SAFETY: `v` is a live `u128`; unaligned loads accept any address.
        Block(unsafe { _mm_loadu_si128((v as *const u128).cast()) })
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    pub(crate) fn xor(self, other: Self) -> Self {
        Block(_mm_xor_si128(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    pub(crate) fn and(self, other: Self) -> Self {
        Block(_mm_and_si128(self.0, other.0))
    }

    /// The most significant byte (byte 15).
    #[inline]
    #[target_feature(enable = "sse2,sse4.1")]
    pub(crate) fn top_byte(self) -> u8 {
        _mm_extract_epi8::<15>(self.0) as u8
    }
}

/// A register as a little-endian `u128` (byte 0 lowest).
#[inline]
#[target_feature(enable = "sse2")]
fn to_u128(v: __m128i) -> u128 {
    let low = _mm_cvtsi128_si64(v) as u64;
    let high = _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64;
    (u128::from(high) << 64) | u128::from(low)
}

/// A little-endian `u128` as a register.
#[inline]
#[target_feature(enable = "sse2")]
fn from_u128(v: u128) -> __m128i {
    _mm_set_epi64x((v >> 64) as i64, v as i64)
}

/// The 11 round keys of AES-128 (FIPS-197 §5.2).
#[derive(Clone, Copy)]
pub(crate) struct RoundKeys([__m128i; 11]);

/// One step of the AES-128 key expansion: `aeskeygenassist` gives `SubWord(RotWord(w3)) ⊕ Rcon`
/// in its top word, which is XORed into the prefix XORs of the previous round key's words.
#[inline]
#[target_feature(enable = "sse2,aes")]
fn expand_step<const RCON: i32>(key: __m128i) -> __m128i {
    let t = _mm_shuffle_epi32::<0xff>(_mm_aeskeygenassist_si128::<RCON>(key));
    let mut k = _mm_xor_si128(key, _mm_slli_si128::<4>(key));
    k = _mm_xor_si128(k, _mm_slli_si128::<8>(k));
    _mm_xor_si128(k, t)
}

impl RoundKeys {
    /// The key schedule of `key` (bytes in FIPS-197 order).
    #[target_feature(enable = "sse2,aes")]
    pub(crate) fn expand(key: &[u8; 16]) -> Self {
        let mut rk = [from_u128(u128::from_le_bytes(*key)); 11];
        rk[1] = expand_step::<0x01>(rk[0]);
        rk[2] = expand_step::<0x02>(rk[1]);
        rk[3] = expand_step::<0x04>(rk[2]);
        rk[4] = expand_step::<0x08>(rk[3]);
        rk[5] = expand_step::<0x10>(rk[4]);
        rk[6] = expand_step::<0x20>(rk[5]);
        rk[7] = expand_step::<0x40>(rk[6]);
        rk[8] = expand_step::<0x80>(rk[7]);
        rk[9] = expand_step::<0x1b>(rk[8]);
        rk[10] = expand_step::<0x36>(rk[9]);
        RoundKeys(rk)
    }

    /// AES-128 of `W` blocks, interleaved round by round.
    #[inline]
    #[target_feature(enable = "sse2,aes")]
    pub(crate) fn encrypt_group<const W: usize>(&self, b: [Block; W]) -> [Block; W] {
        let mut b = b.map(|x| x.0);
        let k = &self.0;
        for x in b.iter_mut() {
            *x = _mm_xor_si128(*x, k[0]);
        }
        for key in &k[1..10] {
            for x in b.iter_mut() {
                *x = _mm_aesenc_si128(*x, *key);
            }
        }
        for x in b.iter_mut() {
            *x = _mm_aesenclast_si128(*x, k[10]);
        }
        b.map(Block)
    }

    /// AES-128 of every block of `blocks` in place (little-endian `u128`s, byte 0 of the AES block
    /// least significant) with VAES on 512-bit registers, four blocks per instruction: 16 blocks
    /// interleaved round by round per pass, then 4, then the last one to three with AES-NI.
    #[target_feature(enable = "sse2,aes,avx512f,vaes")]
    pub(crate) fn encrypt_many_vaes(&self, blocks: &mut [u128]) {
        let k: [__m512i; 11] = core::array::from_fn(|i| _mm512_broadcast_i32x4(self.0[i]));
        let mut sixteen = blocks.chunks_exact_mut(16);
        for chunk in &mut sixteen {
            vaes_pass::<4>(&k, chunk);
        }
        let mut four = sixteen.into_remainder().chunks_exact_mut(4);
        for chunk in &mut four {
            vaes_pass::<1>(&k, chunk);
        }
        for b in four.into_remainder() {
            let [y] = self.encrypt_group([Block::from_u128(*b)]);
            *b = y.to_u128();
        }
    }
}

/// AES-128 of the `4·V` blocks of `chunk` in place, `V` 512-bit registers interleaved.
#[inline]
#[target_feature(enable = "avx512f,vaes")]
fn vaes_pass<const V: usize>(k: &[__m512i; 11], chunk: &mut [u128]) {
    assert_eq!(chunk.len(), 4 * V);
    let p = chunk.as_mut_ptr().cast::<__m512i>();
    // SAFETY: `chunk` holds exactly `V` 64-byte vectors; the loads and stores are unaligned.
    let mut x: [__m512i; V] = core::array::from_fn(|i| unsafe { _mm512_loadu_si512(p.add(i).cast()) });
    for v in x.iter_mut() {
        *v = _mm512_xor_si512(*v, k[0]);
    }
    for key in &k[1..10] {
        for v in x.iter_mut() {
            *v = _mm512_aesenc_epi128(*v, *key);
        }
    }
    for (i, v) in x.iter().enumerate() {
        // SAFETY: as above.
        unsafe { _mm512_storeu_si512(p.add(i).cast(), _mm512_aesenclast_epi128(*v, k[10])) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aes::cipher::generic_array::GenericArray;
    use aes::cipher::{BlockEncrypt, KeyInit};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    fn available() -> bool {
        crate::arch::Cpu::detected().aes
    }

    #[test]
    fn key_schedule_and_groups_match_fips197_and_the_aes_crate() {
        if !available() {
            return;
        }
        // FIPS-197 Appendix C.1.
        use crate::aes::fips197::{CIPHERTEXT, KEY, PLAINTEXT};
        // SAFETY: AES-NI and SSE2 were detected above.
        let [got] = unsafe {
            RoundKeys::expand(&KEY).encrypt_group([Block::from_u128(u128::from_le_bytes(PLAINTEXT))])
        };
        // SAFETY: as above.
        assert_eq!(unsafe { got.to_u128() }.to_le_bytes(), CIPHERTEXT);
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        for _ in 0..20 {
            let mut key = [0u8; 16];
            rng.fill_bytes(&mut key);
            let cipher = aes::Aes128::new(GenericArray::from_slice(&key));
            let blocks: [u128; 8] =
                core::array::from_fn(|_| u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64()));
            // SAFETY: as above.
            let got = unsafe { RoundKeys::expand(&key).encrypt_group(blocks.map(|b| Block::from_u128(b))) };
            let want = blocks.map(|b| {
                let mut g = GenericArray::from(b.to_le_bytes());
                cipher.encrypt_block(&mut g);
                u128::from_le_bytes(g.into())
            });
            // SAFETY: as above.
            assert_eq!(got.map(|b| unsafe { b.to_u128() }), want);
        }
    }
}
