//! Encrypts the FIPS-197 Appendix C.1 AES-128 vector with Chorus's plain AES and prints the result.
//!
//! Run: `cargo run -p chorus-core --example aes_fips197`

use chorus_core::aes::Aes;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let key: [u8; 16] = core::array::from_fn(|i| i as u8);
    let plaintext: [u8; 16] = core::array::from_fn(|i| (i as u8) * 0x11);
    let expected = "69c4e0d86a7b0430d8cdb78070b4c55a";
    let ciphertext = Aes::new(&key)?.encrypt_block(&plaintext);
    println!("key        {}", hex(&key));
    println!("plaintext  {}", hex(&plaintext));
    println!("ciphertext {}", hex(&ciphertext));
    println!("FIPS-197   {expected}");
    if hex(&ciphertext) == expected {
        println!("match: yes");
        Ok(())
    } else {
        Err("ciphertext does not match FIPS-197 Appendix C.1".into())
    }
}
