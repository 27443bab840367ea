/**
 * Issue 28, "Big layers drawn right", for polygons: squares and diamonds, 10,000 of a few
 * pixels each, 100,000 of about a pixel (many smaller), 1,000,000 far below a pixel. On main
 * before the fix, a whole-file map of 100,000 of them showed the basemap alone (polygons
 * were thinned to nothing past ~200,000 vertices in a picture) and one image of them all was
 * blank. Every feature in view is drawn, or the picture is refused before any work with a
 * 400 naming the limit; the server's event loop stays free meanwhile. The rows are in
 * expectations.ts; how they run, in cases.ts.
 */
import { bigLayerSuite } from './cases.ts';

bigLayerSuite('polygons');
