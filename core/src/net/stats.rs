//! Communication statistics, recorded the same way by every [`super::Network`] implementation.

/// Bytes, messages and rounds of one party.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct NetStats {
    /// Payload bytes sent.
    pub bytes_sent: u64,
    /// Payload bytes received.
    pub bytes_received: u64,
    /// Messages sent.
    pub messages_sent: u64,
    /// Messages received.
    pub messages_received: u64,
    /// Communication rounds: a round starts with the first send after a receive (or the first
    /// send of all), so all messages a party sends before it next waits for input are one round.
    pub rounds: u64,
}

impl NetStats {
    /// The statistics accumulated since `earlier` (for measuring one phase of a protocol).
    pub fn since(&self, earlier: &NetStats) -> NetStats {
        NetStats {
            bytes_sent: self.bytes_sent - earlier.bytes_sent,
            bytes_received: self.bytes_received - earlier.bytes_received,
            messages_sent: self.messages_sent - earlier.messages_sent,
            messages_received: self.messages_received - earlier.messages_received,
            rounds: self.rounds - earlier.rounds,
        }
    }

    /// The sum of two phases' statistics (for a phase measured in several pieces).
    pub fn plus(&self, other: &NetStats) -> NetStats {
        NetStats {
            bytes_sent: self.bytes_sent + other.bytes_sent,
            bytes_received: self.bytes_received + other.bytes_received,
            messages_sent: self.messages_sent + other.messages_sent,
            messages_received: self.messages_received + other.messages_received,
            rounds: self.rounds + other.rounds,
        }
    }
}

/// Records [`NetStats`] from send and receive events; owned per party (never global).
#[derive(Debug, Clone, Default)]
pub struct StatsRecorder {
    stats: NetStats,
    received_since_send: bool,
}

impl StatsRecorder {
    /// A recorder at zero.
    pub fn new() -> Self {
        StatsRecorder { stats: NetStats::default(), received_since_send: true }
    }

    /// Records a message of `len` payload bytes sent.
    pub fn on_send(&mut self, len: usize) {
        if self.received_since_send {
            self.stats.rounds += 1;
            self.received_since_send = false;
        }
        self.stats.bytes_sent += len as u64;
        self.stats.messages_sent += 1;
    }

    /// Records a message of `len` payload bytes received.
    pub fn on_recv(&mut self, len: usize) {
        self.received_since_send = true;
        self.stats.bytes_received += len as u64;
        self.stats.messages_received += 1;
    }

    /// The statistics so far.
    pub fn stats(&self) -> NetStats {
        self.stats
    }
}
