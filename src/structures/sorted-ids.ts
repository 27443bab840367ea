/** Ids in ascending order, as selections and index searches hold them. */

/** The ids in both ascending lists, ascending: one pass over each. */
export function commonIds(a: Uint32Array, b: Uint32Array): Uint32Array {
  const both: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      both.push(a[i]);
      i++;
      j++;
    }
  }
  return Uint32Array.from(both);
}
