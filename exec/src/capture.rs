//! The program's standard output and error, read on threads of their own: output kept up
//! to the limit, error as a tail, and the bytes of both counted, so that the run's loop
//! can stop a program that prints too much while this process holds a bounded amount.

use std::collections::VecDeque;
use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Instant;

/// What a reader thread gives back at the end of its stream.
pub(crate) enum Captured {
    Stdout(Vec<u8>),
    StderrTail(Vec<u8>),
}

/// The two readers of a run.
pub(crate) struct Capture {
    /// Bytes read from both streams so far.
    pub(crate) total: Arc<AtomicU64>,
    done: mpsc::Receiver<Captured>,
}

impl Capture {
    /// Starts reading `stdout`, kept up to `limit` bytes, and `stderr`, kept as its last
    /// `tail` bytes.
    pub(crate) fn start(
        stdout: impl Read + Send + 'static,
        stderr: impl Read + Send + 'static,
        limit: u64,
        tail: usize,
    ) -> std::io::Result<Capture> {
        let total = Arc::new(AtomicU64::new(0));
        let (tx, done) = mpsc::channel();
        let (count, sender) = (total.clone(), tx.clone());
        thread::Builder::new()
            .name("exec-stdout".into())
            .spawn(move || {
                let kept = read_head(stdout, limit, &count);
                let _ = sender.send(Captured::Stdout(kept));
            })?;
        let count = total.clone();
        thread::Builder::new()
            .name("exec-stderr".into())
            .spawn(move || {
                let kept = read_tail(stderr, tail, &count);
                let _ = tx.send(Captured::StderrTail(kept));
            })?;
        Ok(Capture { total, done })
    }

    /// Bytes read so far from both streams.
    pub(crate) fn bytes(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    /// Waits for both streams to end, until `deadline`: a process that left the group
    /// may hold a pipe open, and its output is then given up rather than waited for.
    pub(crate) fn finish(self, deadline: Instant) -> (Vec<u8>, Vec<u8>) {
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        for _ in 0..2 {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.done.recv_timeout(wait) {
                Ok(Captured::Stdout(bytes)) => stdout = bytes,
                Ok(Captured::StderrTail(bytes)) => stderr = bytes,
                Err(_) => break,
            }
        }
        (stdout, stderr)
    }
}

/// Reads to the end, keeping the first `limit` bytes.
fn read_head(mut stream: impl Read, limit: u64, count: &AtomicU64) -> Vec<u8> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut kept = Vec::new();
    let mut buf = vec![0u8; 64 << 10];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return kept,
            Ok(n) => {
                count.fetch_add(n as u64, Ordering::Relaxed);
                let room = limit.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
}

/// Reads to the end, keeping the last `tail` bytes.
fn read_tail(mut stream: impl Read, tail: usize, count: &AtomicU64) -> Vec<u8> {
    let mut kept = VecDeque::with_capacity(tail);
    let mut buf = vec![0u8; 16 << 10];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return kept.into(),
            Ok(n) => {
                count.fetch_add(n as u64, Ordering::Relaxed);
                let fresh = &buf[n.saturating_sub(tail)..n];
                let drop = (kept.len() + fresh.len()).saturating_sub(tail);
                kept.drain(..drop);
                kept.extend(fresh);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_and_the_tail_are_kept() {
        let count = AtomicU64::new(0);
        let text: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        assert_eq!(read_head(&text[..], 1000, &count), &text[..1000]);
        assert_eq!(
            read_tail(&text[..], 1000, &count),
            &text[text.len() - 1000..]
        );
        assert_eq!(count.load(Ordering::Relaxed), 400_000);
        assert_eq!(read_tail(&b"short"[..], 1000, &count), b"short");
    }
}
