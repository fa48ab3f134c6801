//! The timeline's time axis: ticks that fit the run, whether it lasts 17 ms or 13 s,
//! labelled in milliseconds below a second's step and in seconds above.

/// Tick steps, in microseconds: 1, 2, 5 per decade from 1 ms to 10 minutes, then an hour.
const STEPS_US: [u64; 19] = [
    1_000,
    2_000,
    5_000,
    10_000,
    20_000,
    50_000,
    100_000,
    200_000,
    500_000,
    1_000_000,
    2_000_000,
    5_000_000,
    10_000_000,
    30_000_000,
    60_000_000,
    120_000_000,
    300_000_000,
    600_000_000,
    3_600_000_000,
];

/// At most this many steps across the axis.
const MAX_STEPS: u64 = 12;

/// The narrowest step between two labels, in CSS pixels: "1500 ms" and its gap.
const MIN_STEP_PX: f64 = 56.0;

/// The ticks of an axis from 0 to `axis_end_us`, drawn `plot_width_px` wide: (time,
/// label), at most one every [`MIN_STEP_PX`] so that no two labels touch on a phone, and
/// at most [`MAX_STEPS`] steps on a wide screen (a run of a few microseconds gets "0 ms"
/// alone).
pub fn time_ticks(axis_end_us: u64, plot_width_px: f64) -> Vec<(u64, String)> {
    // The smallest step that keeps to both: a step of `s` is `s / axis_end_us` of the
    // plot's width.
    let step = STEPS_US
        .into_iter()
        .find(|&s| {
            axis_end_us / s <= MAX_STEPS
                && s as f64 * plot_width_px >= MIN_STEP_PX * axis_end_us as f64
        })
        .unwrap_or(STEPS_US[STEPS_US.len() - 1]);
    (0..=axis_end_us / step)
        .map(|i| {
            let t = i * step;
            let label = if step < 1_000_000 {
                format!("{} ms", t / 1_000)
            } else {
                format!("{} s", t / 1_000_000)
            };
            (t, label)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_naive_burst_is_labelled_in_milliseconds_and_a_keyed_run_in_seconds() {
        let naive = time_ticks(17_000, 900.0);
        assert_eq!(naive.first().unwrap().1, "0 ms");
        assert_eq!(naive.last().unwrap(), &(16_000, "16 ms".to_string()));
        assert!(naive.len() >= 4 && naive.len() <= 13);
        let keyed = time_ticks(13_100_000, 900.0);
        assert_eq!(keyed[1], (2_000_000, "2 s".to_string()));
        assert!(keyed.len() <= 13);
        assert_eq!(time_ticks(500, 900.0), vec![(0, "0 ms".to_string())]);
        let hours = time_ticks(50 * 3_600_000_000, 900.0);
        assert_eq!(hours[1].1, "3600 s");
    }

    #[test]
    fn on_a_phone_the_labels_are_far_enough_apart_not_to_touch() {
        // A 12.8 s run: one a second on a wide screen, fewer on a phone's 230 px plot.
        let wide = time_ticks(12_800_000, 920.0);
        assert_eq!(wide[1].0, 1_000_000);
        let phone = time_ticks(12_800_000, 230.0);
        assert_eq!(phone[1], (5_000_000, "5 s".to_string()));
        for plot in [120.0, 230.0, 310.0, 500.0, 920.0] {
            for end in [17_000, 480_000, 2_300_000, 12_800_000, 61_000_000] {
                let ticks = time_ticks(end, plot);
                let step_px = plot * ticks.get(1).map_or(end, |t| t.0) as f64 / end as f64;
                assert!(
                    ticks.len() == 1 || step_px >= MIN_STEP_PX,
                    "{end} µs in {plot} px: {step_px} px"
                );
            }
        }
    }
}
