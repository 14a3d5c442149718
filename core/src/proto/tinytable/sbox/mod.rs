//! AES-128 with 256-entry S-box tables (§2.3 and §5 of the paper): 10 table-lookup rounds per
//! block, the linear layers local; encryption, or decryption as the equivalent inverse cipher on
//! inverse S-box tables ([`direction`]); the key expanded by its one owner, or XOR-shared with the
//! key schedule on 40 more authenticated tables per block ([`schedule`]). [`tables`] holds the semi-honest material and online phase,
//! [`prep`] and [`malicious`] the malicious ones (§3 linear MACs, batched check before the
//! output opens), [`construct`] the §4 two-party construction of the malicious material from
//! authenticated bits and triples. Both online phases drive their rounds through one lane driver
//! (`lanes`): a batch split into lanes whose rounds interleave so one lane's lookups overlap the
//! other's network round trip.

pub mod construct;
mod convolve;
pub mod direction;
mod lanes;
pub mod malicious;
pub mod prep;
pub(crate) mod round;
pub mod schedule;
pub mod tables;

#[cfg(test)]
mod construct_tests;
#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod tests_schedule;
#[cfg(test)]
pub(crate) mod tests_tables;
