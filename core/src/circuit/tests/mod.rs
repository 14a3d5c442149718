//! Tests of the circuit module, one file per concern.

mod support;
