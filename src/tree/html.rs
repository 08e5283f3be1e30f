//! The tree as one self-contained explorer page (no network).
//!
//! The page embeds the tree as JSON (the nodes of [`super::write_jsonl`])
//! and draws the board of the current position from its SFEN, the move
//! table with win/draw/loss bars, the path back, and the names; a click
//! on a move goes to the position after it. The shown position is
//! `data-sfen` on `#board`.

use super::node::NodeView;
use crate::diagram::Notation;
use std::io::{self, Write};

/// Writes the explorer page of `nodes` (from [`super::Tree::finish`]) (see the [module docs](self)):
/// `title` in its heading, moves in `notation`.
pub fn write(
    nodes: impl IntoIterator<Item = NodeView>,
    title: &str,
    notation: Notation,
    w: &mut impl Write,
) -> io::Result<()> {
    let lang = match notation {
        Notation::Kif => "ja",
        Notation::Psn => "en",
    };
    let page = TEMPLATE
        .replace("{{LANG}}", lang)
        .replace("{{TITLE}}", &escape(title))
        .replace("{{CSS}}", CSS)
        .replace("{{SCRIPT}}", SCRIPT);
    let parts: Vec<&str> = page.split("{{DATA}}").collect();
    if parts.len() == 2 {
        // The usual page: the data streamed node by node (the tree is
        // never held whole, as JSON or as views).
        w.write_all(parts[0].as_bytes())?;
        write_data(nodes, w)?;
        return w.write_all(parts[1].as_bytes());
    }
    let mut data = Vec::new();
    write_data(nodes, &mut data)?;
    let data = String::from_utf8(data).map_err(io::Error::other)?;
    w.write_all(page.replace("{{DATA}}", &data).as_bytes())
}

/// The nodes as one JSON array, `</` written `<\/` (it cannot close the
/// script inside a JSON string; a node's JSON holds any `</` whole).
fn write_data(nodes: impl IntoIterator<Item = NodeView>, w: &mut impl Write) -> io::Result<()> {
    let mut buf: Vec<u8> = Vec::new();
    w.write_all(b"[")?;
    for (i, n) in nodes.into_iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        buf.clear();
        super::write::node_json(&n, &mut buf);
        let mut rest = &buf[..];
        while let Some(at) = memchr::memmem::find(rest, b"</") {
            w.write_all(&rest[..at])?;
            w.write_all(b"<\\/")?;
            rest = &rest[at + 2..];
        }
        w.write_all(rest)?;
    }
    w.write_all(b"]")
}

/// `s` with `&`, `<`, `>` and `"` escaped for HTML.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const TEMPLATE: &str = r#"<!DOCTYPE html>
<html lang="{{LANG}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}}</title>
<style>{{CSS}}</style>
</head>
<body>
<h1>{{TITLE}}</h1>
<nav id="path"></nav>
<main>
<div id="board" data-sfen=""></div>
<section>
<p id="info"></p>
<table id="moves"><thead><tr><th>move</th><th>games</th><th>sente / draw / gote</th><th>rating</th><th>dates</th><th>example</th></tr></thead><tbody></tbody></table>
</section>
</main>
<script id="tree-data" type="application/json">{{DATA}}</script>
<script>{{SCRIPT}}</script>
</body>
</html>
"#;

const CSS: &str = include_str!("explorer.css");
const SCRIPT: &str = include_str!("explorer.js");
