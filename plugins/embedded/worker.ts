/**
 * The embedded basemap's own worker thread: preparing Natural Earth's world layers costs
 * up to a second per level of detail (1:10m), and drawing a view some milliseconds, none of
 * which may hold up the event loop.
 */
import { serveJobs } from '../../src/workers/serve-jobs.ts';
import type { Culture, MapType, MapView } from '../../src/basemap/provider.ts';
import { drawBasemap } from './draw.ts';

export interface DrawJob {
  view: MapView;
  type: MapType;
  culture: Culture;
}

serveJobs({
  draw: ({ view, type, culture }: DrawJob) => ({ result: drawBasemap(view, type, culture) }),
});
