//! The FIPS-197 Appendix C.1 example vector for AES-128 (key `00 01 … 0f`, plaintext
//! `00 11 … ff`): the one copy that tests, examples and benchmarks across the workspace check
//! against. Public test data, not a secret.

/// The Appendix C.1 key.
pub const KEY: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// The Appendix C.1 plaintext.
pub const PLAINTEXT: [u8; 16] =
    [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff];

/// AES-128 of [`PLAINTEXT`] under [`KEY`] (Appendix C.1, "OUTPUT").
pub const CIPHERTEXT: [u8; 16] =
    [0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a];
