// Perft with shogiops (lishogi's rules library), independent of kifu's engine.
// Usage: node perft_shogiops.mjs RULES SFEN MAXDEPTH     (RULES: standard|minishogi)
// Prints "depth nodes" per depth. Same enumeration as shogiops' debug.perft
// (promotion + non-promotion where both allowed, forced promotion where the
// unpromoted piece would be dead), but bulk-counts the last ply.
import { parseSfen } from 'shogiops/sfen';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';

const [, , variant, sfenStr, maxStr] = process.argv;
const rules = { standard: 'standard', minishogi: 'minishogi' }[variant];
if (!rules) throw new Error(`unsupported variant ${variant}`);

function children(pos) {
  const out = [];
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      if (pieceCanPromote(pos.rules)(piece, from, to, pos.board.get(to))) {
        out.push({ from, to, promotion: true });
        if (!pieceForcePromote(pos.rules)(piece, to)) out.push({ from, to, promotion: false });
      } else out.push({ from, to, promotion: false });
    }
  }
  for (const [pieceName, dests] of pos.allDropDests()) {
    const role = pieceName.split(' ')[1];
    for (const to of dests) out.push({ role, to });
  }
  return out;
}

function perft(pos, depth) {
  const moves = children(pos);
  if (depth === 1) return moves.length;
  let n = 0;
  for (const m of moves) {
    const child = pos.clone();
    child.play(m);
    n += perft(child, depth - 1);
  }
  return n;
}

const pos = parseSfen(rules, sfenStr, false).unwrap();
for (let d = 1; d <= Number(maxStr); d++) console.log(d, perft(pos, d));
