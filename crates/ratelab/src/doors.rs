//! How `ratelab serve` takes connections: a listen backlog for bursts, a cap on open
//! connections, and three clocks on each one, so that a slow or silent client holds
//! nothing for long.
//!
//! Each connection is in one of three phases, watched by its own small task:
//! - **quiet**: waiting for a request (a new connection, or a kept-alive one after its
//!   answer). Closed after [`Bounds::idle_timeout`] without a byte either way.
//! - **head**: a request has begun but its header is not whole. Closed
//!   [`Bounds::header_timeout`] after its first byte.
//! - **busy**: the header is whole and the request is being answered. The body must
//!   arrive within [`Bounds::body_timeout`] (the handler reads it against that clock);
//!   the answer itself takes as long as the provider's processing, which is bounded by
//!   the scenario.
//!
//! At the cap, a new connection closes the connection that has been quiet (or stuck in
//! its head) the longest, as nginx reuses its idle keep-alive connections when it runs
//! out; if every connection is busy, it waits in the backlog until one finishes.

use axum::body::Body;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::{watch, Notify, Semaphore};
use tokio::time::Instant;
use tower::ServiceExt;

/// Connections the kernel holds for us while we are busy accepting: a burst of 1,000
/// at once fits (128, the usual default, did not). The kernel caps it at its own
/// `net.core.somaxconn`.
pub const BACKLOG: u32 = 4_096;

/// The largest request head a connection buffers; a longer one is answered 431. It also
/// bounds what a connection that never finishes its head can make the server hold.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;

/// What any one client can make the server hold, and for how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// From a request's first byte until its header is whole.
    pub header_timeout: Duration,
    /// A connection with no request, and no byte either way, for this long is closed.
    pub idle_timeout: Duration,
    /// From a request's header until its whole body has arrived.
    pub body_timeout: Duration,
    /// Connections open at once.
    pub max_connections: usize,
    /// Idempotency keys held at once (see [`crate::keys`]).
    pub max_keys: usize,
    /// How long an idempotency key is kept after its request was admitted.
    pub key_ttl: Duration,
    /// Callers each per-caller limiter endpoint remembers at once.
    pub max_callers: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(10),
            max_connections: 1_024,
            max_keys: 100_000,
            key_ttl: Duration::from_secs(24 * 60 * 60),
            max_callers: 10_000,
        }
    }
}

/// A listener on `addr` with the [`BACKLOG`].
pub fn listen(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// Where a connection is, for its clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// No request; the instant of the last byte either way.
    Quiet(Instant),
    /// A request's header has begun, at this instant.
    Head(Instant),
    /// A request is being answered.
    Busy,
}

/// One connection's phase, shared by its socket, its service and its watcher.
struct Clock {
    phase: Mutex<Phase>,
    /// Wakes the watcher when the phase changes or the connection is told to close.
    changed: Notify,
    evicted: AtomicBool,
}

impl Clock {
    fn new() -> Self {
        Self {
            phase: Mutex::new(Phase::Quiet(Instant::now())),
            changed: Notify::new(),
            evicted: AtomicBool::new(false),
        }
    }

    fn phase(&self) -> Phase {
        *self.phase.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, f: impl FnOnce(Phase) -> Phase) {
        let mut p = self.phase.lock().unwrap_or_else(|e| e.into_inner());
        let next = f(*p);
        let moved = std::mem::discriminant(&next) != std::mem::discriminant(&*p);
        *p = next;
        drop(p);
        if moved {
            self.changed.notify_one();
        }
    }

    /// Bytes came in: a quiet connection's next request has begun.
    fn read(&self) {
        self.set(|p| match p {
            Phase::Quiet(_) => Phase::Head(Instant::now()),
            other => other,
        });
    }

    /// Bytes went out: a quiet connection is quiet from now.
    fn wrote(&self) {
        self.set(|p| match p {
            Phase::Quiet(_) => Phase::Quiet(Instant::now()),
            other => other,
        });
    }

    fn busy(&self) {
        self.set(|_| Phase::Busy);
    }

    fn answered(&self) {
        self.set(|_| Phase::Quiet(Instant::now()));
    }

    fn evict(&self) {
        self.evicted.store(true, Ordering::SeqCst);
        self.changed.notify_one();
    }

    /// When this connection must close, if nothing happens before.
    fn deadline(&self, bounds: &Bounds) -> Option<Instant> {
        match self.phase() {
            Phase::Quiet(since) => Some(since + bounds.idle_timeout),
            Phase::Head(since) => Some(since + bounds.header_timeout),
            Phase::Busy => None,
        }
    }

