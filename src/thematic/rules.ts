/**
 * A theme's `rules` (MapServer's CLASS EXPRESSION): each feature is styled by the first rule
 * whose CQL2 filter matches its row, a rule without filter matching every feature. Compiled
 * once per file against its fields with the compiler of `where=`, then evaluated per row; and
 * their legend, one class per rule.
 */
import { BadRequestError, echo } from '../errors.ts';
import { compileFilter, type CompiledFilter } from '../filter/index.ts';
import type { AttributeField, AttributeValue } from '../shapefile/dbf.ts';
import { hex } from '../svg/paint.ts';
import type { Rgba } from '../svg/style.ts';
import { OTHER_LABEL } from './class-labels.ts';
import type { Legend } from './legend.ts';

/**
 * What this folder reads of a theme's rule (params/theme.ts's ThemeRule, which stands above
 * this folder and fits this shape).
 */
export interface StyleRule {
  /** CQL2 text; none: the rule matches every feature. */
  filter?: string;
  fillColor?: Rgba;
  /** The legend's text; the filter's text when unset. */
  label?: string;
}

export interface CompiledRules {
  /** The fields (as the `.dbf` spells them) the filters read, each once: a scan decodes only these. */
  fields: string[];
  /** The index of the first rule that matches `row`; undefined when none does (the feature is drawn in the plain style). */
  ruleOf(row: Readonly<Record<string, AttributeValue>>): number | undefined;
}

/**
 * `rules` compiled against a file's `fields`; a filter that does not fit them (unknown field,
 * a type mismatch) is a BadRequestError naming the rule by its number (1-based) and text, and
 * the theme when `themeName` is given.
 */
export function compileRules(rules: readonly StyleRule[], fields: readonly AttributeField[], themeName?: string): CompiledRules {
  const filters = rules.map((rule, i) => (rule.filter === undefined ? undefined : compileRule(rule.filter, i, fields, themeName)));
  return {
    fields: [...new Set(filters.flatMap((filter) => filter?.fields ?? []))],
    ruleOf(row) {
      const index = filters.findIndex((filter) => filter === undefined || filter.matches(row));
      return index === -1 ? undefined : index;
    },
  };
}

function compileRule(filter: string, index: number, fields: readonly AttributeField[], themeName: string | undefined): CompiledFilter {
  try {
    return compileFilter(filter, fields);
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    const theme = themeName === undefined ? 'The theme' : `Theme '${themeName}'`;
    throw new BadRequestError(`${theme}, rule ${index + 1} (filter '${echo(filter)}'): ${error.message}`);
  }
}

/**
 * The legend of a theme's rules: one class per rule, in order, labelled by the rule's label,
 * else its filter, else "other" (the default rule); coloured by its fillColor, else by
 * `plainFill`, the fill of the plain style that a rule without one keeps.
 */
export function rulesLegend(rules: readonly StyleRule[], counts: readonly number[], plainFill: Rgba): Legend {
  return {
    field: null,
    method: 'rules',
    classes: rules.map((rule, i) => ({
      label: rule.label ?? rule.filter ?? OTHER_LABEL,
      color: hex(rule.fillColor ?? plainFill),
      min: null,
      max: null,
      value: null,
      count: counts[i] ?? 0,
    })),
  };
}
