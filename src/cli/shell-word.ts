/**
 * Paths printed inside a command for the user to copy (`npx shapeshot ./my data`) must
 * survive their shell: this quotes the ones that would not.
 */

/** `word` as one POSIX shell word: unchanged when plain, else single-quoted. */
export function shellWord(word: string): string {
  if (/^[\w./~:@%+,=-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
