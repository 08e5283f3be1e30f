// Reads JSON [{rules, sfen, usi}] on stdin, prints JSON [bool] = shogiops isLegal.
// Moves shogiops cannot even parse, or that request a promotion shogiops
// does not offer / omit a forced one, count as not legal.
import { parseSfen } from 'shogiops/sfen';
import { parseUsi } from 'shogiops/util';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';

const input = JSON.parse(await new Promise(r => { let s = ''; process.stdin.on('data', d => (s += d)); process.stdin.on('end', () => r(s)); }));
const out = input.map(({ rules, sfen, usi }) => {
  const pos = parseSfen(rules, sfen, false).unwrap();
  const md = parseUsi(usi);
  if (!md) return false;
  if (!pos.isLegal(md)) return false;
  if ('from' in md) {
    const piece = pos.board.get(md.from);
    const can = pieceCanPromote(rules)(piece, md.from, md.to, pos.board.get(md.to));
    const must = pieceForcePromote(rules)(piece, md.to);
    if (md.promotion && !can) return false;
    if (!md.promotion && must) return false;
  }
  return true;
});
console.log(JSON.stringify(out));
