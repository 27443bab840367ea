import { create } from 'xmlbuilder2';

export interface XmlElement {
  name: string;
  namespace: string | null;
  attributes: Record<string, string>;
  text: string;
  children: XmlElement[];
}

/** Parses XML into plain elements (with namespaces and order), for asserting on envelopes. */
export function parseXml(text: string): XmlElement {
  const doc = create(text).root().node as unknown as Element;
  return toElement(doc);
}

function toElement(node: Element): XmlElement {
  const children: XmlElement[] = [];
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === 1) children.push(toElement(child as Element));
  }
  const attributes: Record<string, string> = {};
  for (const attribute of Array.from(node.attributes)) attributes[attribute.name] = attribute.value;
  return { name: node.localName, namespace: node.namespaceURI, attributes, text: node.textContent ?? '', children };
}

export const child = (element: XmlElement, name: string) => element.children.find((c) => c.name === name);
