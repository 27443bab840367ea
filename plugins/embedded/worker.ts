/**
 * The embedded basemap's own worker thread: reading Natural Earth's data and making the
 * shapes a view first meets cost some hundreds of milliseconds, and drawing a view some
 * milliseconds, none of which may hold up the event loop. It reads the data as it starts
 * (a job that comes meanwhile waits for that, which it needed anyway).
 */
import { serveJobs, type Culture, type MapType, type MapView } from '../../src/sdk/plugin.ts';
import { drawBasemap } from './draw.ts';
import { preparingWorldData } from './natural-earth.ts';

export interface DrawJob {
  view: MapView;
  type: MapType;
  culture: Culture;
}

serveJobs({
  draw: ({ view, type, culture }: DrawJob) => ({ result: drawBasemap(view, type, culture) }),
});

const preparation = preparingWorldData();
const prepareNext = () => {
  try {
    if (!preparation.next().done) setImmediate(prepareNext);
  } catch {
    // Preparing is ahead of need only: a map that needs what failed makes it itself, and fails with the reason.
  }
};
setImmediate(prepareNext);
