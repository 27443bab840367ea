import { join } from 'node:path';
import type { Position } from 'geojson';
import { afterAll, describe, expect, it } from 'vitest';
import { createCatalog, type TestCatalog } from '../support/catalog.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { createShapefileWriter } from '../../scripts/lib/shapefile-writer.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

afterAll(removeTempDirs);

describe('walking a .shp', () => {
  it('visits every record in file order, with its bbox and point count, across chunk boundaries', async () => {
    const dir = makeTempDir();
    const writer = createShapefileWriter(join(dir, 'walk'), { shapeType: ShapeType.PolyLine, fields: [] });
    // A line of 300,000 vertices (4.8 MB) does not fit one 4 MB read; small lines around it do.
    const long: Position[] = Array.from({ length: 300_000 }, (_, i) => [i, i % 7]);
    const lines = [
      ...Array.from({ length: 1000 }, (_, i): Position[] => [[i, 0], [i + 1, 2]]),
      long,
      ...Array.from({ length: 1000 }, (_, i): Position[] => [[-i, -1], [-i - 1, 0], [-i, 3]]),
    ];
    writer.write(null, {});
    for (const line of lines) writer.write({ type: 'LineString', coordinates: line }, {});
    writer.close();

    const catalog = createCatalog({ dataDir: dir, cacheBytes: 0 });
    try {
      const shapefile = (await catalog.open('walk'))!;
      let fid = 0;
      for (const record of shapefile.open.walk(() => undefined)) {
        expect(record.fid).toBe(fid);
        if (fid === 0) {
          expect(record.bbox).toBeUndefined();
          expect(await shapefile.readGeometry(fid, { useCache: false })).toBeNull();
        } else {
          const line = lines[fid - 1];
          expect(record.pointCount).toBe(line.length);
          const box = { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity };
          for (const [x, y] of line) Object.assign(box, { xmin: Math.min(box.xmin, x), ymin: Math.min(box.ymin, y), xmax: Math.max(box.xmax, x), ymax: Math.max(box.ymax, y) });
          expect(record.bbox).toEqual(box);
          if (fid % 250 === 1 || line === long) {
            expect(await shapefile.readGeometry(fid, { useCache: false })).toEqual({ type: 'LineString', coordinates: line });
          }
        }
        fid++;
      }
      expect(fid).toBe(shapefile.featureCount);
    } finally {
      await catalog.close();
    }
  });
});
