//! The AES key expansion (FIPS-197 §5.2, Figure 11), written once over any [`AesByte`].
//!
//! The only non-linear step is `SubWord`, which the caller supplies: plain AES passes the S-box,
//! a protocol passes its oblivious S-box on four shared bytes. `RotWord` and the `Rcon` additions
//! are linear and done here.

use super::AesByte;

/// The three AES key sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeySize {
    /// AES-128: Nk = 4, Nr = 10.
    Aes128,
    /// AES-192: Nk = 6, Nr = 12.
    Aes192,
    /// AES-256: Nk = 8, Nr = 14.
    Aes256,
}

impl KeySize {
    /// The key size for a key of `len` bytes, if it is one.
    pub fn from_key_len(len: usize) -> Option<Self> {
        match len {
            16 => Some(KeySize::Aes128),
            24 => Some(KeySize::Aes192),
            32 => Some(KeySize::Aes256),
            _ => None,
        }
    }

    /// Nk: key length in 32-bit words.
    pub const fn key_words(self) -> usize {
        match self {
            KeySize::Aes128 => 4,
            KeySize::Aes192 => 6,
            KeySize::Aes256 => 8,
        }
    }

    /// Key length in bytes.
    pub const fn key_bytes(self) -> usize {
        4 * self.key_words()
    }

    /// Nr: number of rounds.
    pub const fn rounds(self) -> usize {
        self.key_words() + 6
    }

    /// Number of `SubWord` calls of the key expansion (each is four S-boxes): 10, 8 and 13 for
    /// AES-128, -192 and -256 — 40, 32 and 52 S-boxes.
    pub const fn sub_word_count(self) -> usize {
        let nk = self.key_words();
        let total = 4 * (self.rounds() + 1);
        let mut count = 0;
        let mut i = nk;
        while i < total {
            if i.is_multiple_of(nk) || (nk > 6 && i % nk == 4) {
                count += 1;
            }
            i += 1;
        }
        count
    }
}

/// The round keys of an expanded key: Nr + 1 blocks of 16 bytes.
#[derive(Clone)]
pub struct RoundKeys<B> {
    key_size: KeySize,
    keys: Vec<[B; 16]>,
}

impl<B: AesByte> RoundKeys<B> {
    /// Round keys supplied directly (e.g. already expanded and shared).
    ///
    /// Returns `None` if the count is not Nr + 1 for `key_size`.
    pub fn from_round_keys(key_size: KeySize, keys: Vec<[B; 16]>) -> Option<Self> {
        (keys.len() == key_size.rounds() + 1).then_some(RoundKeys { key_size, keys })
    }

    /// The key size.
    pub fn key_size(&self) -> KeySize {
        self.key_size
    }

    /// Nr.
    pub fn rounds(&self) -> usize {
        self.key_size.rounds()
    }

    /// Round key `r`, 0 ≤ r ≤ Nr.
    pub fn round(&self, r: usize) -> &[B; 16] {
        &self.keys[r]
    }

    /// All round keys.
    pub fn as_slice(&self) -> &[[B; 16]] {
        &self.keys
    }
}

/// Rcon[i] = x^(i-1) in GF(2^8), for i = 1..=10 (FIPS-197 §5.2).
const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// The key expansion as a state machine, so a synchronous caller (plain AES) and an asynchronous
/// one (an MPC protocol whose `SubWord` is a network round trip) drive the same code.
///
/// Loop: while [`KeyExpansion::pending_sub_word`] returns a word, compute `SubWord` of it and pass
/// the result to [`KeyExpansion::supply_sub_word`]; then call [`KeyExpansion::finish`].
#[derive(Clone)]
pub struct KeyExpansion<B> {
    key_size: KeySize,
    words: Vec<[B; 4]>,
}

impl<B: AesByte> KeyExpansion<B> {
    /// Starts expanding `key` (exactly `key_size.key_bytes()` bytes).
    ///
    /// # Panics
    /// If `key.len() != key_size.key_bytes()` (callers derive `key_size` from the key; the public
    /// byte API [`super::Aes::new`] validates lengths and returns an error instead).
    pub fn new(key_size: KeySize, key: &[B]) -> Self {
        assert_eq!(key.len(), key_size.key_bytes(), "KeyExpansion: key length does not match key size");
        let words = key.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
        let mut expansion = KeyExpansion { key_size, words };
        expansion.advance_linear();
        expansion
    }

    fn total_words(&self) -> usize {
        4 * (self.key_size.rounds() + 1)
    }

    fn needs_sub_word(&self, i: usize) -> bool {
        let nk = self.key_size.key_words();
        i.is_multiple_of(nk) || (nk > 6 && i % nk == 4)
    }

    /// Computes words that need no `SubWord` until the next one that does.
    fn advance_linear(&mut self) {
        let nk = self.key_size.key_words();
        while self.words.len() < self.total_words() && !self.needs_sub_word(self.words.len()) {
            let i = self.words.len();
            let (prev, temp) = (self.words[i - nk], self.words[i - 1]);
            self.words.push(core::array::from_fn(|j| prev[j] + temp[j]));
        }
    }

    /// The input of the next `SubWord` (already rotated where FIPS-197 applies `RotWord`), or
    /// `None` when the expansion is complete.
    pub fn pending_sub_word(&self) -> Option<[B; 4]> {
        let i = self.words.len();
        if i >= self.total_words() {
            return None;
        }
        let mut temp = self.words[i - 1];
        if i.is_multiple_of(self.key_size.key_words()) {
            temp.rotate_left(1);
        }
        Some(temp)
    }

    /// Supplies `SubWord` of the word returned by [`Self::pending_sub_word`].
    ///
    /// # Panics
    /// If the expansion is already complete (a programming error of the driver).
    pub fn supply_sub_word(&mut self, mut substituted: [B; 4]) {
        let nk = self.key_size.key_words();
        let i = self.words.len();
        assert!(i < self.total_words(), "KeyExpansion: SubWord supplied after completion");
        if i.is_multiple_of(nk) {
            substituted[0] = substituted[0].add_public(RCON[i / nk - 1]);
        }
        let prev = self.words[i - nk];
        self.words.push(core::array::from_fn(|j| prev[j] + substituted[j]));
        self.advance_linear();
    }

    /// The round keys, once every `SubWord` has been supplied; `None` before.
    pub fn finish(self) -> Option<RoundKeys<B>> {
        if self.words.len() != self.total_words() {
            return None;
        }
        let keys = self.words.chunks_exact(4).map(|w| core::array::from_fn(|j| w[j / 4][j % 4])).collect();
        Some(RoundKeys { key_size: self.key_size, keys })
    }
}

/// Expands `key` synchronously, calling `sub_word` for every `SubWord` in order.
///
/// # Panics
/// As [`KeyExpansion::new`].
pub fn expand_key<B: AesByte>(
    key_size: KeySize,
    key: &[B],
    mut sub_word: impl FnMut(&mut [B; 4]),
) -> RoundKeys<B> {
    let mut expansion = KeyExpansion::new(key_size, key);
    while let Some(mut word) = expansion.pending_sub_word() {
        sub_word(&mut word);
        expansion.supply_sub_word(word);
    }
    expansion.finish().expect("every SubWord was supplied")
}
