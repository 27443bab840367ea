/**
 * The message of a WMS exception report: what the server says went wrong, short enough to
 * put in an error answer. Read with a pattern rather than an XML parser: only the text of
 * the exception elements matters, and a report that does not parse still has it.
 */

/** Longest message passed on, in characters. */
const MAX_EXCEPTION_TEXT = 200;

/**
 * <ServiceException> of WMS 1.1.1 and 1.3.0 reports, and <ows:ExceptionText> of the OWS
 * Common reports some 1.3.0 servers send instead; any namespace prefix.
 */
const EXCEPTION =
  /<(?:[\w.-]+:)?(ServiceException|ExceptionText)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?\1\s*>)/g;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The report's messages, or undefined when `xml` holds no exception element. */
export function serviceExceptionText(xml: string): string | undefined {
  const messages = [...xml.matchAll(EXCEPTION)].map(([, , attributes, content]) => textOf(content ?? '') || codeOf(attributes));
  if (messages.length === 0) return undefined;
  const text = messages.filter(Boolean).join(' ') || 'the report has no message';
  return text.length > MAX_EXCEPTION_TEXT ? `${text.slice(0, MAX_EXCEPTION_TEXT - 1).trimEnd()}…` : text;
}

/** Element content as plain text: CDATA unwrapped, entities decoded, whitespace runs as one space. */
function textOf(content: string): string {
  return content
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, raw: string) => raw.replace(/&/g, '&amp;').replace(/</g, '&lt;'))
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:#x([\da-f]{1,6})|#(\d{1,7})|(\w+));/gi, (entity, hex?: string, decimal?: string, name?: string) => {
      if (name !== undefined) return ENTITIES[name] ?? entity;
      const codePoint = hex === undefined ? Number(decimal) : parseInt(hex, 16);
      return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** An exception without text still has its code (LayerNotDefined, InvalidFormat, ...). */
function codeOf(attributes: string): string {
  return /\b(?:code|exceptionCode)\s*=\s*["']([^"']*)["']/.exec(attributes)?.[1] ?? '';
}
