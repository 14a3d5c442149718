//! The relay's address and its one HTTP call, `POST /rooms` (PROTOCOL.md §1), spoken as a
//! minimal HTTP/1.1 request over TCP, or over TLS for an `https://` relay ([`super::tls`]): one
//! request per connection (`Connection: close`), body read to the end, `Content-Length` or
//! chunked bodies. A relay may sit under a path prefix (`https://host/chorus/`), as the SDK
//! allows: its endpoints are then `/chorus/rooms` and `/chorus/ws`.

use super::RelayError;
use serde::Deserialize;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// Largest HTTP response accepted from the relay.
const MAX_RESPONSE: usize = 64 * 1024;

/// Where a relay listens: host, port, whether over TLS, and the path its endpoints sit under,
/// from an `http://`, `https://`, `ws://`, `wss://` or scheme-less URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelayAddress {
    /// Host name or IP address (IPv6 without brackets).
    pub host: String,
    /// TCP port.
    pub port: u16,
    /// Whether the relay is reached over TLS (`https://`, `wss://`).
    pub tls: bool,
    /// The path prefix of the relay's endpoints, from `/` and ending in `/` (`/` at the root).
    pub base_path: String,
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
    /// Parses `http://host:port/prefix/`, `ws://host:port/prefix/ws`, their TLS forms
    /// `https://` and `wss://`, or `host:port`, as the SDK reads a relay URL: the path is the
    /// relay's prefix (a trailing `ws` names the WebSocket endpoint and is dropped), a query or
    /// fragment is ignored, the port defaults to 80 (443 with TLS).
    pub fn parse(url: &str) -> Result<Self, RelayError> {
        let bad = |why: &str| RelayError::BadUrl { url: url.to_string(), reason: why.to_string() };
        let (tls, rest) = match url.split_once("://") {
            Some(("http" | "ws", rest)) => (false, rest),
            Some(("https" | "wss", rest)) => (true, rest),
            Some((scheme, _)) => return Err(bad(&format!("unknown scheme {scheme:?}"))),
            None => (false, url),
        };
        let rest = rest.split(['?', '#']).next().unwrap_or("");
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        // RFC 3986 path characters only: the path goes into request lines as it is.
        let allowed = |c: char| c.is_ascii_alphanumeric() || "-._~%!$&'()*+,;=:@/".contains(c);
        if let Some(c) = path.chars().find(|&c| !allowed(c)) {
            return Err(bad(&format!("the path holds {c:?}, which a URL path cannot (percent-encode it)")));
        }
        let base_path = base_path(path);
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
            None if tls => 443,
            None => 80,
        };
        Ok(RelayAddress { host: host.to_string(), port, tls, base_path })
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
            "{}://{}{}ws?room={}&slot={slot}&token={}&protocol={}{resume}",
            if self.tls { "wss" } else { "ws" },
            self.authority(),
            self.base_path,
            url_encode(room),
            url_encode(token),
            super::PROTOCOL_VERSION,
        )
    }
}

/// The relay's path prefix from a URL's path: without a last `ws` segment (the WebSocket
/// endpoint), from `/` and ending in `/`.
fn base_path(path: &str) -> String {
    let path = path.strip_suffix("/ws/").or_else(|| path.strip_suffix("/ws")).map_or(path, |p| p);
    let path = path.trim_end_matches('/');
    format!(
        "{}/",
        if path.starts_with('/') || path.is_empty() { path.to_string() } else { format!("/{path}") }
    )
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
        let stream = TcpStream::connect(relay.authority()).await.map_err(io("connecting to the relay"))?;
        let body = format!("{{\"parties\":{parties}}}");
        let request = format!(
            "POST {}rooms HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            relay.base_path,
            relay.authority(),
            body.len()
        );
        let response = if relay.tls {
            exchange(super::tls::connect(stream, &relay.host).await?, &request, io).await?
        } else {
            exchange(stream, &request, io).await?
        };
        parse_room_response(&response)
    };
    tokio::time::timeout(timeout, exchange)
        .await
        .map_err(|_| RelayError::Timeout("the answer to POST /rooms"))?
}

/// Sends `request` over `stream` and reads the whole answer (at most [`MAX_RESPONSE`] bytes);
/// `io` names a failed step.
async fn exchange<S, E>(mut stream: S, request: &str, io: impl Fn(&str) -> E) -> Result<Vec<u8>, RelayError>
where
    S: AsyncRead + AsyncWrite + Unpin,
    E: FnOnce(std::io::Error) -> RelayError,
{
    stream.write_all(request.as_bytes()).await.map_err(io("sending POST /rooms"))?;
    let mut response = Vec::new();
    (&mut stream)
        .take(MAX_RESPONSE as u64 + 1)
        .read_to_end(&mut response)
        .await
        .map_err(io("reading the answer to POST /rooms"))?;
    if response.len() > MAX_RESPONSE {
        return Err(RelayError::BadResponse(format!("answer to POST /rooms is over {MAX_RESPONSE} bytes")));
    }
    Ok(response)
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
        let plain = |base_path: &str| RelayAddress {
            host: "127.0.0.1".into(),
            port: 8787,
            tls: false,
            base_path: base_path.into(),
        };
        for url in
            ["http://127.0.0.1:8787", "ws://127.0.0.1:8787/ws", "127.0.0.1:8787", "http://127.0.0.1:8787/?y"]
        {
            assert_eq!(RelayAddress::parse(url).unwrap(), plain("/"), "{url}");
        }
        for url in [
            "http://127.0.0.1:8787/x",
            "http://127.0.0.1:8787/x/",
            "ws://127.0.0.1:8787/x/ws",
            "ws://127.0.0.1:8787/x/ws/",
        ] {
            assert_eq!(RelayAddress::parse(url).unwrap(), plain("/x/"), "{url}");
        }
        let v6 = RelayAddress::parse("ws://[::1]:9/ws").unwrap();
        assert_eq!((v6.host.as_str(), v6.port, v6.authority()), ("::1", 9, "[::1]:9".to_string()));
        assert_eq!(RelayAddress::parse("http://relay").unwrap().port, 80);
        let tls = RelayAddress::parse("https://relay.example/chorus").unwrap();
        assert_eq!((tls.port, tls.tls, tls.base_path.as_str()), (443, true, "/chorus/"));
        assert_eq!(RelayAddress::parse("wss://relay.example:8443/a/b/ws").unwrap().base_path, "/a/b/");
    }

    #[test]
    fn bad_addresses_say_why() {
        for (url, needle) in [
            ("ftp://x", "scheme"),
            ("http://:80", "no host"),
            ("x:99999", "port"),
            ("wss://u@x", "user"),
            ("http://x/a b", "path"),
            ("http://x/a\r\nHost: y", "path"),
        ] {
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
        let prefixed = RelayAddress::parse("https://relay.example/chorus/").unwrap();
        assert_eq!(
            prefixed.join_url("r", 1, "t", None),
            "wss://relay.example:443/chorus/ws?room=r&slot=1&token=t&protocol=2"
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
