//! The relay's address and its one HTTP call, `POST /rooms` (PROTOCOL.md §1), spoken as a
//! minimal HTTP/1.1 request over a plain TCP stream: one request per connection
//! (`Connection: close`), body read to the end, `Content-Length` or chunked bodies.
//! No TLS: the native runner talks to a relay on loopback or behind a TLS-terminating proxy
//! reached over a trusted network.

use super::RelayError;
use serde::Deserialize;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Largest HTTP response accepted from the relay.
const MAX_RESPONSE: usize = 64 * 1024;

/// Where a relay listens: host and port, from a `http://`, `ws://` or scheme-less URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelayAddress {
    /// Host name or IP address (IPv6 without brackets).
    pub host: String,
    /// TCP port.
    pub port: u16,
}

/// A room created by `POST /rooms`.
#[derive(Debug, Clone, Deserialize)]
pub struct Room {
    /// The room id.
    pub room: String,
    /// Number of slots.
    pub parties: usize,
    /// The join token of each slot, in slot order.
    pub tokens: Vec<String>,
    /// When the room expires if nobody joins (ms since the Unix epoch).
    #[serde(rename = "expiresAt")]
    pub expires_at: u64,
}

#[derive(Deserialize)]
struct ErrorBody {
    code: String,
    message: String,
}

impl RelayAddress {
    /// Parses `http://host:port`, `ws://host:port/ws` or `host:port` (any path is ignored; the
    /// port defaults to 80). `https://` and `wss://` are refused: this client has no TLS.
    pub fn parse(url: &str) -> Result<Self, RelayError> {
        let bad = |why: &str| RelayError::BadUrl { url: url.to_string(), reason: why.to_string() };
        let rest =
            match url.split_once("://") {
                Some(("http" | "ws", rest)) => rest,
                Some(("https" | "wss", _)) => return Err(bad(
                    "TLS is not supported by the native client; use http:// or ws:// on a trusted network",
                )),
                Some((scheme, _)) => return Err(bad(&format!("unknown scheme {scheme:?}"))),
                None => url,
            };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        if authority.contains('@') {
            return Err(bad("user information in the URL is not supported"));
        }
        let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
            let (host, after) = v6.split_once(']').ok_or_else(|| bad("unclosed '[' in the host"))?;
            (host, after.strip_prefix(':'))
        } else {
            match authority.rsplit_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (authority, None),
            }
        };
        if host.is_empty() {
            return Err(bad("no host"));
        }
        let port = match port {
            Some(p) => {
                p.parse::<u16>().map_err(|_| bad(&format!("port {p:?} is not a number in 0..=65535")))?
            }
            None => 80,
        };
        Ok(RelayAddress { host: host.to_string(), port })
    }

    /// `host:port` for connecting (IPv6 in brackets).
    pub fn authority(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }

    /// The WebSocket URL that joins `slot` of `room` with `token` in protocol 2 (PROTOCOL.md
    /// §2), resuming the slot's session after `resume` received data frames if given (§6).
    pub fn join_url(&self, room: &str, slot: usize, token: &str, resume: Option<u64>) -> String {
        let resume = resume.map(|n| format!("&resume={n}")).unwrap_or_default();
        format!(
            "ws://{}/ws?room={}&slot={slot}&token={}&protocol={}{resume}",
            self.authority(),
            url_encode(room),
            url_encode(token),
            super::PROTOCOL_VERSION,
        )
    }
}

/// Percent-encodes everything but RFC 3986 unreserved characters (room ids and tokens are
/// base64url, so normally nothing changes).
fn url_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Creates a room of `parties` slots (`POST /rooms`).
pub async fn create_room(
    relay: &RelayAddress,
    parties: usize,
    timeout: Duration,
) -> Result<Room, RelayError> {
    let exchange = async {
        let io = |what: &str| {
            let what = format!("{what} ({})", relay.authority());
            move |source| RelayError::Io { what, source }
        };
        let mut stream =
            TcpStream::connect(relay.authority()).await.map_err(io("connecting to the relay"))?;
        let body = format!("{{\"parties\":{parties}}}");
        let request = format!(
            "POST /rooms HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            relay.authority(),
            body.len()
        );
        stream.write_all(request.as_bytes()).await.map_err(io("sending POST /rooms"))?;
        let mut response = Vec::new();
        (&mut stream)
            .take(MAX_RESPONSE as u64 + 1)
            .read_to_end(&mut response)
            .await
            .map_err(io("reading the answer to POST /rooms"))?;
        if response.len() > MAX_RESPONSE {
            return Err(RelayError::BadResponse(format!(
                "answer to POST /rooms is over {MAX_RESPONSE} bytes"
            )));
        }
        parse_room_response(&response)
    };
    tokio::time::timeout(timeout, exchange)
        .await
        .map_err(|_| RelayError::Timeout("the answer to POST /rooms"))?
}

