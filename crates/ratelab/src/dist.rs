//! `ratelab serve --dist dist`: the built app, served on the provider's own port by
//! tower-http's `ServeDir`, so a classroom runs one process.
//!
//! - A file's `.gz` from the build (`scripts/precompress.mjs`) is sent to a client that
//!   accepts gzip, the file itself to one that does not, with `Vary: Accept-Encoding`.
//! - Only what is under the folder is served: `ServeDir` refuses `..`, absolute paths
//!   and escapes that do not decode, and every refusal is a 404 with a sentence.
//! - GET and HEAD only (405 otherwise).
//! - Every file carries `Access-Control-Allow-Origin: *`: a blog on another origin loads
//!   the loader, the widget's module and glue and the stylesheet with CORS
//!   (`<script type="module">` and `fetch` both ask for it), and nothing here is private.
//! - Every file carries `Cache-Control: no-cache`: the names are stable (a blog links
//!   them), so a browser must ask again each visit, and `ServeDir` answers a file it
//!   already has (`If-Modified-Since`) with a 304 and no body. Without it, a browser may
//!   keep a page's old glue beside a rebuilt module for a while, and the page breaks.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use std::path::{Path, PathBuf};
use tower_http::services::ServeDir;

/// The built app's folder, checked.
#[derive(Clone, Debug)]
pub struct Dist {
    root: PathBuf,
}

impl Dist {
    /// The folder at `path`, if it holds a built app (an `index.html`).
    pub fn open(path: &Path) -> Result<Self, String> {
        let root = path
            .canonicalize()
            .map_err(|e| format!("--dist {}: {e}", path.display()))?;
        if !root.join("index.html").is_file() {
            return Err(format!(
                "--dist {}: there is no index.html in it; build the app first (trunk build --release)",
                path.display()
            ));
        }
        Ok(Self { root })
    }

    /// The folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn files(&self) -> ServeDir {
        ServeDir::new(&self.root)
            .precompressed_gzip()
            .append_index_html_on_directories(true)
    }
}

/// Answers a request for a file of the app: the file, or a 405 with a sentence; `None`
/// if there is no such file (the caller words the 404, which lists the endpoints too).
pub async fn file(dist: &Dist, request: Request) -> Option<Response> {
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        let mut res = super::server::error(
            StatusCode::METHOD_NOT_ALLOWED,
            "the app's files take GET and HEAD only",
        );
        res.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return Some(res);
    }
    let mut res = match dist.files().try_call(request).await {
        Ok(res) if res.status() == StatusCode::NOT_FOUND => return None,
        Ok(res) => res.map(Body::new),
        Err(e) => {
            return Some(super::server::error(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("could not read the file: {e}"),
            ))
        }
    };
    let headers = res.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    // The same address is sent compressed or not by what the client accepts, so a cache
    // between must keep the two apart.
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Some(res.into_response())
}
