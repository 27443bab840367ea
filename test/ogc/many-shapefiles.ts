/**
 * A data folder of many small shapefiles, for the tests of the paged list of collections (and
 * the playground's picker over it): what counts there is how many files there are, not what
 * they hold, so each holds one point in WGS 84.
 */
import { join } from 'node:path';
import { createShapefileWriter } from '../../scripts/lib/shapefile-writer.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { WGS84_PRJ } from '../support/fixtures.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/** `count` names, zero-padded so that their sorted order is their number's: layer_0000, layer_0001, … */
export function numberedNames(count: number, prefix = 'layer_'): string[] {
  const digits = String(Math.max(0, count - 1)).length;
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(digits, '0')}`);
}

/** A fresh folder (removed by removeTempDirs) with one one-point shapefile per name. */
export function writeManyShapefiles(names: readonly string[]): string {
  const dir = makeTempDir('shapeshot-many-');
  names.forEach((name, i) => {
    const writer = createShapefileWriter(join(dir, name), { shapeType: ShapeType.Point, fields: [{ name: 'NAME', type: 'C', length: 40 }], prj: WGS84_PRJ });
    writer.write({ type: 'Point', coordinates: [-170 + (i % 340), -80 + (i % 160)] }, { NAME: name });
    writer.close();
  });
  return dir;
}
