//! Tests of the malicious variants.
