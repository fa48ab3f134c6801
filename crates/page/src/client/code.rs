//! A client's code in the client view's link: `code=` holds its UTF-8 text in base64url
//! (RFC 4648, section 5, without padding), so any text survives any address bar. A link
//! carries at most [`MAX_CODE_BYTES`] of code; the editor takes no more either.

use crate::shared::format::count;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sim::StrategyName;

/// The most code a link carries and the editor runs, in bytes of UTF-8: the project's
/// longest client is under 3 KB, and a link of this much is about 44,000 characters,
/// which every current browser keeps.
pub const MAX_CODE_BYTES: usize = 32 * 1024;

/// The code as `code=` carries it.
pub fn encode_code(code: &str) -> String {
    URL_SAFE_NO_PAD.encode(code.as_bytes())
}

/// The code a `code=` value carries, or why it cannot be read.
pub fn decode_code(value: &str) -> Result<String, String> {
    let bytes = URL_SAFE_NO_PAD.decode(value.trim().trim_end_matches('=')).map_err(|_| {
        "The code in the link is not base64url text (letters, digits, '-' and '_'): it was cut short or changed on the way.".to_string()
    })?;
    if bytes.len() > MAX_CODE_BYTES {
        return Err(too_long(bytes.len()));
    }
    String::from_utf8(bytes)
        .map_err(|_| "The code in the link is not UTF-8 text once decoded.".to_string())
}

/// Why code of `bytes` bytes is not run.
pub fn too_long(bytes: usize) -> String {
    format!(
        "The code is {} bytes; the sandbox runs at most {}.",
        count(bytes as u64),
        count(MAX_CODE_BYTES as u64)
    )
}

/// Where the project's own JavaScript for `strategy` is served, next to the page
/// (`clients/<name>.js`, the file `clients/run.mjs` runs under Node).
pub fn starter_href(strategy: StrategyName) -> String {
    format!("clients/{}.js", strategy.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_text_goes_there_and_back() {
        for code in [
            "",
            "export async function charge(id) {}",
            "// é, 字, 🙂 and a NUL \0\n\ttabs",
        ] {
            let carried = encode_code(code);
            assert!(carried
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
            assert_eq!(decode_code(&carried).as_deref(), Ok(code));
        }
        // Padding some tools add is taken too.
        assert_eq!(decode_code("YQ==").as_deref(), Ok("a"));
    }

    #[test]
    fn a_bad_value_gets_a_sentence() {
        assert!(decode_code("a b").unwrap_err().contains("not base64url"));
        assert!(decode_code("_w").unwrap_err().contains("not UTF-8"));
        let long = encode_code(&"x".repeat(MAX_CODE_BYTES + 1));
        assert!(decode_code(&long).unwrap_err().contains("32,768"));
        assert_eq!(starter_href(StrategyName::Keyed), "clients/keyed.js");
    }
}
