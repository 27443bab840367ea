/**
 * The embedded basemap's own worker thread: preparing Natural Earth's world layers costs
 * up to a second per level of detail (1:10m), and drawing a view some milliseconds, none of
 * which may hold up the event loop.
 */
import { serveJobs, type Culture, type MapType, type MapView } from '../../src/sdk/plugin.ts';
import { drawBasemap } from './draw.ts';

export interface DrawJob {
  view: MapView;
  type: MapType;
  culture: Culture;
}

serveJobs({
  draw: ({ view, type, culture }: DrawJob) => ({ result: drawBasemap(view, type, culture) }),
});
