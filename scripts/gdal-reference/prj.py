#!/usr/bin/python3
"""The .prj files GDAL writes for common coordinate reference systems, and where GDAL puts
their coordinates.

For each CRS below, GDAL's shapefile driver writes a one-point shapefile (so the .prj is the
ESRI WKT that ogr2ogr and QGIS write); a copy gets the same CRS as OGC WKT 1 instead (with
AUTHORITY nodes, as other writers give it). GDAL opens each again, as ogr2ogr and QGIS do,
and transforms the points to WGS 84 longitude/latitude with the transformation PROJ chooses
for the CRS it read (PROJ may choose per point, and a grid where one is installed: the
versions are recorded). test/fixtures/prj/ gets each .prj and reference.json: per CRS and
dialect the points' coordinates in the file's units and GDAL's longitude/latitude of them.
test/shapefile/prj-corpus.test.ts compares our reading of each .prj with GDAL's.

Run from anywhere: /usr/bin/python3 scripts/gdal-reference/prj.py
Needs python3-gdal.
"""
import json
import os
import shutil
import tempfile

from osgeo import gdal, ogr, osr

osr.UseExceptions()
ogr.UseExceptions()

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', '..', 'test', 'fixtures', 'prj')

# (authority code, longitude/latitude points within its area of use)
CRSS = [
    ('EPSG:28992', [(5.387, 52.156), (4.9, 52.37), (6.57, 53.22), (3.6, 51.45)]),
    ('EPSG:4326', [(5.0, 52.0), (-122.4, 37.8), (151.2, -33.9)]),
    ('EPSG:4258', [(5.0, 52.0), (-3.7, 40.4), (24.9, 60.2)]),
    ('EPSG:3857', [(5.0, 52.0), (-122.4, 37.8), (151.2, -33.9), (0.0, 84.0)]),
    ('EPSG:3395', [(5.0, 52.0), (-122.4, 37.8), (151.2, -33.9)]),
    ('EPSG:25831', [(3.0, 51.0), (5.5, 52.5), (1.0, 45.0)]),
    ('EPSG:25832', [(9.0, 51.0), (11.5, 48.1), (6.5, 54.0)]),
    ('EPSG:32631', [(3.0, 51.0), (5.5, 52.5), (1.0, 10.0)]),
    ('EPSG:32755', [(147.0, -42.0), (145.0, -37.8), (149.0, -20.0)]),
    ('EPSG:31370', [(4.35, 50.85), (3.2, 51.2), (5.8, 49.6)]),
    ('EPSG:3812', [(4.35, 50.85), (3.2, 51.2), (5.8, 49.6)]),
    ('EPSG:2154', [(2.35, 48.85), (-4.5, 48.4), (7.3, 43.7)]),
    ('EPSG:27700', [(-0.13, 51.5), (-3.2, 55.95), (-5.7, 50.1)]),
    ('EPSG:31467', [(9.0, 51.0), (8.7, 50.1), (10.0, 53.55)]),
    ('EPSG:2056', [(7.44, 46.95), (8.54, 47.37), (6.14, 46.2)]),
    ('EPSG:21781', [(7.44, 46.95), (8.54, 47.37), (6.14, 46.2)]),
    ('EPSG:3035', [(10.0, 52.0), (-8.0, 40.0), (25.0, 65.0)]),
    ('EPSG:3034', [(10.0, 52.0), (-8.0, 40.0), (25.0, 65.0)]),
    ('EPSG:3067', [(24.9, 60.2), (27.0, 65.0), (22.3, 60.45)]),
    ('EPSG:3006', [(18.07, 59.33), (11.97, 57.7), (20.2, 67.85)]),
    ('EPSG:2157', [(-6.26, 53.35), (-8.47, 51.9), (-7.3, 55.0)]),
    ('EPSG:5070', [(-96.0, 38.0), (-122.4, 37.8), (-74.0, 40.7)]),
    ('EPSG:2263', [(-74.0, 40.7), (-73.8, 40.9), (-74.2, 40.55)]),
    ('EPSG:3577', [(133.0, -25.0), (151.2, -33.9), (115.9, -31.95)]),
    ('EPSG:2193', [(174.78, -41.29), (172.6, -43.5), (174.76, -36.85)]),
    ('EPSG:6933', [(5.0, 52.0), (-122.4, 37.8), (151.2, -33.9)]),
    ('EPSG:3413', [(-45.0, 75.0), (0.0, 90.0), (-120.0, 70.0), (60.0, 80.0)]),
    ('EPSG:3995', [(0.0, 85.0), (0.0, 90.0), (100.0, 75.0), (-150.0, 70.0)]),
    ('EPSG:3031', [(0.0, -80.0), (0.0, -90.0), (166.7, -77.85), (-60.0, -65.0)]),
    ('EPSG:32661', [(0.0, 85.0), (0.0, 90.0), (100.0, 75.0)]),
    ('EPSG:27572', [(2.35, 48.85), (-1.55, 47.2), (5.37, 43.3)]),
    ('EPSG:4807', [(2.35, 48.85), (-1.55, 47.2)]),
    ('EPSG:23031', [(2.17, 41.39), (3.0, 51.0), (0.5, 39.0)]),
    ('EPSG:31287', [(16.37, 48.21), (11.4, 47.27), (13.04, 47.8)]),
    ('EPSG:5514', [(14.42, 50.09), (16.6, 49.2), (17.1, 48.15)]),
    ('EPSG:2100', [(23.73, 37.98), (22.94, 40.64), (25.13, 35.34)]),
    ('EPSG:3003', [(9.19, 45.46), (11.25, 43.77), (8.93, 44.41)]),
    ('EPSG:2180', [(21.01, 52.23), (19.94, 50.06), (14.55, 53.43)]),
    ('EPSG:26718', [(-74.0, 40.7), (-77.0, 39.0)]),
    ('EPSG:23700', [(19.04, 47.5), (21.63, 47.53)]),
    ('EPSG:28403', [(15.0, 52.0), (17.0, 54.0)]),
    ('EPSG:30169', [(139.69, 35.69), (139.0, 36.0)]),
    ('EPSG:2039', [(34.78, 32.08), (35.21, 31.77)]),
    ('EPSG:3414', [(103.82, 1.35), (103.7, 1.3)]),
    ('EPSG:22234', [(28.05, -26.2), (27.0, -25.0)]),
    ('ESRI:54030', [(5.0, 52.0), (-122.4, 37.8), (151.2, -33.9)]),
    ('ESRI:54009', [(5.0, 52.0), (-122.4, 37.8), (151.2, -33.9)]),
]


