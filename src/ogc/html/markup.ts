/**
 * HTML made by template, with everything interpolated escaped unless it is markup made here:
 * the pages show names, field values and URLs that come from the data and the request, and
 * none of them may become markup (a .dbf value `<script>` is text).
 */

/** Markup this module made (or escaped): interpolated as it is. */
export class Markup {
  constructor(readonly text: string) {}
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]);
}

/** One interpolated value: markup as it is, a list item by item, nothing for null, undefined and false, the rest as escaped text. */
function piece(value: unknown): string {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(piece).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** The tag of every template of the pages: html`<td>${value}</td>`. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  return new Markup(strings.reduce((text, string, i) => text + piece(values[i - 1]) + string));
}
