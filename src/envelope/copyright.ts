/**
 * What an answer's `Copyright` says: the service's own text (`envelope.copyright`), then
 * the credit the served data asks for (configured per data folder or per shapefile, the
 * sample data's own when the bundled sample data is served), then on a map the basemap's.
 * Kept apart from the routes so that images and map credit the same way, and each credit
 * is said once: the sample data and the embedded basemap both come from Natural Earth.
 */
import { resolve } from 'node:path';
import { SAMPLE_DATA_DIR } from '../config/package-folders.ts';
import type { Config } from '../config/schema.ts';

/** The bundled sample data's sources, as data/README.md names them and their licences ask. */
export const SAMPLE_DATA_ATTRIBUTION = 'Sample data: Natural Earth; names and centres © Mohammed Le Doze (world-countries, ODbL).';

/** The credit the data asks for, by the shapefile's name; undefined when none is configured. */
export type DataAttribution = (shapefile: string) => string | undefined;

/**
 * A shapefile's attribution: its own (`data.files.<name>.attribution`, the name matched
 * case-insensitively as `file=` is), else the folder's (`data.attribution`), else the
 * sample data's when the data folder is the bundled sample data.
 */
export function dataAttribution(config: Pick<Config, 'dataDir' | 'data'>): DataAttribution {
  const byFile = new Map(Object.entries(config.data.files).map(([name, { attribution }]) => [name.toLowerCase(), attribution]));
  const folder = config.data.attribution ?? (isSampleData(config.dataDir) ? SAMPLE_DATA_ATTRIBUTION : undefined);
  return (shapefile) => byFile.get(shapefile.toLowerCase()) ?? folder;
}

/** Whether `dataDir` is the sample data that ships with shapeshot (its default), however it was written. */
function isSampleData(dataDir: string): boolean {
  return resolve(dataDir) === resolve(SAMPLE_DATA_DIR);
}

/**
 * The credits, in order, as one text: empty ones left out, and one that another already
 * says (the same words, whatever their case, alone or within a longer credit) said once.
 */
export function copyrightOf(credits: readonly (string | undefined)[]): string {
  const texts = credits.map((credit) => credit?.trim() ?? '').filter((text) => text !== '');
  const said = (text: string, index: number) =>
    texts.some((other, at) => {
      if (at === index) return false;
      // Equal credits: the first stays. A credit within a longer one: the longer one stays.
      return text.toLowerCase() === other.toLowerCase() ? at < index : saysWithin(other, text);
    });
  return texts.filter((text, index) => !said(text, index)).join(' ');
}

/** Whether `inner` stands in `outer` as whole words ('IGN' in '© IGN France', not in 'Designed'). */
function saysWithin(outer: string, inner: string): boolean {
  const escaped = inner.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu').test(outer);
}