fn parse_room_response(response: &[u8]) -> Result<Room, RelayError> {
    let bad = |why: String| RelayError::BadResponse(format!("POST /rooms: {why}"));
    let split =
        response.windows(4).position(|w| w == b"\r\n\r\n").ok_or_else(|| bad("no end of headers".into()))?;
    let head = std::str::from_utf8(&response[..split]).map_err(|_| bad("headers are not UTF-8".into()))?;
    let raw_body = &response[split + 4..];
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad(format!("bad status line {status_line:?}")))?;
    let chunked = lines.any(|l| {
        l.split_once(':').is_some_and(|(name, value)| {
            name.trim().eq_ignore_ascii_case("transfer-encoding")
                && value.trim().eq_ignore_ascii_case("chunked")
        })
    });
    let body = if chunked {
        dechunk(raw_body).ok_or_else(|| bad("malformed chunked body".into()))?
    } else {
        raw_body.to_vec()
    };
    if status != 201 {
        return Err(match serde_json::from_slice::<ErrorBody>(&body) {
            Ok(e) => RelayError::Http { status, code: e.code, message: e.message },
            Err(_) => RelayError::Http {
                status,
                code: "unknown".into(),
                message: String::from_utf8_lossy(&body).into(),
            },
        });
    }
    serde_json::from_slice(&body).map_err(|e| bad(format!("body is not a room: {e}")))
}

/// Decodes a chunked transfer-coding body (RFC 9112 §7.1); `None` if malformed.
fn dechunk(mut data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = data.windows(2).position(|w| w == b"\r\n")?;
        let size_field = std::str::from_utf8(&data[..line_end]).ok()?;
        let size = usize::from_str_radix(size_field.split(';').next()?.trim(), 16).ok()?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        if data.len() < size + 2 || &data[size..size + 2] != b"\r\n" {
            return None;
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_from_every_accepted_form() {
        let want = RelayAddress { host: "127.0.0.1".into(), port: 8787 };
        for url in
            ["http://127.0.0.1:8787", "ws://127.0.0.1:8787/ws", "127.0.0.1:8787", "http://127.0.0.1:8787/x?y"]
        {
            assert_eq!(RelayAddress::parse(url).unwrap(), want, "{url}");
        }
        let v6 = RelayAddress::parse("ws://[::1]:9/ws").unwrap();
        assert_eq!((v6.host.as_str(), v6.port, v6.authority()), ("::1", 9, "[::1]:9".to_string()));
        assert_eq!(RelayAddress::parse("http://relay").unwrap().port, 80);
    }

    #[test]
    fn bad_addresses_say_why() {
        for (url, needle) in
            [("wss://x:1", "TLS"), ("ftp://x", "scheme"), ("http://:80", "no host"), ("x:99999", "port")]
        {
            match RelayAddress::parse(url) {
                Err(RelayError::BadUrl { reason, .. }) => assert!(reason.contains(needle), "{url}: {reason}"),
                other => panic!("{url}: {other:?}"),
            }
        }
    }

    #[test]
    fn join_urls_escape_what_is_not_base64url() {
        let a = RelayAddress::parse("127.0.0.1:1").unwrap();
        assert_eq!(
            a.join_url("ab-_", 2, "t&x=1", None),
            "ws://127.0.0.1:1/ws?room=ab-_&slot=2&token=t%26x%3D1&protocol=2"
        );
        assert_eq!(
            a.join_url("r1.ab", 0, "t", Some(7)),
            "ws://127.0.0.1:1/ws?room=r1.ab&slot=0&token=t&protocol=2&resume=7"
        );
    }

    #[test]
    fn room_responses_parse_plain_chunked_and_errors() {
        let body = r#"{"room":"r1","parties":3,"tokens":["a","b","c"],"expiresAt":5}"#;
        let plain = format!("HTTP/1.1 201 Created\r\nContent-Length: {}\r\n\r\n{body}", body.len());
        let room = parse_room_response(plain.as_bytes()).unwrap();
        assert_eq!((room.room.as_str(), room.parties, room.tokens.len(), room.expires_at), ("r1", 3, 3, 5));
        let chunked = format!(
            "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{}\r\n{:x}\r\n{}\r\n0\r\n\r\n",
            &body[..5],
            body.len() - 5,
            &body[5..]
        );
        assert_eq!(parse_room_response(chunked.as_bytes()).unwrap().tokens, room.tokens);
        let err = "HTTP/1.1 503 Service Unavailable\r\n\r\n{\"type\":\"error\",\"code\":\"too-many-rooms\",\"message\":\"full\"}";
        match parse_room_response(err.as_bytes()) {
            Err(RelayError::Http { status: 503, code, .. }) => assert_eq!(code, "too-many-rooms"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(parse_room_response(b"garbage"), Err(RelayError::BadResponse(_))));
    }
}
