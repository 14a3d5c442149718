//! Where a two-party job's preprocessing comes from ([`Preprocessing`]): the two computing parties
//! themselves over OT, or a **trusted dealer** that joins the session as member [`DEALER`]. The
//! choice decides the session size; each protocol's job module states its trust model in full
//! (TinyTable: [`super::tinytable`]; MiniMac: [`super::minimac`]; Coral: [`super::coral`]).

use crate::net::PartyId;

/// The session member that deals the preprocessing under [`Preprocessing::Dealer`] (parties 0
/// and 1 compute).
pub const DEALER: PartyId = 2;
/// Session members of a two-party job with [`Preprocessing::Dealer`]: two computing parties and
/// the dealer ([`Preprocessing::members`] gives the count for either kind).
pub const MEMBERS: usize = 3;

/// Where a two-party job's material comes from (see the module docs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Preprocessing {
    /// The two parties make it between themselves over OT: nobody else is trusted. The session
    /// has 2 members.
    #[default]
    Ot,
    /// A trusted dealer, session member 2, deals it (a weaker trust model: the dealer knows every
    /// mask). The session has 3 members.
    Dealer,
}

impl Preprocessing {
    /// `ot` or `dealer` (the SDK's and the runner's names).
    pub fn name(self) -> &'static str {
        match self {
            Preprocessing::Ot => "ot",
            Preprocessing::Dealer => "dealer",
        }
    }

    /// The kind called `name` (see [`Self::name`]).
    pub fn from_name(name: &str) -> Option<Preprocessing> {
        [Preprocessing::Ot, Preprocessing::Dealer].into_iter().find(|p| p.name() == name)
    }

    /// Session members a job with this preprocessing needs: 2, or 3 with the dealer.
    pub fn members(self) -> usize {
        match self {
            Preprocessing::Ot => 2,
            Preprocessing::Dealer => MEMBERS,
        }
    }

    /// Who the members are, in words.
    pub(crate) fn roles(self) -> &'static str {
        match self {
            Preprocessing::Ot => "parties 0 and 1, no dealer",
            Preprocessing::Dealer => "parties 0, 1 and the dealer",
        }
    }

    /// A pointer to the other kind when a session of `members` fits it, for error messages.
    pub(crate) fn other_hint(self, members: usize) -> &'static str {
        match self {
            Preprocessing::Ot if members == Preprocessing::Dealer.members() => {
                "; a trusted dealer in slot 2 is preprocessing: 'dealer'"
            }
            Preprocessing::Dealer if members == Preprocessing::Ot.members() => {
                "; two parties without a dealer is preprocessing: 'ot'"
            }
            _ => "",
        }
    }

    /// Whether `member` is the dealer of a session with this preprocessing.
    pub fn is_dealer(self, member: PartyId) -> bool {
        self == Preprocessing::Dealer && member == DEALER
    }
}
