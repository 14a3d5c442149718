//! The relay's control messages as this client reads them (PROTOCOL.md §3.2), the `welcome`
//! checks, the client's `ack` text, and opening one WebSocket to a slot (§2): a first join or a
//! resume (§6), over TLS for a `wss://` relay ([`super::tls`]).

use super::{RelayAddress, RelayError};
use chorus_core::net::PartyId;
use futures::StreamExt;
use serde::Deserialize;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{Connector, MaybeTlsStream, WebSocketStream};

/// The relay wire protocol version this client speaks (2: resume after a dropped connection).
pub const PROTOCOL_VERSION: u64 = 2;

pub(super) type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A control message from the relay (PROTOCOL.md §3.2); unknown fields are ignored.
#[derive(Debug, Deserialize)]
pub(super) struct Control {
    #[serde(rename = "type")]
    pub kind: String,
    pub protocol: Option<u64>,
    pub slot: Option<usize>,
    pub parties: Option<usize>,
    #[serde(rename = "maxPayloadBytes")]
    pub max_payload_bytes: Option<usize>,
    #[serde(rename = "resumeGraceMs")]
    pub resume_grace_ms: Option<u64>,
    #[serde(rename = "ackBytes")]
    pub ack_bytes: Option<usize>,
    pub resumed: Option<bool>,
    pub received: Option<u64>,
    pub code: Option<String>,
    pub message: Option<String>,
    pub fatal: Option<bool>,
    pub roster: Option<Vec<usize>>,
    pub reason: Option<String>,
}

impl Control {
    pub(super) fn parse(text: &str) -> Result<Control, RelayError> {
        serde_json::from_str(text)
            .map_err(|e| RelayError::Protocol(format!("control message is not JSON: {e}: {text:.80}")))
    }
}

/// What a `welcome` told this client.
#[derive(Debug, Clone, Copy)]
pub(super) struct Welcome {
    pub parties: usize,
    pub max_payload: usize,
    /// How long the relay keeps the slot after a drop (zero: resume is off).
    pub grace: Duration,
    /// Acknowledge received frames at least every this many bytes.
    pub ack_bytes: usize,
    /// Data frames the relay has received from this slot in its session.
    pub received: u64,
}

/// Checks a `welcome` for `slot`; a resume must say `resumed`, a first join must not.
pub(super) fn check_welcome(c: &Control, slot: PartyId, resume: bool) -> Result<Welcome, RelayError> {
    let bad = |m: String| Err(RelayError::Protocol(m));
    if c.protocol != Some(PROTOCOL_VERSION) {
        return bad(format!("relay speaks protocol {:?}, this client {PROTOCOL_VERSION}", c.protocol));
    }
    if c.slot != Some(slot) {
        return bad(format!("welcome names slot {:?}, this party joined slot {slot}", c.slot));
    }
    let (Some(parties), Some(max)) = (c.parties, c.max_payload_bytes) else {
        return bad("welcome lacks parties or maxPayloadBytes".into());
    };
    if !(2..=256).contains(&parties) || slot >= parties || max < 2 {
        return bad(format!("welcome has impossible values: {parties} parties, maxPayloadBytes {max}"));
    }
    let resumed = c.resumed.unwrap_or(false);
    if resumed != resume {
        return bad(format!(
            "welcome says resumed = {resumed} for a {}",
            if resume { "resume" } else { "first join" }
        ));
    }
    Ok(Welcome {
        parties,
        max_payload: max,
        grace: Duration::from_millis(c.resume_grace_ms.unwrap_or(0)),
        ack_bytes: c.ack_bytes.unwrap_or(usize::MAX).max(1),
        received: c.received.unwrap_or(0),
    })
}

/// The text of this client's `ack` of `received` data frames (§6).
pub(super) fn ack_text(received: u64) -> String {
    format!("{{\"type\":\"ack\",\"received\":{received}}}")
}

/// Where to join: the relay, the room, the slot and its token.
#[derive(Debug, Clone)]
pub(super) struct Seat {
    pub relay: RelayAddress,
    pub room: String,
    pub slot: PartyId,
    pub token: String,
}

/// A failed WebSocket opening as a [`RelayError`]: a failed TLS handshake (which the WebSocket
/// library may report as an I/O error around rustls's) is [`RelayError::Tls`].
fn websocket_error(e: tungstenite::Error, host: &str) -> RelayError {
    let tls = match &e {
        tungstenite::Error::Tls(e) => Some(e.to_string()),
        tungstenite::Error::Io(io) => {
            io.get_ref().and_then(|inner| inner.downcast_ref::<rustls::Error>()).map(ToString::to_string)
        }
        _ => None,
    };
    match tls {
        Some(why) => RelayError::Tls(format!("handshake with {host}: {why}")),
        None => RelayError::WebSocket(e.to_string()),
    }
}

/// Opens a WebSocket to the seat's slot — a first join, or a resume after `resume` received data
/// frames — and reads the relay's answer: its `welcome`, or the refusal (an error frame, §2).
pub(super) async fn open(seat: &Seat, resume: Option<u64>) -> Result<(Socket, Welcome), RelayError> {
    let authority = seat.relay.authority();
    let stream = TcpStream::connect(&authority).await.map_err(|source| RelayError::Io {
        what: format!("connecting to the relay at {authority}"),
        source,
    })?;
    stream
        .set_nodelay(true)
        .map_err(|source| RelayError::Io { what: "configuring the relay socket".into(), source })?;
    let url = seat.relay.join_url(&seat.room, seat.slot, &seat.token, resume);
    let connector =
        if seat.relay.tls { Connector::Rustls(super::tls::client_config()?) } else { Connector::Plain };
    let (mut socket, _) = tokio_tungstenite::client_async_tls_with_config(url, stream, None, Some(connector))
        .await
        .map_err(|e| websocket_error(e, &seat.relay.host))?;
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(text))) => {
                let c = Control::parse(text.as_str())?;
                match c.kind.as_str() {
                    "welcome" => return Ok((socket, check_welcome(&c, seat.slot, resume.is_some())?)),
                    "error" => {
                        return Err(RelayError::Refused {
                            code: c.code.unwrap_or_else(|| "unknown".into()),
                            message: c.message.unwrap_or_default(),
                        })
                    }
                    _ => return Err(RelayError::Protocol(format!("{:?} before welcome", c.kind))),
                }
            }
            Some(Ok(Message::Close(frame))) => {
                let why =
                    frame.map(|f| format!("code {}: {}", u16::from(f.code), f.reason)).unwrap_or_default();
                return Err(RelayError::ClosedEarly(why));
            }
            Some(Ok(Message::Binary(_))) => {
                return Err(RelayError::Protocol("a data frame before welcome".into()))
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(RelayError::WebSocket(e.to_string())),
            None => return Err(RelayError::ClosedEarly("connection ended".into())),
        }
    }
}
