/** The WKT a .prj holds as proj4js is given it: variants of the corpus's files that other writers produce. */
import { readFileSync } from 'node:fs';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { prjWktForProj4 } from '../../src/shapefile/prj-wkt.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/prj/${name}`, import.meta.url), 'utf8');
const BELGIAN = fixture('EPSG_31370.prj');
/** Brussels in Belgian Lambert 72 and in WGS 84, as GDAL places it (test/fixtures/prj/reference.json). */
const BRUSSELS = (() => {
  const { crss } = JSON.parse(fixture('reference.json'));
  return crss.find((entry: { prj: string }) => entry.prj === 'EPSG_31370.prj').points[0];
})();

function placed(wkt: string): [number, number] {
  const reading = prjWktForProj4(wkt);
  if (!('wkt' in reading)) throw new Error(reading.problem);
  return proj4(reading.wkt, 'WGS84').forward([BRUSSELS.x, BRUSSELS.y]) as [number, number];
}

const expectAtBrussels = ([lon, lat]: [number, number]) => {
  expect(lon).toBeCloseTo(BRUSSELS.lon, 7);
  expect(lat).toBeCloseTo(BRUSSELS.lat, 7);
};

describe('a .prj made ready for proj4js', () => {
  it('gets its datum shift whatever the case of the datum name', () => {
    expectAtBrussels(placed(BELGIAN));
    expectAtBrussels(placed(BELGIAN.replace('D_Belge_1972', 'D_BELGE_1972')));
  });

  it('reads the geographic unit and the datum right when they carry AUTHORITY nodes', () => {
    const withAuthorities = BELGIAN.replace('UNIT["Degree",0.0174532925199433]', 'UNIT["Degree",0.0174532925199433,AUTHORITY["EPSG","9122"]]').replace(
      'SPHEROID["International_1924",6378388.0,297.0]',
      'SPHEROID["International_1924",6378388.0,297.0,AUTHORITY["EPSG","7022"]]',
    );
    expect(withAuthorities).not.toBe(BELGIAN);
    const reading = prjWktForProj4(withAuthorities);
    expect('wkt' in reading && reading.wkt).toContain('AUTHORITY["EPSG","7022"]],TOWGS84[');
    expectAtBrussels(placed(withAuthorities));
  });

  it("keeps a datum shift the file gives, and adds none where the datum's is not known", () => {
    const given = BELGIAN.replace('SPHEROID["International_1924",6378388.0,297.0]', 'SPHEROID["International_1924",6378388.0,297.0],TOWGS84[1,2,3,0,0,0,0]');
    expect(prjWktForProj4(given)).toEqual({ wkt: given });
    const unknown = BELGIAN.replace('D_Belge_1972', 'D_Somewhere_Else');
    expect(prjWktForProj4(unknown)).toEqual({ wkt: unknown });
  });

  it('leaves a .prj that is not WKT to proj4 to refuse', () => {
    expect(prjWktForProj4('+proj=longlat')).toEqual({ wkt: '+proj=longlat' });
  });
});
