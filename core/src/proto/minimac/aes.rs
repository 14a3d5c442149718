//! AES-128 on MiniMac: the project's AES-128 circuit (`crate::circuit::aes_gen`, 6400 AND
//! gates, the same circuit TinyTable's circuit path uses) evaluated on up to `8·k` blocks at once
//! (680 with the (255, 85) code, 960 with (256, 120)). Party [`KEY_OWNER`] supplies one key per
//! block, party [`PLAINTEXT_OWNER`] the plaintext blocks; every party learns the ciphertexts.

use super::error::MiniMacError;
use super::online::evaluate;
use super::params::{CodeChoice, Options};
use super::prep::{PartyPrep, PrepRequest};
use crate::circuit::aes_bristol::{output_bytes, value_bits};
use crate::circuit::{aes_gen, Circuit};
use crate::net::{Network, PartyId};
use rand_core::{CryptoRng, RngCore};
use std::sync::OnceLock;

/// The party that inputs the keys.
pub const KEY_OWNER: PartyId = 0;
/// The party that inputs the plaintext blocks.
pub const PLAINTEXT_OWNER: PartyId = 1;

/// The AES-128 circuit, generated once per process.
pub fn aes128_circuit() -> Result<&'static Circuit, MiniMacError> {
    static CIRCUIT: OnceLock<Result<Circuit, String>> = OnceLock::new();
    CIRCUIT
        .get_or_init(|| aes_gen::aes128_circuit().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| MiniMacError::BadInput(format!("AES-128 circuit: {e}")))
}

/// The material request for one AES batch among `parties` parties.
pub fn aes_request(code: CodeChoice, parties: usize) -> Result<PrepRequest, MiniMacError> {
    PrepRequest::for_circuit(code, parties, aes128_circuit()?, &[KEY_OWNER, PLAINTEXT_OWNER])
}

/// Encrypts `blocks` AES-128 blocks in one batch. `own` holds this party's inputs, one per block:
/// keys for [`KEY_OWNER`], plaintexts for [`PLAINTEXT_OWNER`], nothing for other parties.
pub async fn encrypt_batch<N: Network, R: RngCore + CryptoRng>(
    net: &mut N,
    prep: &PartyPrep,
    own: &[[u8; 16]],
    blocks: usize,
    options: Options,
    rng: &mut R,
) -> Result<Vec<[u8; 16]>, MiniMacError> {
    let me = net.party();
    let owns_input = me == KEY_OWNER || me == PLAINTEXT_OWNER;
    if owns_input && own.len() != blocks {
        return Err(MiniMacError::BadInput(format!("{} input blocks for a batch of {blocks}", own.len())));
    }
    if !owns_input && !own.is_empty() {
        return Err(MiniMacError::BadInput(format!("party {me} supplies no AES input")));
    }
    let inputs: Vec<Vec<Vec<bool>>> =
        (0..blocks).map(|i| if owns_input { vec![value_bits(&own[i])] } else { Vec::new() }).collect();
    let outputs = evaluate(net, aes128_circuit()?, prep, &inputs, options, rng).await?;
    outputs
        .into_iter()
        .map(|values| {
            values
                .first()
                .and_then(|bits| output_bytes(bits))
                .ok_or_else(|| MiniMacError::BadInput("the AES circuit gave no 128-bit output".into()))
        })
        .collect()
}
