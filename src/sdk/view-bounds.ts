/**
 * For the plugin SDK (plugins/README.md, "The contract"): a map's view as a box in Web Mercator
 * metres, for providers that ask their server for a box rather than tiles (wms's GetMap).
 */
import { worldPixelToMetres } from '../projection/web-mercator.ts';
import type { MapView } from '../plugin-contract/basemap-plugin.ts';

/** The view's extent in Web Mercator metres (EPSG:3857), as a WMS GetMap's BBOX wants it. */
export function viewBoundsInMetres(view: MapView): { xmin: number; ymin: number; xmax: number; ymax: number } {
  const topLeft = worldPixelToMetres(view.left, view.top, view.zoom);
  const bottomRight = worldPixelToMetres(view.left + view.width, view.top + view.height, view.zoom);
  return { xmin: topLeft.x, ymin: bottomRight.y, xmax: bottomRight.x, ymax: topLeft.y };
}
