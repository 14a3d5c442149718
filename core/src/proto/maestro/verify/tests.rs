//! Tests of the verification building blocks.
