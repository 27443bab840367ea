/**
 * Which shapefiles the start-up lines' "Try" URLs name: ones whose URLs answer 200, so that a
 * newcomer's first click draws a picture rather than a 400 or a 404 (the first file of a
 * folder may be a layer of 100,001 features, past limits.maxMapFeatures, or start with a null
 * shape). Asked of the drawing workers, as /ogc asks them, once the server listens; only the
 * first files by name are looked at, so a folder of 100,000 costs no more than one of 100.
 */
import { stat } from 'node:fs/promises';
import type { Services } from '../app-services.ts';
import type { CollectionFacts } from '../ogc-jobs/feature-items.ts';
import { featureLimits } from '../ogc-jobs/feature-limits.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';

export interface StartUpExamples {
  /** A feature with a shape: its image is drawn whatever else its file holds. */
  image?: { file: string; fid: number };
  /** A shapefile whose whole map lies within the limits and can be placed on the earth. */
  map?: string;
}

/** The first files by name looked at, in jobs of this many: a few jobs, whatever the folder holds. */
const LOOKED_AT = 100;
const PER_JOB = 20;
/** The first features of a file looked at for one with a shape (a file may start with null shapes). */
const FIRST_FEATURES = 10;
/** Bytes of a .shp's header, and the fewest bytes a vertex takes in a record (x and y). */
const SHP_HEADER_BYTES = 100;
const VERTEX_BYTES = 16;

type Looked = Pick<Services, 'catalog' | 'jobs' | 'config'>;

/** The examples among the first `names` (sorted, as the catalog lists them); what none suits is left out. */
export async function startUpExamples(services: Looked, names: readonly string[], signal: AbortSignal): Promise<StartUpExamples> {
  const examples: StartUpExamples = {};
  for (let start = 0; start < Math.min(names.length, LOOKED_AT) && !(examples.image && examples.map); start += PER_JOB) {
    const found = await Promise.all(names.slice(start, start + PER_JOB).map((name) => services.catalog.find(name, signal)));
    const files = found.filter((one): one is ShapefileFiles => one !== undefined);
    const { collections } = await services.jobs.run('collections', { files }, signal);
    for (const [i, described] of collections.entries()) {
      if (!('facts' in described) || described.facts.featureCount === 0) continue;
      if (!examples.map && (await mapFits(services.config.limits, described.facts, files[i]))) examples.map = files[i].name;
      if (!examples.image) {
        const fid = await firstFeatureWithShape(services, files[i], signal);
        if (fid !== undefined) examples.image = { file: files[i].name, fid };
      }
      if (examples.image && examples.map) break;
    }
  }
  return examples;
}

/**
 * Whether the map of the whole file passes the checks a plain map (no hot spots, no labels)
 * meets before it is drawn (drawing/map-budget.ts): a place on the earth (a CRS, or lon/lat
 * coordinates), at most maxMapFeatures features, and at most maxMapVertices vertices, bounded
 * here from above by the .shp's size (every vertex takes 16 bytes): a file that passes passes
 * there too; a few that would pass there are not chosen.
 */
async function mapFits(limits: Looked['config']['limits'], facts: CollectionFacts, files: ShapefileFiles): Promise<boolean> {
  if (facts.lonLatBBox === undefined || facts.featureCount > limits.maxMapFeatures) return false;
  const shpBytes = files.versions?.shp?.size ?? (await stat(files.paths.shp)).size;
  return (shpBytes - SHP_HEADER_BYTES) / VERTEX_BYTES <= limits.maxMapVertices;
}

/** The id of the first of the file's first features that has a shape (record 0 may be a null shape, or deleted). */
async function firstFeatureWithShape(services: Looked, files: ShapefileFiles, signal: AbortSignal): Promise<number | undefined> {
  const page = await services.jobs.run(
    'items',
    {
      files,
      query: {},
      offset: 0,
      limit: FIRST_FEATURES,
      properties: [],
      geometry: 'type',
      limits: featureLimits(services.config),
    },
    signal,
  );
  const features = JSON.parse(new TextDecoder().decode(page.features)) as { id: number; geometry: unknown }[];
  return features.find((feature) => feature.geometry !== null)?.id;
}
