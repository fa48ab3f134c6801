//! The event queue: a min-heap ordered by (time, sequence).
//!
//! Two events at the same instant leave the queue in the order they were pushed, so a
//! run never depends on how the heap breaks ties. Events are never removed early: a
//! timeout that no longer matters is left in place and dropped by its handler when it
//! surfaces (lazy cancellation), which keeps the heap a plain `BinaryHeap`.
//!
//! Events that are pushed in time order anyway can wait in a FIFO lane beside the heap
//! instead of in it. Pacer turns are one such stream (each booked turn is no earlier
//! than the last); client timeouts are another (every one is "now + the same timeout").
//! A million-customer run parks tens of thousands of retries at the back of the pacer's
//! line and sets a timeout for every request; in lanes they cost O(1) each, and the heap
//! keeps only what really arrives out of order. Because sequence numbers are shared,
//! popping the earliest of the fronts gives exactly the order a single heap would.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

struct Entry<E> {
    at_us: u64,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.at_us, self.seq) == (other.at_us, other.seq)
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed, so that std's max-heap pops the earliest (time, seq) first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at_us, other.seq).cmp(&(self.at_us, self.seq))
    }
}

/// Number of in-order lanes beside the heap.
pub const LANES: usize = 2;

/// Pending events, earliest first, first-in first-out within one instant.
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    lanes: [VecDeque<Entry<E>>; LANES],
    next_seq: u64,
    /// The (time, sequence) of the last event popped, which a debug build checks every
    /// pop and push against: events leave in that order, and none is set in the past.
    #[cfg(debug_assertions)]
    popped: Option<(u64, u64)>,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self {
            heap: BinaryHeap::new(),
            lanes: std::array::from_fn(|_| VecDeque::new()),
            next_seq: 0,
            #[cfg(debug_assertions)]
            popped: None,
        }
    }
}

/// Where the earliest event waits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Front {
    Heap,
    Lane(usize),
}

impl<E> EventQueue<E> {
    fn entry(&mut self, at_us: u64, event: E) -> Entry<E> {
        #[cfg(debug_assertions)]
        debug_assert!(
            self.popped.is_none_or(|(popped_us, _)| at_us >= popped_us),
            "an event set at {at_us} µs, before one already handled"
        );
        let seq = self.next_seq;
        self.next_seq += 1;
        Entry { at_us, seq, event }
    }

    /// Schedules `event` at `at_us`.
    pub fn push(&mut self, at_us: u64, event: E) {
        let entry = self.entry(at_us, event);
        self.heap.push(entry);
    }

    /// Schedules `event` at `at_us` in lane `lane`. `at_us` must be no earlier than the
    /// last event pushed into that lane: such events skip the heap.
    pub fn push_in_order(&mut self, lane: usize, at_us: u64, event: E) {
        if let Some(last) = self.lanes[lane].back() {
            assert!(
                at_us >= last.at_us,
                "push_in_order out of order in lane {lane}: {at_us} after {}",
                last.at_us
            );
        }
        let entry = self.entry(at_us, event);
        self.lanes[lane].push_back(entry);
    }

    /// Where the earliest pending event is, if any.
    fn front(&self) -> Option<(Front, u64)> {
        let mut best = self.heap.peek().map(|e| (Front::Heap, (e.at_us, e.seq)));
        for (i, lane) in self.lanes.iter().enumerate() {
            if let Some(e) = lane.front() {
                if best.is_none_or(|(_, key)| (e.at_us, e.seq) < key) {
                    best = Some((Front::Lane(i), (e.at_us, e.seq)));
                }
            }
        }
        best.map(|(front, (at_us, _))| (front, at_us))
    }

    /// Removes and returns the earliest event with its time.
    pub fn pop(&mut self) -> Option<(u64, E)> {
        let e = match self.front()?.0 {
            Front::Heap => self.heap.pop(),
            Front::Lane(i) => self.lanes[i].pop_front(),
        };
        #[cfg(debug_assertions)]
        if let Some(e) = &e {
            let key = (e.at_us, e.seq);
            debug_assert!(
                self.popped.is_none_or(|last| key > last),
                "events leave out of (time, sequence) order"
            );
            self.popped = Some(key);
        }
        e.map(|e| (e.at_us, e.event))
    }

    /// The time of the earliest event, if any.
    pub fn peek_time_us(&self) -> Option<u64> {
        self.front().map(|(_, at_us)| at_us)
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len() + self.lanes.iter().map(VecDeque::len).sum::<usize>()
    }

    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_by_time_then_fifo() {
        let mut q = EventQueue::default();
        q.push(20, "late");
        q.push(10, "first");
        q.push(10, "second");
        q.push(5, "earliest");
        q.push(10, "third");
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (5, "earliest"),
                (10, "first"),
                (10, "second"),
                (10, "third"),
                (20, "late")
            ]
        );
    }

    #[test]
    fn lanes_merge_with_the_heap_as_one_queue() {
        // The same pushes through one heap, and through heap + lanes, pop identically,
        // ties included.
        let mut mixed = EventQueue::default();
        let mut plain = EventQueue::default();
        // (time, Some(lane) or None for the heap)
        let pushes = [
            (50, Some(0)),
            (10, None),
            (50, None),
            (60, Some(0)),
            (30, Some(1)),
            (50, Some(0)),
            (5, None),
            (60, None),
            (30, Some(1)),
            (70, Some(1)),
        ];
        let mut lane_time = [0; LANES];
        for (i, (t, lane)) in pushes.into_iter().enumerate() {
            if let Some(l) = lane {
                lane_time[l] = lane_time[l].max(t);
                mixed.push_in_order(l, lane_time[l], i);
                plain.push(lane_time[l], i);
            } else {
                mixed.push(t, i);
                plain.push(t, i);
            }
        }
        assert_eq!(mixed.len(), plain.len());
        while let Some(p) = plain.pop() {
            assert_eq!(mixed.peek_time_us(), Some(p.0));
            assert_eq!(mixed.pop(), Some(p));
        }
        assert!(mixed.is_empty());
    }

    #[test]
    #[should_panic(expected = "out of order")]
    fn the_lane_refuses_an_earlier_time() {
        let mut q = EventQueue::default();
        q.push_in_order(1, 10, ());
        q.push_in_order(0, 9, ()); // another lane: fine
        q.push_in_order(1, 9, ()); // same lane, earlier: refused
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "before one already handled")]
    fn a_debug_build_refuses_an_event_set_in_the_past() {
        let mut q = EventQueue::default();
        q.push(10, ());
        q.pop();
        q.push(10, ()); // the same instant: fine
        q.push(9, ()); // before the one handled: refused
    }

    #[test]
    fn peek_matches_pop() {
        let mut q = EventQueue::default();
        assert_eq!(q.peek_time_us(), None);
        q.push(7, ());
        q.push(3, ());
        assert_eq!(q.peek_time_us(), Some(3));
        assert_eq!(q.len(), 2);
        q.pop();
        assert_eq!(q.peek_time_us(), Some(7));
    }
}
