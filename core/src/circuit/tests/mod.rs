//! Tests of the circuit module, one file per concern.

mod aes_reference;
mod generated;
mod generated_sizes;
mod layers_eval;
mod mutations;
mod parse_errors;
mod support;
