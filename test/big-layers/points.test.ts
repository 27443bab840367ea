/**
 * Issue 28, "Big layers drawn right", for points: 10,000, 100,000 and 1,000,000 scattered
 * points, drawn with their default symbol. Every feature in view is drawn, or the picture is
 * refused before any work with a 400 naming the limit (a map of a million points, unless
 * expectations.ts says it is drawn); the server's event loop stays free meanwhile. The rows
 * are in expectations.ts; how they run, in cases.ts.
 */
import { bigLayerSuite } from './cases.ts';

bigLayerSuite('points');
