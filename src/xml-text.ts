/**
 * Text bound for XML (envelopes, SVG): the one place that knows what XML 1.0 allows.
 */

/**
 * Characters XML 1.0 forbids: C0 controls but tab, newline and carriage return; unpaired
 * surrogates; U+FFFE and U+FFFF.
 */
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text as an XML 1.0 document may hold it: every forbidden character replaced by U+FFFD. */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML_CHARACTER, '\uFFFD');
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text written by hand into XML (SVG), as character data or an attribute value. */
export function escapeXml(text: string): string {
  return xmlSafe(text).replace(/[&<>"']/g, (character) => XML_ENTITIES[character]);
}
