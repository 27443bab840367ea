/**
 * The message of a WMS exception report: what the server says went wrong, short enough to
 * put in an error answer. Read by a scan of the tags rather than an XML parser: only the
 * text of the exception elements matters, and a report that does not parse still has it.
 *
 * Every step takes time linear in the body, whatever it holds: the body comes from a server
 * we do not control, and may be megabytes of unclosed tags. (A pattern with a lazy `.*?` up
 * to a closing tag scans to the end again from every opening tag that has none: minutes of
 * the event loop for a few megabytes.)
 */

/** Longest message passed on, in characters. */
const MAX_EXCEPTION_TEXT = 200;

/**
 * A tag at the current position: `<ServiceException` (WMS 1.1.1 and 1.3.0) or
 * `<ExceptionText` (OWS Common, which some 1.3.0 servers send), any namespace prefix, or the
 * closing tag of one. Sticky, and each part begins with its own kind of character, so a
 * test reads no further than the tag's name.
 */
const TAG = /<(\/?)(?:[\w.-]+:)?(ServiceException|ExceptionText)\b/y;
const CLOSING_END = /\s*>/y;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The report's messages, or undefined when `xml` holds no exception element. */
export function serviceExceptionText(xml: string): string | undefined {
  const messages = exceptionElements(xml).map(({ attributes, content }) => (content === undefined ? '' : textOf(content)) || codeOf(attributes));
  if (messages.length === 0) return undefined;
  const text = messages.filter(Boolean).join(' ') || 'the report has no message';
  return text.length > MAX_EXCEPTION_TEXT ? `${text.slice(0, MAX_EXCEPTION_TEXT - 1).trimEnd()}…` : text;
}

interface ExceptionElement {
  attributes: string;
  /** Undefined for an empty element (`<ServiceException code="X"/>`). */
  content?: string;
}

/**
 * The exception elements in document order, in one pass over the tags. An element runs from
 * its opening tag to the first closing tag of its name; the scan goes on after that closing
 * tag, so contents never overlap and the text sliced out adds up to at most the body.
 */
function exceptionElements(xml: string): ExceptionElement[] {
  const found: ExceptionElement[] = [];
  /** Per name, the first opening tag since the last element found that is still waiting for its closing tag. */
  const open = new Map<string, { attributes: string; contentStart: number }>();
  for (let at = xml.indexOf('<'); at >= 0; at = xml.indexOf('<', at + 1)) {
    TAG.lastIndex = at;
    const tag = TAG.exec(xml);
    if (!tag) continue;
    const [, closing, name] = tag;
    const end = xml.indexOf('>', TAG.lastIndex);
    // No '>' after this tag: none after any later one either.
    if (end < 0) break;
    if (closing) {
      CLOSING_END.lastIndex = TAG.lastIndex;
      const opened = open.get(name);
      if (opened !== undefined && CLOSING_END.test(xml) && CLOSING_END.lastIndex === end + 1) {
        found.push({ attributes: opened.attributes, content: xml.slice(opened.contentStart, at) });
        open.clear();
      }
    } else if (xml[end - 1] === '/') {
      if (open.size === 0) found.push({ attributes: xml.slice(TAG.lastIndex, end - 1) });
    } else if (!open.has(name)) {
      open.set(name, { attributes: xml.slice(TAG.lastIndex, end), contentStart: end + 1 });
    }
    // The tag runs to its '>': the next one starts after it, so no stretch is searched twice.
    at = end;
  }
  return found;
}

/** Element content as plain text: CDATA unwrapped, tags dropped, entities decoded, whitespace runs as one space. */
function textOf(content: string): string {
  return withoutTags(unwrapCdata(content))
    .replace(/&(?:#x([\da-f]{1,6})|#(\d{1,7})|(\w{1,32}));/gi, (entity, hex?: string, decimal?: string, name?: string) => {
      if (name !== undefined) return ENTITIES[name] ?? entity;
      const codePoint = hex === undefined ? Number(decimal) : parseInt(hex, 16);
      return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** CDATA sections as escaped text, so that dropping tags and decoding entities leave their text as it was. */
function unwrapCdata(content: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let start = content.indexOf('<![CDATA['); start >= 0; start = content.indexOf('<![CDATA[', from)) {
    const end = content.indexOf(']]>', start + 9);
    // Unterminated: so is every later one.
    if (end < 0) break;
    parts.push(content.slice(from, start), content.slice(start + 9, end).replace(/&/g, '&amp;').replace(/</g, '&lt;'));
    from = end + 3;
  }
  parts.push(content.slice(from));
  return parts.join('');
}

/** The text between tags: each `<` up to the next `>` dropped. */
function withoutTags(content: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let start = content.indexOf('<'); start >= 0; start = content.indexOf('<', from)) {
    const end = content.indexOf('>', start);
    // No '>' after this '<': the rest is text, as a pattern that found no tag would leave it.
    if (end < 0) break;
    parts.push(content.slice(from, start));
    from = end + 1;
  }
  parts.push(content.slice(from));
  return parts.join('');
}

/** An exception without text still has its code (LayerNotDefined, InvalidFormat, ...). */
function codeOf(attributes: string): string {
  return /\b(?:code|exceptionCode)\s*=\s*["']([^"']*)["']/.exec(attributes)?.[1] ?? '';
}
