/**
 * Which parameter a misspelled name was meant to be (docs/decisions.md, "Parameter values"):
 * unknown names are ignored, since pages and proxies add cache-busters (`_=12345`, `v`,
 * `cb`, `ts`, `callback`, `random`, `time`), but a name that is one slip away from a
 * parameter of the operation (`fromat`, `fids`, `linecolour`) would otherwise be ignored
 * silently, and the request answered as if it had not been sent. A slip is what
 * structures/near-names.ts says it is, the rule the command line and the configuration
 * file suggest by too.
 */
import { nearestName } from '../structures/near-names.ts';

/**
 * Names other map interfaces send (WMS GetMap and GetLegendGraphic: `STYLE`, `STYLES`,
 * `LAYER`, `LAYERS`, `RULE`; CSS-minded clients: `class`), which land near `styleBy`,
 * `classes` and `labelSize`: a client sending them means its own interface's, not a
 * misspelling of ours, and they are ignored as other unknown names are.
 */
const OTHER_INTERFACES_NAMES: ReadonlySet<string> = new Set(['style', 'styles', 'layer', 'layers', 'rule', 'class']);

/**
 * The parameter (lower-cased, one of `parameters`) that `name` (lower-cased, not itself a
 * parameter) was most likely meant to be; undefined when it is near none of them, as a
 * cache-buster is. The nearest wins; on a tie, the one listed first.
 */
export function meantParameter(name: string, parameters: readonly string[]): string | undefined {
  return OTHER_INTERFACES_NAMES.has(name) ? undefined : nearestName(name, parameters);
}
