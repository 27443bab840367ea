/**
 * A styled answer's `Legend` (docs/decisions.md, "Thematic styling"), in the envelope's JSON and
 * XML: after the existing members of `Resource`, as `Attributes` came after a hot spot's,
 * so that .NET clients still read what they knew; the same names in the same order in both.
 */
import type { Format } from '../params/fields.ts';
import type { Legend } from '../thematic/legend.ts';
import { emptyElement, endTag, NIL, startTag, textElement } from './xml-markup.ts';

/** The legend as its JSON object (Field, Method, Classes with Label, Color, Min, Max, Value, Count). */
export function legendJson(legend: Legend): string {
  return JSON.stringify({
    Field: legend.field,
    Method: legend.method,
    Classes: legend.classes.map((entry) => ({
      Label: entry.label,
      Color: entry.color,
      Min: entry.min,
      Max: entry.max,
      Value: entry.value,
      Count: entry.count,
    })),
  });
}

/** The legend as its `<Legend>` element, nulls as i:nil. */
export function legendXml(legend: Legend): string {
  let text = startTag('Legend') + optionalElement('Field', legend.field) + textElement('Method', legend.method);
  if (legend.classes.length === 0) return text + emptyElement('Classes') + endTag('Legend');
  text += startTag('Classes');
  for (const entry of legend.classes) {
    text +=
      startTag('LegendClass') +
      textElement('Label', entry.label) +
      textElement('Color', entry.color) +
      optionalElement('Min', entry.min) +
      optionalElement('Max', entry.max) +
      optionalElement('Value', entry.value) +
      textElement('Count', String(entry.count)) +
      endTag('LegendClass');
  }
  return text + endTag('Classes') + endTag('Legend');
}

function optionalElement(name: string, value: string | number | boolean | null): string {
  return value === null ? emptyElement(name, NIL) : textElement(name, xmlValue(value));
}

/** Numbers as .NET writes a double (R format: what round-trips), logicals as xs:boolean. */
function xmlValue(value: string | number | boolean): string {
  if (typeof value !== 'number') return String(value);
  if (value === Infinity) return 'INF';
  if (value === -Infinity) return '-INF';
  return String(value);
}

/**
 * The bytes the legend adds to an envelope in `format` (none to a picture alone): reserved in
 * the answer's limit before the images are drawn, so that an answer past it is refused before
 * the work, not after.
 */
export function legendBytes(legend: Legend, format: Format): number {
  if (format === 'xml') return new TextEncoder().encode(legendXml(legend)).length;
  if (format === 'json') return new TextEncoder().encode(`,"Legend":${legendJson(legend)}`).length;
  return 0;
}
