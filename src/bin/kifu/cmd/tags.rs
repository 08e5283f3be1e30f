//! `kifu tags --list`: the names of the taxonomy, as a table or JSON.

use crate::args::{TagsArgs, TagsFormat};
use crate::out::{self, Out};
use kifu::tags::{Entry, Taxonomy};
use serde::Serialize;

/// One name as `--format json` writes it.
#[derive(Serialize)]
struct Listed<'a> {
    id: &'a str,
    ja: &'a str,
    en: &'a str,
    kind: &'a str,
    parent: Option<&'a str>,
    aliases: &'a [String],
}

pub fn run(a: TagsArgs) -> std::io::Result<u8> {
    let owned;
    let tax = match &a.taxonomy {
        None => Taxonomy::builtin(),
        Some(path) => {
            let shown = out::visible(&path.to_string_lossy()).into_owned();
            let read = std::fs::File::open(path)
                .map_err(kifu::tags::LoadError::Io)
                .and_then(Taxonomy::read);
            owned = match read {
                Ok(t) => t,
                Err(kifu::tags::LoadError::Parse(e)) => {
                    out::err(&format!("{shown}:{e}"));
                    return Ok(out::FAILURE);
                }
                Err(e) => {
                    out::err(&format!("kifu tags: cannot read {shown}: {e}"));
                    return Ok(out::FAILURE);
                }
            };
            &owned
        }
    };
    // Helper entries (ids starting with `_`) are building blocks of other
    // rules, never reported: not listed.
    let listed: Vec<&Entry> = tax.entries().iter().filter(|e| !e.is_helper()).collect();
    let mut o = Out::new();
    match a.format {
        TagsFormat::Json => {
            let rows: Vec<Listed> = listed
                .iter()
                .map(|e| Listed {
                    id: &e.id,
                    ja: &e.ja,
                    en: &e.en,
                    kind: e.kind.name(),
                    parent: e.parent.map(|p| tax.get(p).id.as_str()),
                    aliases: &e.aliases,
                })
                .collect();
            let text = serde_json::to_string_pretty(&rows).map_err(std::io::Error::other)?;
            o.line(&text);
        }
        TagsFormat::Human => {
            // The id indented under its parent, then kind, ja, en, aliases.
            let id = |e: &Entry| format!("{}{}", "  ".repeat(usize::from(e.depth)), e.id);
            let w_id = listed.iter().map(|e| id(e).len()).max().unwrap_or(2);
            let w_ja = listed
                .iter()
                .map(|e| kifu::display_width(&e.ja))
                .max()
                .unwrap_or(2);
            let w_en = listed.iter().map(|e| e.en.len()).max().unwrap_or(2);
            let pad = |s: &str, width: usize, have: usize| {
                format!("{s}{}", " ".repeat(width.saturating_sub(have)))
            };
            let head = format!(
                "{}  {}  {}  {}  aliases",
                pad("id", w_id, 2),
                pad("kind", 7, 4),
                pad("ja", w_ja, 2),
                pad("en", w_en, 2)
            );
            o.line(head.trim_end());
            for e in &listed {
                let i = id(e);
                let line = format!(
                    "{}  {}  {}  {}  {}",
                    pad(&i, w_id, i.len()),
                    pad(e.kind.name(), 7, e.kind.name().len()),
                    pad(&e.ja, w_ja, kifu::display_width(&e.ja)),
                    pad(&e.en, w_en, e.en.len()),
                    e.aliases.join(", ")
                );
                if !o.line(out::visible(line.trim_end()).as_ref()) {
                    break;
                }
            }
        }
    }
    o.finish()?;
    Ok(out::OK)
}
