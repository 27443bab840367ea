/**
 * The text encoding of a `.dbf` (docs/configuration.md, "Text encoding"): the `.cpg`'s when
 * there is one, else the language driver id's (LDID, header byte 29); with neither, each text
 * value is read as UTF-8 when its bytes are valid UTF-8, else as windows-1252.
 *
 * Without a declared encoding GDAL does not recode: it passes the bytes on, so a UTF-8 file
 * reads right in GDAL and every tool built on it, and must here too. A rule for the whole file
 * would have to look at every value, and one feature of a million rows must not read the
 * others; a sample read at opening would cost every opening a read and still miss what lies
 * past it. Per value, the rule costs one pass over the value's bytes, and a value reads the
 * same wherever it is read (pictures, labels, `where=`, themes, /ogc). It errs only on
 * windows-1252 text that happens to be valid UTF-8: an accented capital or a letter from Â to
 * ô followed by one to three of the symbols windows-1252 puts at 0x80–0xBF ("Ã©"), which is
 * itself garbled text.
 *
 * windows-1252 rather than GDAL's ISO-8859-1: it decodes every printable ISO-8859-1 byte the
 * same, adds the characters Windows tools put in 0x80–0x9F (€, ‘’, “”), and is what ESRI's
 * "ANSI" and the `shapefile` package mean.
 */
import iconv from 'iconv-lite';
import { isUtf8 } from 'node:buffer';

/** How a `.dbf` that declares no encoding is read: a rule per value (see above), named as messages show it. */
export const UNDECLARED_ENCODING = 'UTF-8 where valid, else windows-1252';

/** An encoding name iconv-lite knows (or UNDECLARED_ENCODING), and where it came from. */
export interface DbfEncoding {
  name: string;
  source: 'cpg' | 'ldid' | 'undeclared';
}

/** Language driver ids as ESRI and GDAL document them. */
const CODE_PAGE_BY_LDID: Record<number, string> = {
  0x01: 'cp437', 0x02: 'cp850', 0x03: 'windows-1252', 0x04: 'macintosh',
  0x08: 'cp865', 0x09: 'cp437', 0x0a: 'cp850', 0x0b: 'cp437', 0x0d: 'cp437', 0x0e: 'cp850',
  0x0f: 'cp437', 0x10: 'cp850', 0x11: 'cp437', 0x12: 'cp850', 0x13: 'cp932', 0x14: 'cp850',
  0x15: 'cp437', 0x16: 'cp850', 0x17: 'cp865', 0x18: 'cp437', 0x19: 'cp437', 0x1a: 'cp850',
  0x1b: 'cp437', 0x1c: 'cp863', 0x1d: 'cp850', 0x1f: 'cp852', 0x22: 'cp852', 0x23: 'cp852',
  0x24: 'cp860', 0x25: 'cp850', 0x26: 'cp866', 0x37: 'cp850', 0x40: 'cp852', 0x4d: 'cp936',
  0x4e: 'cp949', 0x4f: 'cp950', 0x50: 'cp874', 0x57: 'windows-1252', 0x58: 'windows-1252',
  0x59: 'windows-1252', 0x64: 'cp852', 0x65: 'cp866', 0x66: 'cp865', 0x67: 'cp861',
  0x6a: 'cp737', 0x6b: 'cp857', 0x6c: 'cp863', 0x78: 'cp950', 0x79: 'cp949', 0x7a: 'cp936',
  0x7b: 'cp932', 0x7c: 'cp874', 0x86: 'cp737', 0x87: 'cp852', 0x88: 'cp857',
  0xc8: 'windows-1250', 0xc9: 'windows-1251', 0xca: 'windows-1254', 0xcb: 'windows-1253',
  0xcc: 'windows-1257',
};

/** The LDID a writer records for an encoding (0 when there is none, e.g. UTF-8). */
export function ldidFor(encoding: string): number {
  const name = encodingFromLabel(encoding);
  if (name === 'windows-1252') return 0x57;
  for (const [ldid, codePage] of Object.entries(CODE_PAGE_BY_LDID)) {
    if (codePage === name) return Number(ldid);
  }
  return 0;
}

/**
 * The encoding a `.cpg` names ("UTF-8", "1252", "ANSI 1252", "CP1252", "88591", …), or
 * undefined when it names none we know.
 */
export function encodingFromLabel(label: string): string | undefined {
  const text = label.trim().toLowerCase().replace(/^ansi\s*/, '');
  if (/^utf-?8$/.test(text)) return 'utf-8';
  if (/^\d{3,5}$/.test(text)) {
    const iso = /^8859(\d{1,2})$/.exec(text);
    if (iso) return known(`iso-8859-${iso[1]}`);
    const codePage = Number(text);
    return codePage >= 1250 && codePage <= 1258 ? `windows-${codePage}` : known(`cp${codePage}`);
  }
  const iso = /^iso[-_ ]?8859[-_ ]?(\d{1,2})$/.exec(text);
  if (iso) return known(`iso-8859-${iso[1]}`);
  const windows = /^(?:cp|windows-?)(125\d)$/.exec(text);
  if (windows) return `windows-${windows[1]}`;
  return known(text);
}

/** The encoding of a `.dbf`, from its `.cpg` text (if any) and its LDID byte. */
export function dbfEncoding(cpgText: string | undefined, ldid: number): DbfEncoding {
  const fromCpg = cpgText === undefined ? undefined : encodingFromLabel(cpgText);
  if (fromCpg) return { name: fromCpg, source: 'cpg' };
  const fromLdid = CODE_PAGE_BY_LDID[ldid];
  if (fromLdid) return { name: fromLdid, source: 'ldid' };
  return { name: UNDECLARED_ENCODING, source: 'undeclared' };
}

export type TextDecode = (bytes: Uint8Array) => string;

export function decoderFor(encoding: string): TextDecode {
  if (encoding === UNDECLARED_ENCODING) return utf8ElseWindows1252();
  if (encoding === 'utf-8') {
    const decoder = new TextDecoder('utf-8');
    return (bytes) => decoder.decode(bytes);
  }
  return (bytes) => iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encoding);
}

function utf8ElseWindows1252(): TextDecode {
  const utf8 = decoderFor('utf-8');
  const windows1252 = decoderFor('windows-1252');
  return (bytes) => (isUtf8(bytes) ? utf8(bytes) : windows1252(bytes));
}

export function encoderFor(encoding: string): (text: string) => Uint8Array {
  const name = encodingFromLabel(encoding);
  if (!name) throw new Error(`Unknown text encoding '${encoding}'.`);
  return (text) => iconv.encode(text, name);
}

function known(name: string): string | undefined {
  return iconv.encodingExists(name) ? name : undefined;
}
