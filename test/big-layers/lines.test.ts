/**
 * Issue 28, "Big layers drawn right", for lines: 10,000 and 100,000 short polylines, stroked
 * 2 px wide. Every feature in view is drawn, or the picture is refused before any work with a
 * 400 naming the limit; the server's event loop stays free meanwhile. The rows are in
 * expectations.ts; how they run, in cases.ts.
 */
import { bigLayerSuite } from './cases.ts';

bigLayerSuite('lines');