    /// Completes when the connection has outstayed its phase's clock, or was evicted.
    async fn expired(&self, bounds: &Bounds) {
        loop {
            if self.evicted.load(Ordering::SeqCst) {
                return;
            }
            match self.deadline(bounds) {
                Some(at) if at <= Instant::now() => return,
                Some(at) => {
                    tokio::select! {
                        _ = tokio::time::sleep_until(at) => {}
                        _ = self.changed.notified() => {}
                    }
                }
                None => self.changed.notified().await,
            }
        }
    }
}

/// A socket that tells its connection's clock when bytes move.
struct Timed<S> {
    inner: S,
    clock: Arc<Clock>,
}

impl<S: AsyncRead + Unpin> AsyncRead for Timed<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.clock.read();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Timed<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, data);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.clock.wrote();
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The open connections' clocks, to find one to close when the cap is reached.
#[derive(Default)]
struct Open {
    next: AtomicU64,
    clocks: Mutex<HashMap<u64, Arc<Clock>>>,
}

impl Open {
    fn add(&self, clock: Arc<Clock>) -> u64 {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.clocks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, clock);
        id
    }

    fn remove(&self, id: u64) {
        self.clocks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    }

    /// Tells the connection that has been waiting longest without a request being
    /// answered (quiet, or stuck in its head) to close. False if every one is busy.
    fn evict_longest_waiting(&self) -> bool {
        let clocks = self.clocks.lock().unwrap_or_else(|e| e.into_inner());
        let oldest = clocks
            .values()
            .filter(|c| !c.evicted.load(Ordering::SeqCst))
            .filter_map(|c| match c.phase() {
                Phase::Quiet(since) | Phase::Head(since) => Some((since, c)),
                Phase::Busy => None,
            })
            .min_by_key(|(since, _)| *since);
        match oldest {
            Some((_, clock)) => {
                clock.evict();
                true
            }
            None => false,
        }
    }
}

/// Serves `router` on `listener` within `bounds` until `shutdown` completes; then stops
/// accepting, lets each connection finish the request it is answering, and returns
/// once every connection has closed.
pub async fn run(
    listener: TcpListener,
    router: Router,
    bounds: Bounds,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let slots = Arc::new(Semaphore::new(bounds.max_connections));
    let open = Arc::new(Open::default());
    let (stop_tx, stop_rx) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let (stream, _) = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) if is_per_connection(&e) => continue,
                Err(_) => {
                    // Out of file descriptors or memory: wait rather than spin.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        // Taken only once someone has come, so that an idle connection is closed for a
        // newcomer and never ahead of one.
        let permit = tokio::select! {
            _ = &mut shutdown => break,
            permit = take_slot(&slots, &open) => permit,
        };
        let _ = stream.set_nodelay(true);
        let clock = Arc::new(Clock::new());
        let id = open.add(clock.clone());
        let open = open.clone();
        let router = router.clone();
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            connection(stream, router, clock, &bounds, &mut stop).await;
            open.remove(id);
            drop(permit);
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    // Every connection holds a slot until it closes: all of them back means all closed.
    let all = u32::try_from(bounds.max_connections).unwrap_or(u32::MAX);
    let _ = slots.acquire_many(all).await;
    Ok(())
}

/// A slot for a connection that has come: at the cap, the longest-waiting idle
/// connection is told to close, and its slot is taken when it has.
async fn take_slot(slots: &Arc<Semaphore>, open: &Open) -> tokio::sync::OwnedSemaphorePermit {
    loop {
        if let Ok(p) = slots.clone().try_acquire_owned() {
            return p;
        }
        open.evict_longest_waiting();
        // A freed slot, or a second look once a busy connection may have gone quiet.
        if let Ok(Ok(p)) =
            tokio::time::timeout(Duration::from_millis(100), slots.clone().acquire_owned()).await
        {
            return p;
        }
    }
}

/// Errors that belong to one connection attempt, not to the listener.
fn is_per_connection(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Serves one connection until it closes, outstays a clock, is evicted, or the server
/// stops (then it finishes the request it is answering first).
async fn connection(
    stream: tokio::net::TcpStream,
    router: Router,
    clock: Arc<Clock>,
    bounds: &Bounds,
    stop: &mut watch::Receiver<bool>,
) {
    let io = TokioIo::new(Timed {
        inner: stream,
        clock: clock.clone(),
    });
    let service_clock = clock.clone();
    let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
        let clock = service_clock.clone();
        clock.busy();
        let answer = router.clone().oneshot(req.map(Body::new));
        async move {
            let res = answer.await;
            clock.answered();
            res
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.max_buf_size(MAX_HEAD_BYTES);
    let conn = builder.serve_connection(io, service);
    tokio::pin!(conn);
    let mut stopping = *stop.borrow();
    if stopping {
        conn.as_mut().graceful_shutdown();
    }
    loop {
        tokio::select! {
            _ = conn.as_mut() => return,
            _ = clock.expired(bounds) => return,
            changed = stop.changed(), if !stopping => {
                if changed.is_err() || *stop.borrow() {
                    stopping = true;
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}
