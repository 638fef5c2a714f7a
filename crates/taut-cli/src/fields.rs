//! The `key value` reports of the info commands (`taut cpd info`, `taut hub info`): one line
//! per field as text, or one JSON object whose keys are the text's keys in snake case
//! (`file MB` becomes `file_mb`) and whose values are numbers where the text shows a number.

use std::io::Write;

use clap::ValueEnum;
use serde_json::{Map, Value};

/// Output formats of the info commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InfoFormat {
    /// One `key value` line per field.
    Text,
    /// One JSON object.
    Json,
}

/// One field: its key as the text shows it, the text of its value, and its JSON value.
pub struct Field {
    key: &'static str,
    text: String,
    json: Value,
}

impl Field {
    /// A field whose text is `text` and whose JSON value is `json`.
    pub fn new(key: &'static str, text: impl Into<String>, json: impl Into<Value>) -> Field {
        Field {
            key,
            text: text.into(),
            json: json.into(),
        }
    }

    /// A field whose text and JSON value are the same string.
    pub fn text(key: &'static str, value: impl Into<String>) -> Field {
        let text = value.into();
        Field {
            key,
            json: Value::String(text.clone()),
            text,
        }
    }

    /// A hash: its first 8 bytes in hexadecimal and `…` as text, all of it in JSON.
    pub fn hash(key: &'static str, bytes: &[u8]) -> Field {
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        Field {
            key,
            text: format!("{}…", &hex[..hex.len().min(16)]),
            json: Value::String(hex),
        }
    }

    /// A number shown as `text` (already formatted) and written as that number in JSON.
    pub fn number(key: &'static str, text: String) -> Field {
        let json = serde_json::from_str::<Value>(&text).unwrap_or(Value::String(text.clone()));
        Field { key, text, json }
    }
}

impl Field {
    /// Its key as the text shows it.
    pub fn key(&self) -> &'static str {
        self.key
    }
}

/// The JSON key of a text key: lower case, words joined by `_`.
fn snake(key: &str) -> String {
    key.split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>()
        .join("_")
}

/// Writes `fields` in `format`.
///
/// # Errors
/// The write fails.
pub fn write_fields(
    out: &mut dyn Write,
    format: InfoFormat,
    fields: &[Field],
) -> std::io::Result<()> {
    match format {
        InfoFormat::Text => {
            for f in fields {
                writeln!(out, "{} {}", f.key, f.text)?;
            }
        }
        InfoFormat::Json => {
            let mut m = Map::new();
            for f in fields {
                m.insert(snake(f.key), f.json.clone());
            }
            serde_json::to_writer(&mut *out, &Value::Object(m)).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
    }
    Ok(())
}

/// Writes a command's summary: `text` as one line, or `json` as one JSON object.
///
/// # Errors
/// The write fails.
pub fn write_summary(
    out: &mut dyn Write,
    format: InfoFormat,
    text: &str,
    json: &Value,
) -> std::io::Result<()> {
    match format {
        InfoFormat::Text => writeln!(out, "{text}"),
        InfoFormat::Json => {
            serde_json::to_writer(&mut *out, json).map_err(std::io::Error::from)?;
            writeln!(out)
        }
    }
}

/// A number written as JSON with the digits of `text` (a float formatted for the text line).
pub fn num(text: String) -> Value {
    serde_json::from_str::<Value>(&text).unwrap_or(Value::String(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_json_say_the_same() {
        let fields = [
            Field::new("file", "a.cpd", "a.cpd"),
            Field::number("file MB", format!("{:.3}", 0.0071)),
            Field::number("nodes", 64.to_string()),
        ];
        let mut text = Vec::new();
        write_fields(&mut text, InfoFormat::Text, &fields).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "file a.cpd\nfile MB 0.007\nnodes 64\n"
        );
        let mut json = Vec::new();
        write_fields(&mut json, InfoFormat::Json, &fields).unwrap();
        let v: Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(v["file"], "a.cpd");
        assert_eq!(v["file_mb"], 0.007);
        assert_eq!(v["nodes"], 64);
    }
}
