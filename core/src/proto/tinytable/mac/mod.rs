//! The MAC schemes of TinyTable: the lookup MACs of the binary protocol (Fig. 3, [`lookup`]), the
//! linear MACs of the S-box tables (§3, [`linear`]) and the batched opening hash of §3.3
//! ([`batch_open`]). Pure functions and key material: no messages, no protocol state.

pub mod batch_open;
pub mod linear;
pub mod lookup;
