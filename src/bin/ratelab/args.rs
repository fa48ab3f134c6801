//! A small, strict argument parser: every mistake gets a sentence, never a panic.

use std::collections::BTreeMap;
use std::str::FromStr;

/// Flags and their values, after the subcommand.
pub struct Args {
    values: BTreeMap<String, String>,
    switches: Vec<String>,
}

impl Args {
    /// Splits `--name value`, `--name=value` and bare `--switch` flags. `switches` names
    /// the flags that take no value; every other flag needs one.
    pub fn parse(raw: &[String], switches: &[&str], valued: &[&str]) -> Result<Self, String> {
        let mut values = BTreeMap::new();
        let mut on = Vec::new();
        let mut it = raw.iter();
        while let Some(arg) = it.next() {
            let Some(flag) = arg.strip_prefix("--") else {
                return Err(format!("unexpected argument '{arg}': flags start with --"));
            };
            let (name, inline) = match flag.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (flag, None),
            };
            if switches.contains(&name) {
                if inline.is_some() {
                    return Err(format!("--{name} takes no value"));
                }
                on.push(name.to_string());
            } else if valued.contains(&name) {
                let value = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| format!("--{name} needs a value"))?,
                };
                if values.insert(name.to_string(), value).is_some() {
                    return Err(format!("--{name} is given twice"));
                }
            } else {
                let mut known: Vec<String> = switches
                    .iter()
                    .chain(valued)
                    .map(|f| format!("--{f}"))
                    .collect();
                known.sort();
                return Err(format!(
                    "unknown flag --{name}; this command knows {}",
                    known.join(", ")
                ));
            }
        }
        Ok(Self {
            values,
            switches: on,
        })
    }

    /// True if the switch was given.
    pub fn has(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }

    /// The raw value of a flag, if given.
    pub fn raw(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The value of a flag parsed as `T`, if given.
    pub fn get<T: FromStr>(&self, name: &str, what: &str) -> Result<Option<T>, String> {
        self.raw(name)
            .map(|v| {
                v.trim()
                    .parse::<T>()
                    .map_err(|_| format!("--{name} expects {what}, got '{v}'"))
            })
            .transpose()
    }
}
