import { HALF_WORLD, pixelsPerMetre } from '../projection/web-mercator.ts';
import type { MapView } from './contract.ts';

/** The view's extent in Web Mercator metres (EPSG:3857), as a WMS GetMap's BBOX wants it. */
export function viewBoundsInMetres(view: MapView): { xmin: number; ymin: number; xmax: number; ymax: number } {
  const scale = pixelsPerMetre(view.zoom);
  return {
    xmin: view.left / scale - HALF_WORLD,
    xmax: (view.left + view.width) / scale - HALF_WORLD,
    ymax: HALF_WORLD - view.top / scale,
    ymin: HALF_WORLD - (view.top + view.height) / scale,
  };
}
