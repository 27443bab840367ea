/**
 * Which of a few known names a misspelled one was meant to be: query parameters
 * (params/near-miss.ts), command-line options (cli/arguments.ts) and configuration fields
 * (config/load.ts) all suggest by this one rule, so that "did you mean" means the same thing
 * wherever shapeshot says it.
 *
 * The rule: a name is a near miss of a known name when turning one into the other takes at
 * most one edit per three letters of the known name, and never more than two. An edit is a
 * letter inserted, dropped, changed, or two neighbouring letters swapped (`fromat`). So the
 * short names (`fid`, `key`, `size`, `port`, `host`) allow one edit, which still catches an
 * `s` added or dropped (`fids`, `keys`); longer ones allow two (`linecolour`, `limts`). A flat
 * distance of 2 would take `time` for `theme` and `d` for `fid`: short names have too many
 * neighbours at distance two, among them the cache-busters clients really send.
 */

/** Most edits a name may be from a known name of `length` letters and still be meant as it. */
function editsAllowed(length: number): number {
  return Math.min(2, Math.floor(length / 3));
}

/**
 * The name of `known` that `name` (not itself one of them) was most likely meant to be;
 * undefined when it is near none. The nearest wins; on a tie, the one listed first. Letter
 * case counts: callers that ignore it pass both sides in one case.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  let meant: string | undefined;
  let fewest = Infinity;
  for (const candidate of known) {
    const allowed = editsAllowed(candidate.length);
    const edits = editsBetween(name, candidate, allowed);
    if (edits <= allowed && edits < fewest) {
      meant = candidate;
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
