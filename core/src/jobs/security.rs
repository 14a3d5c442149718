//! The security level a job asks for, shared by every job spec.

/// The adversary a job is secure against.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Security {
    /// Secure against parties that follow the protocol.
    #[default]
    SemiHonest,
    /// Secure with abort against a deviating party: outputs are revealed only after the
    /// protocol's checks pass. A job that lacks it for some configuration rejects it with its own
    /// typed "not available" error, before any communication.
    Malicious,
}

impl Security {
    /// `semi-honest` or `malicious`.
    pub fn name(self) -> &'static str {
        match self {
            Security::SemiHonest => "semi-honest",
            Security::Malicious => "malicious",
        }
    }

    /// The level called `name` (see [`Self::name`]).
    pub fn from_name(name: &str) -> Option<Security> {
        [Security::SemiHonest, Security::Malicious].into_iter().find(|s| s.name() == name)
    }
}
