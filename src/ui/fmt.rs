//! Numbers for attributes, written with integer arithmetic: Rust's float formatting is
//! one of the larger pieces of a .wasm, and a page needs no more than a fixed decimal.

/// `v` with `decimals` digits after the point (0 to 3), rounded: `dec(12.345, 1)` is
/// "12.3".
pub fn dec(v: f64, decimals: u32) -> String {
    let scale = 10u64.pow(decimals.min(3));
    let scaled = (v.abs() * scale as f64).round() as u64;
    let sign = if v < 0.0 && scaled > 0 { "-" } else { "" };
    match decimals.min(3) {
        0 => format!("{sign}{scaled}"),
        d => format!(
            "{sign}{}.{:0width$}",
            scaled / scale,
            scaled % scale,
            width = d as usize
        ),
    }
}

/// A percentage for a CSS width: "42.5%".
pub fn percent(v: f64) -> String {
    format!("{}%", dec(v, 1))
}

/// A coordinate rounded to a whole unit, for SVG attributes in a viewBox.
pub fn r(v: f64) -> i64 {
    v.round() as i64
}