def lon_lat_order(srs):
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return srs


def grids():
    """The PROJ grid files installed here: the reference depends on them (DHDN, NTF)."""
    found = set()
    for folder in osr.GetPROJSearchPaths() or []:
        if os.path.isdir(folder):
            found.update(name for name in os.listdir(folder) if name.endswith(('.tif', '.gsb', '.gtx')))
    return found


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    wgs84 = lon_lat_order(osr.SpatialReference())
    wgs84.ImportFromEPSG(4326)
    reference = []
    work = tempfile.mkdtemp()
    for code, points in CRSS:
        name = code.replace(':', '_')
        crs = lon_lat_order(osr.SpatialReference())
        crs.SetFromUserInput(code)
        to_crs = osr.CoordinateTransformation(wgs84, crs)
        coordinates = [to_crs.TransformPoint(lon, lat)[:2] for lon, lat in points]

        path = os.path.join(work, f'{name}.shp')
        source = ogr.GetDriverByName('ESRI Shapefile').CreateDataSource(path)
        layer = source.CreateLayer(name, crs, ogr.wkbPoint)
        for x, y in coordinates:
            feature = ogr.Feature(layer.GetLayerDefn())
            feature.SetGeometry(ogr.CreateGeometryFromWkt(f'POINT ({x!r} {y!r})'))
            layer.CreateFeature(feature)
        source = None

        for dialect, prj_name in (('esri', f'{name}.prj'), ('ogc', f'{name}.ogc.prj')):
            if dialect == 'ogc':
                for extension in ('shp', 'shx', 'dbf'):
                    shutil.copy(os.path.join(work, f'{name}.{extension}'), os.path.join(work, f'{name}_ogc.{extension}'))
                with open(os.path.join(work, f'{name}_ogc.prj'), 'w', encoding='utf-8') as prj:
                    prj.write(crs.ExportToWkt(['FORMAT=WKT1']))
                path = os.path.join(work, f'{name}_ogc.shp')
            opened = ogr.Open(path)
            read = lon_lat_order(opened.GetLayer().GetSpatialRef().Clone())
            to_wgs84 = osr.CoordinateTransformation(read, wgs84)
            with open(path[:-4] + '.prj', encoding='utf-8') as prj:
                prj_text = prj.read()
            assert prj_text.startswith(('PROJCS[', 'GEOGCS[')), prj_text[:40]
            shutil.copy(path[:-4] + '.prj', os.path.join(OUT, prj_name))
            reference.append({
                'crs': code,
                'dialect': dialect,
                'name': read.GetName(),
                'prj': prj_name,
                'points': [
                    {'x': x, 'y': y, 'lon': lon_lat[0], 'lat': lon_lat[1]}
                    for (x, y), lon_lat in ((xy, to_wgs84.TransformPoint(*xy)) for xy in coordinates)
                ],
            })
            opened = None
    shutil.rmtree(work)
    proj = '.'.join(str(osr.GetPROJVersionMajor() if i == 0 else osr.GetPROJVersionMinor() if i == 1 else osr.GetPROJVersionMicro()) for i in range(3))
    with open(os.path.join(OUT, 'reference.json'), 'w', encoding='utf-8') as out:
        json.dump({'gdal': gdal.__version__, 'proj': proj, 'projGrids': sorted(grids()), 'crss': reference}, out, indent=1)
        out.write('\n')


main()
