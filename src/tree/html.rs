//! The tree as one self-contained explorer page (no network).
//!
//! The page embeds the tree as JSON (the nodes of [`super::write_jsonl`])
//! and draws the board of the current position from its SFEN, the move
//! table with win/draw/loss bars, the path back, and the names; a click
//! on a move goes to the position after it. The shown position is
//! `data-sfen` on `#board`.

use super::node::NodeView;
use super::write::node_json;
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
    let data: Vec<_> = nodes.into_iter().map(|n| node_json(&n)).collect();
    // `</` cannot close the script inside a JSON string.
    let json = serde_json::to_string(&data)
        .map_err(io::Error::other)?
        .replace("</", "<\\/");
    let lang = match notation {
        Notation::Kif => "ja",
        Notation::Psn => "en",
    };
    let page = TEMPLATE
        .replace("{{LANG}}", lang)
        .replace("{{TITLE}}", &escape(title))
        .replace("{{CSS}}", CSS)
        .replace("{{SCRIPT}}", SCRIPT)
        .replace("{{DATA}}", &json);
    w.write_all(page.as_bytes())
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
