/**
 * Which parameter a misspelled name was meant to be (decisions.md, "Parameter values"):
 * unknown names are ignored, since pages and proxies add cache-busters (`_=12345`, `v`,
 * `cb`, `ts`, `callback`, `random`, `time`), but a name that is one slip away from a
 * parameter of the operation (`fromat`, `fids`, `linecolour`) would otherwise be ignored
 * silently, and the request answered as if it had not been sent.
 *
 * The rule: a name is a near miss of a parameter when turning one into the other takes at
 * most one edit per three letters of the parameter's name, and never more than two. An
 * edit is a letter inserted, dropped, changed, or two neighbouring letters swapped
 * (`fromat`). So the short names (`fid`, `key`, `size`, `type`, `zoom`, `grid`, `file`,
 * `where`, `theme`, `scale`) allow one edit, which still catches an `s` added or dropped
 * (`fids`, `keys`) and `id` for `fid`; longer ones allow two (`linecolour`, `form`). A flat
 * distance of 2 would take `time` for `theme` and `d` for `fid`: short names have too many
 * neighbours at distance two, among them the cache-busters clients really send.
 */

/**
 * Names other map interfaces send (WMS GetMap and GetLegendGraphic: `STYLE`, `STYLES`,
 * `LAYER`, `LAYERS`, `RULE`; CSS-minded clients: `class`), which land near `styleBy`,
 * `classes` and `labelSize`: a client sending them means its own interface's, not a
 * misspelling of ours, and they are ignored as other unknown names are.
 */
const OTHER_INTERFACES_NAMES: ReadonlySet<string> = new Set(['style', 'styles', 'layer', 'layers', 'rule', 'class']);

/** Most edits a name may be from a parameter of `length` letters and still be meant as it. */
function editsAllowed(length: number): number {
  return Math.min(2, Math.floor(length / 3));
}

/**
 * The parameter (lower-cased, one of `parameters`) that `name` (lower-cased, not itself a
 * parameter) was most likely meant to be; undefined when it is near none of them, as a
 * cache-buster is. The nearest wins; on a tie, the one listed first.
 */
export function meantParameter(name: string, parameters: readonly string[]): string | undefined {
  if (OTHER_INTERFACES_NAMES.has(name)) return undefined;
  let meant: string | undefined;
  let fewest = Infinity;
  for (const parameter of parameters) {
    const allowed = editsAllowed(parameter.length);
    const edits = editsBetween(name, parameter, allowed);
    if (edits <= allowed && edits < fewest) {
      meant = parameter;
      fewest = edits;
    }
  }
  return meant;
}

/**
 * The edits (insert, drop, change, swap neighbours: the optimal string alignment distance)
 * between `a` and `b`, or anything above `bound` once it is sure to pass it. Names whose
 * lengths differ by more than the bound are not compared letter by letter, so a long name
 * (a URL holds up to 16 KiB) costs nothing.
 */
export function editsBetween(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  // rows[i][j]: edits between the first i letters of a and the first j of b.
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      let edits = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + change);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) edits = Math.min(edits, rows[i - 2][j - 2] + 1);
      row.push(edits);
    }
    rows.push(row);
  }
  return rows[a.length][b.length];
}
