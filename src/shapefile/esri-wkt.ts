/**
 * What proj4js misreads in the ESRI WKT of `.prj` files, put right before it reads them.
 * Found by comparing its reading of the `.prj` files GDAL writes with GDAL's reading
 * (test/fixtures/prj, scripts/gdal-reference/prj.py):
 * - ESRI's WKT names a datum but leaves out its shift to WGS 84, which PROJ looks up in the
 *   EPSG database: BD72 (Belgian Lambert 72) landed 190 m from where GDAL puts it, ED50
 *   170 m, GGRS87 330 m. DATUM_SHIFTS holds the Helmert transformation PROJ uses for each.
 * - Stereographic_North_Pole is read as an oblique stereographic (EPSG:3413, the NSIDC's
 *   Arctic grid, 2,000 km off); its twin Stereographic_South_Pole is read right.
 * - Angles in grads (NTF Paris / Lambert zone II, EPSG:27572: 580 km off) are read as degrees.
 */

/**
 * +towgs84 (position-vector convention) of the transformation PROJ chooses first from each
 * datum to WGS 84 where it needs no grid, by the datum's ESRI name. Where PROJ prefers a grid
 * (DHDN, NTF) this is its best Helmert fallback, within a few metres of the grid.
 */
const DATUM_SHIFTS: Readonly<Record<string, string>> = {
  // EPSG:15929, BD72 to WGS 84 (3)
  D_Belge_1972: '-106.8686,52.2978,-103.7239,0.3366,-0.457,1.8422,-1.2747',
  // EPSG:1777, DHDN to WGS 84 (2)
  D_Deutsches_Hauptdreiecksnetz: '598.1,73.7,418.2,0.202,0.045,-2.455,6.7',
  // EPSG:1133, ED50 to WGS 84 (1)
  D_European_1950: '-87,-98,-121,0,0,0,0',
  // EPSG:1272, GGRS87 to WGS 84 (1)
  D_GGRS_1987: '-199.87,74.79,246.62,0,0,0,0',
  // EPSG:1660, Monte Mario to WGS 84 (4)
  D_Monte_Mario: '-104.1,-49.1,-9.9,0.971,-2.917,0.714,-11.68',
  // EPSG:1193, NTF to WGS 84 (1)
  D_NTF: '-168,-60,320,0,0,0,0',
  // EPSG:5239, S-JTSK to WGS 84 (5)
  D_S_JTSK: '572.213,85.334,461.94,4.9732,1.529,5.2484,3.5378',
};

const RADIANS_PER_DEGREE = Math.PI / 180;

/** `wkt` as proj4js reads the CRS GDAL reads from it (unchanged when nothing above applies). */
export function esriWktForProj4(wkt: string): string {
  return inDegrees(withDatumShift(wkt)).replace(/PROJECTION\s*\[\s*"Stereographic_North_Pole"/i, 'PROJECTION["Stereographic_South_Pole"');
}

/** The datum's TOWGS84 added where the WKT names a datum of DATUM_SHIFTS and gives none. */
function withDatumShift(wkt: string): string {
  if (/TOWGS84/i.test(wkt)) return wkt;
  return wkt.replace(/(DATUM\s*\[\s*"([^"]+)"\s*,\s*SPHEROID\s*\[[^\]]*\])/i, (datum: string, _whole: string, name: string) => {
    const shift = DATUM_SHIFTS[name];
    return shift ? `${datum},TOWGS84[${shift}]` : datum;
  });
}

/**
 * Angles in degrees where the geographic CRS's unit is another (grads): ESRI's WKT gives the
 * projection's angular parameters in that unit (its prime meridian in degrees all the same);
 * proj4js takes them as degrees whatever the unit says.
 */
function inDegrees(wkt: string): string {
  const unit = /GEOGCS\s*\[.*?UNIT\s*\[\s*"([^"]*)"\s*,\s*([-+0-9.eE]+)\s*\]/is.exec(wkt);
  if (!unit) return wkt;
  const degreesPerUnit = Number(unit[2]) / RADIANS_PER_DEGREE;
  if (!Number.isFinite(degreesPerUnit) || degreesPerUnit <= 0 || Math.abs(degreesPerUnit - 1) < 1e-9) return wkt;
  const toDegrees = (value: string) => String(Number(value) * degreesPerUnit);
  return wkt
    .replace(unit[0], unit[0].replace(/UNIT\s*\[[^\]]*\]$/i, `UNIT["Degree",${RADIANS_PER_DEGREE}]`))
    .replace(
      /(PARAMETER\s*\[\s*"[^"]*(?:Meridian|Parallel|Latitude|Longitude|Azimuth)[^"]*"\s*,\s*)([-+0-9.eE]+)/gi,
      (_, head: string, value: string) => head + toDegrees(value),
    );
}
