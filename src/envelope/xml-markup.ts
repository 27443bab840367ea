/**
 * The markup of the XML envelope, as .NET's DataContractSerializer reads it: the one place
 * that writes its tags, so that the envelope's head (xml.ts) and each image's part
 * (image-xml.ts, written on a drawing worker) come out alike. Every text goes through
 * xmlSafe(), so the envelope is well-formed whatever a file or a request holds.
 *
 * The bytes are those xmlbuilder2 wrote when it built the envelope (a test holds the two
 * side by side): an element with text is written open and closed, even when the text is
 * empty; one without is self-closed; text escapes &, < and >; attribute values & < > and ".
 * One difference, on purpose: xmlbuilder2 left an & alone when an entity name followed it
 * ("&amp;" stayed "&amp;"), so such text came back changed; here every & is escaped.
 */
import { xmlSafe } from '../xml-text.ts';

/** The XML Schema instance namespace, declared on the envelope's root with prefix `i`. */
export const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

const TEXT_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function escapeText(text: string): string {
  return xmlSafe(text).replace(/[&<>]/g, (character) => TEXT_ENTITIES[character]);
}

function escapeAttribute(value: string): string {
  return xmlSafe(value).replace(/[&<>"]/g, (character) => TEXT_ENTITIES[character]);
}

/** `<name attributes>text</name>`; attribute values are escaped here. */
export function textElement(name: string, text: string, attributes: Record<string, string> = {}): string {
  return `${startTag(name, attributes)}${escapeText(text)}</${name}>`;
}

/** `<name attributes/>`: an element without content. */
export function emptyElement(name: string, attributes: Record<string, string> = {}): string {
  return `<${name}${attributeText(attributes)}/>`;
}

/** `<name attributes>`, to be closed by endTag() after its children. */
export function startTag(name: string, attributes: Record<string, string> = {}): string {
  return `<${name}${attributeText(attributes)}>`;
}

export function endTag(name: string): string {
  return `</${name}>`;
}

/** A null, as DataContractSerializer writes and reads it. */
export const NIL = { 'i:nil': 'true' } as const;

function attributeText(attributes: Record<string, string>): string {
  let text = '';
  for (const name in attributes) text += ` ${name}="${escapeAttribute(attributes[name])}"`;
  return text;
}
