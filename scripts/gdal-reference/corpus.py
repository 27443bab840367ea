#!/usr/bin/python3
"""Shapefiles from other writers than ours, and what GDAL makes of them.

Our own writer (scripts/lib/shapefile-writer.ts) cannot reveal a misreading it shares with
our reader, so this script writes a small corpus into test/fixtures/gdal/ with:
- GDAL's ogr2ogr, from CSV sources with a WKT column that it generates (every shape type,
  Z with and without M, M, MultiPatch, encodings, attribute types), and GDAL itself in
  update mode (a deleted row, a record rewritten at the end of the file);
- pyshp, with raw parts, so that a file holds exactly the winding and structure intended
  (checked by reading the bytes back);
- byte edits and a few records built byte by byte here, for damage and for what neither
  writer will produce (mixed shape types, bad part starts, counts that do not fit).

Then it reads every file with the GDAL installed here (python3-gdal, the library ogrinfo
and QGIS use) and writes test/fixtures/gdal/reference.json: per file whether GDAL opens
it, its layer's geometry type, extent and feature count, and per feature whether GDAL
gives a feature at all, its geometry as children (docs/decisions.md, "Feature ids": the
polygons of GDAL's multipolygon, the parts of a line, the points of a multipoint), each
with its rings or coordinates (x, y), its bounding box, its attributes (from ogr2ogr's
GeoJSON output) and the errors GDAL reported while reading it.

Geometry comes from the OGR geometry objects themselves, not from a writer's output: no
GeoJSON writer option can re-orient or reorder a ring on the way.

For every child of the wrongly wound polygon fixtures it also writes a mask,
test/fixtures/gdal/masks/<file>-<fid>.<child>.png: GDAL's geometry of that child
rasterized (pixel centres inside, 1 bit a pixel) on exactly the pixel grid of our image
of that child (src/projection/fit.ts: the child's extent scaled uniformly to fit the image
less `buffer` pixels on every side, centred, y flipped).

Deterministic: every .dbf's "last update" date is set to 2000-01-01.

Run from anywhere: /usr/bin/python3 scripts/gdal-reference/corpus.py
Needs pyshp (`import shapefile`), python3-gdal and GDAL's ogr2ogr.
"""
import csv
import json
import math
import os
import shutil
import struct
import subprocess
import tempfile

import shapefile
from osgeo import gdal, ogr

gdal.DontUseExceptions()
ogr.DontUseExceptions()
gdal.SetConfigOption('GDAL_PAM_ENABLED', 'NO')

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
OUT = os.path.join(ROOT, 'test', 'fixtures', 'gdal')
MASKS = os.path.join(OUT, 'masks')
IMAGE = {'width': 200, 'height': 200, 'buffer': 10}
DBF_DATE = bytes([100, 1, 1])  # 2000-01-01: year since 1900, month, day

NULL, POINT, POLYLINE, POLYGON, MULTIPOINT = 0, 1, 3, 5, 8
POINTZ, POLYLINEZ, POLYGONZ, MULTIPOINTZ = 11, 13, 15, 18
POINTM, POLYLINEM, POLYGONM, MULTIPOINTM = 21, 23, 25, 28

FIXTURES = {}  # name -> {'writer', 'about', and optional reading options}


def register(name, writer, about, **options):
    FIXTURES[name] = {'writer': writer, 'about': about, **options}


def path(name, ext):
    return os.path.join(OUT, f'{name}.{ext}')


# --------------------------------------------------------------------------- geometry


def box(x0, y0, x1, y1, cw=True):
    """A closed axis-aligned rectangle; clockwise (y up) is ESRI's outer ring."""
    ring = [(x0, y0), (x0, y1), (x1, y1), (x1, y0), (x0, y0)]
    return ring if cw else ring[::-1]


def z_at(z, point):
    """A z (or m) that varies along a ring yet is the same at equal vertices: GDAL closes rings in 3-D."""
    return z + (point[0] - 1000) / 10 + (point[1] - 2000) / 100


def ngon(cx, cy, radius, n, cw=True):
    """A closed regular n-gon, its edges at no multiple of 45°, so that they cross pixels obliquely."""
    angles = [0.3 + 2 * math.pi * k / n for k in range(n)]
    ring = [(round(cx + radius * math.cos(a), 3), round(cy + radius * math.sin(a), 3)) for a in angles]
    ring = ring[::-1] if cw else ring
    return ring + [ring[0]]


def wkt_ring(ring, z=None, m=None):
    def vertex(point):
        values = [point[0], point[1]] + [z_at(v, point) for v in (z, m) if v is not None]
        return ' '.join(repr(float(v)) for v in values)
    return '(' + ','.join(vertex(p) for p in ring) + ')'


def dims(z, m):
    return ' ZM' if z is not None and m is not None else ' Z' if z is not None else ' M' if m is not None else ''


def wkt_polygon(rings, z=None, m=None):
    return 'POLYGON' + dims(z, m) + ' (' + ','.join(wkt_ring(r, z, m) for r in rings) + ')'


def wkt_multipolygon(polygons, z=None, m=None):
    return 'MULTIPOLYGON' + dims(z, m) + ' (' + ','.join(
        '(' + ','.join(wkt_ring(r, z, m) for r in rings) + ')' for rings in polygons) + ')'


def wkt_line(points, z=None, m=None):
    return 'LINESTRING' + dims(z, m) + ' ' + wkt_ring(points, z, m)


def wkt_multiline(lines, z=None, m=None):
    return 'MULTILINESTRING' + dims(z, m) + ' (' + ','.join(wkt_ring(l, z, m) for l in lines) + ')'


def wkt_point(point, z=None, m=None):
    return 'POINT' + dims(z, m) + ' ' + wkt_ring([point], z, m)


def wkt_multipoint(points, z=None, m=None):
    return 'MULTIPOINT' + dims(z, m) + ' (' + ','.join(wkt_ring([p], z, m) for p in points) + ')'


# Shapes shared by the ogr2ogr and pyshp fixtures, in ESRI's winding.
SQUARE = box(1000, 2000, 1100, 2100)
HOLED = [box(1000, 2000, 1200, 2200), box(1050, 2050, 1150, 2150, cw=False)]
# A lake with an island in it (a polygon of its own), and a second polygon beside it.
ISLANDS = [[box(1000, 2000, 1300, 2300), box(1050, 2050, 1250, 2250, cw=False)],
           [box(1100, 2100, 1200, 2200)],
           [box(1400, 2000, 1500, 2100)]]
LINE = [(1000, 2000), (1050, 2080), (1100, 2000)]
LINES = [[(1000, 2000), (1100, 2000)], [(1000, 2050), (1100, 2050), (1100, 2100)], [(1200, 2000), (1250, 2050)]]
POINTS = [(1000, 2000), (1012.5, 2034.75)]
MULTIPOINTS = [[(1000, 2000), (1010, 2020), (1030, 2005)], [(1100, 2100)]]

# --------------------------------------------------------------------------- ogr2ogr


def ogr2ogr_fixture(name, shpt, geometries, about, fields=None, rows=None, encoding=None):
    """Writes `name` with ogr2ogr from a CSV whose WKT column holds `geometries` ('' is null)."""
    fields = fields or [('NAME', 'String(24)')]
    rows = rows or [[f'{name} {i}'] for i in range(len(geometries))]
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, 'source.csv')
        with open(source, 'w', newline='', encoding='utf-8') as f:
            writer = csv.writer(f)
            writer.writerow(['WKT'] + [field for field, _ in fields])
            for geometry, row in zip(geometries, rows):
                writer.writerow([geometry] + ['' if v is None else v for v in row])
        with open(os.path.join(tmp, 'source.csvt'), 'w') as f:
            f.write(','.join(['"WKT"'] + [f'"{kind}"' for _, kind in fields]))
        command = ['ogr2ogr', '-f', 'ESRI Shapefile', path(name, 'shp'), source, '-nln', name,
                   '-oo', 'KEEP_GEOM_COLUMNS=NO', '-lco', f'SHPT={shpt}', '-lco', 'DBF_DATE_LAST_UPDATE=2000-01-01']
        if encoding:
            command += ['-lco', f'ENCODING={encoding}']
        subprocess.run(command, check=True)
    register(name, 'ogr2ogr', about)


def write_ogr2ogr_fixtures():
    for suffix, shpt, z, m, about in [
        ('', None, None, None, '2-D'),
        ('z', 'Z', 10, None, 'Z without M (GDAL writes no M block when the source has no M)'),
        ('zm', 'ZM', 10, 100, 'Z with M'),
        ('m', 'M', None, 100, 'M'),
    ]:
        kind = shpt or ''
        ogr2ogr_fixture(f'ogr_point{suffix}', f'POINT{kind}',
                        [wkt_point(POINTS[0], z, m), '', wkt_point(POINTS[1], z, m)], f'Point, {about}; a null shape')
        ogr2ogr_fixture(f'ogr_multipoint{suffix}', f'MULTIPOINT{kind}',
                        [wkt_multipoint(MULTIPOINTS[0], z, m), '', wkt_multipoint(MULTIPOINTS[1], z, m)],
                        f'MultiPoint, {about}; a null shape')
        ogr2ogr_fixture(f'ogr_line{suffix}', f'ARC{kind}',
                        [wkt_line(LINE, z, m), '', wkt_multiline(LINES, z, m)], f'PolyLine, {about}; a null shape')
        ogr2ogr_fixture(f'ogr_polygon{suffix}', f'POLYGON{kind}',
                        [wkt_polygon([SQUARE], z, m), wkt_polygon(HOLED, z, m), '', wkt_multipolygon(ISLANDS, z, m)],
                        f'Polygon, {about}: a square, a square with a hole, a null shape, '
                        'a lake with an island and a second polygon')
    ogr2ogr_fixture('multipatch', 'MULTIPATCH',
                    ['TIN Z (((1000 2000 0,1000 2100 5,1100 2000 5,1000 2000 0)),'
                     '((1000 2100 5,1100 2100 0,1100 2000 5,1000 2100 5)))'],
                    'MultiPatch (a TIN of two triangles)')
    ogr2ogr_fixture(
        'ogr_attrs', 'POINT', [wkt_point(POINTS[0]), wkt_point(POINTS[1]), wkt_point(POINTS[0])],
        'Attribute types as ogr2ogr writes them: String, Integer, Integer64, Real, Date, '
        'Boolean (which GDAL 3.6 writes as N(1)); a row of nulls',
        fields=[('NAME', 'String(20)'), ('COUNT', 'Integer(9)'), ('BIG', 'Integer64(18)'), ('RATIO', 'Real(12.4)'),
                ('WHEN', 'Date'), ('FLAG', 'Integer(Boolean)')],
        rows=[['first', 42, 123456789012345, 3.25, '2021-03-04', 1],
              ['second', -7, -9876543210, -0.0625, '1999-12-31', 0],
              [None, None, None, None, None, None]])
    texts = ['Zürich', 'café crème', 'Straße', 'Ærø']
    for name, encoding, extra, about in [
        ('enc_utf8', 'UTF-8', ['Москва', '東京'], '.cpg "UTF-8"'),
        ('enc_cp1252', 'CP1252', ['€ 5'], '.cpg "CP1252"'),
        ('enc_iso8859_1', 'ISO-8859-1', [], '.cpg "ISO-8859-1"'),
        ('enc_ldid87', None, [], 'no .cpg, LDID 87 (ogr2ogr\'s default)'),
    ]:
        values = texts + extra
        ogr2ogr_fixture(name, 'POINT', [wkt_point((1000 + i, 2000)) for i in range(len(values))],
                        f'Text written by ogr2ogr with {about}', rows=[[v] for v in values], encoding=encoding)


# --------------------------------------------------------------------------- pyshp


def pyshp_fixture(name, shape_type, records, about, fields=(('NAME', 'C', 24, 0),), encoding='utf-8', cpg=None,
                  ldid=None):
    """records: (shapefile.Shape or None, [values]) each; the parts go into the file as given."""
    writer = shapefile.Writer(os.path.join(OUT, name), shapeType=shape_type, encoding=encoding)
    for field in fields:
        writer.field(*field)
    for shape, values in records:
        if shape is None:
            writer.null()
        else:
            writer.shape(shape)
        writer.record(*values)
    writer.close()
    if ldid is not None:
        edit(path(name, 'dbf'), lambda b: b[:29] + bytes([ldid]) + b[30:])
    if cpg is not None:
        with open(path(name, 'cpg'), 'w') as f:
            f.write(cpg)
    register(name, 'pyshp', about)
    check_pyshp_bytes(name, records)


def shape(shape_type, parts, z=None, m=None):
    """A pyshp Shape whose parts are exactly `parts` (lists of (x, y)), with z/m per vertex when given."""
    points, starts = [], []
    for part in parts:
        starts.append(len(points))
        points.extend([list(p) for p in part])
    return raw_shape(shape_type, points, starts, z, m)


def raw_shape(shape_type, points, starts, z=None, m=None):
    """A pyshp Shape with arbitrary part starts (which may be wrong on purpose)."""
    s = shapefile.Shape(shapeType=shape_type)
    s.points = [list(p) for p in points]
    s.parts = list(starts)
    if z is not None:
        s.z = [z_at(z, p) for p in points]
    if m is not None:
        s.m = [z_at(m, p) for p in points]
    return s


def named(name, shapes):
    return [(s, [f'{name} {i}']) for i, s in enumerate(shapes)]


def write_pyshp_fixtures():
    for suffix, z, m, about in [('', None, None, '2-D'), ('z', 10, 100, 'Z (pyshp always writes the M block)'),
                                ('m', None, 100, 'M')]:
        offset = {'': 0, 'z': 10, 'm': 20}[suffix]
        t = lambda base: base + offset
        pyshp_fixture(f'pyshp_point{suffix}', t(POINT), named(f'pyshp_point{suffix}', [
            shape(t(POINT), [[POINTS[0]]], z, m), None, shape(t(POINT), [[POINTS[1]]], z, m)]),
            f'Point, {about}; a null shape')
        pyshp_fixture(f'pyshp_multipoint{suffix}', t(MULTIPOINT), named(f'pyshp_multipoint{suffix}', [
            shape(t(MULTIPOINT), [MULTIPOINTS[0]], z, m), None, shape(t(MULTIPOINT), [MULTIPOINTS[1]], z, m)]),
            f'MultiPoint, {about}; a null shape')
        pyshp_fixture(f'pyshp_line{suffix}', t(POLYLINE), named(f'pyshp_line{suffix}', [
            shape(t(POLYLINE), [LINE], z, m), None, shape(t(POLYLINE), LINES, z, m)]),
            f'PolyLine, {about}; a null shape')
        pyshp_fixture(f'pyshp_polygon{suffix}', t(POLYGON), named(f'pyshp_polygon{suffix}', [
            shape(t(POLYGON), [SQUARE], z, m), shape(t(POLYGON), HOLED, z, m), None,
            shape(t(POLYGON), [ring for polygon in ISLANDS for ring in polygon], z, m),
            shape(t(POLYGON), [box(1000, 2000, 1100, 2100, cw=False), box(1020, 2020, 1080, 2080)], z, m)]),
            f'Polygon, {about}: a square, a square with a hole, a null shape, a lake with an island and '
            'a second polygon, a square and its hole both wound the wrong way')

    a, hole_a = ngon(1150, 2100, 140, 7), ngon(1150, 2100, 50, 5, cw=False)
    b = ngon(1450, 2050, 50, 6)
    big, lake, island = ngon(1200, 2200, 200, 9), ngon(1200, 2200, 150, 8, cw=False), ngon(1200, 2200, 90, 7)
    islet1, islet2 = ngon(1150, 2150, 30, 5), ngon(1250, 2250, 30, 6)
    rev = lambda ring: ring[::-1]
    wrong = [
        ('one ring, counter-clockwise', [rev(a)]),
        ('outer counter-clockwise, hole clockwise', [rev(a), rev(hole_a)]),
        ('outer and hole both clockwise', [a, rev(hole_a)]),
        ('outer and hole both counter-clockwise', [rev(a), hole_a]),
        ('two disjoint outers, the second counter-clockwise', [a, rev(b)]),
        ('lake with an island, all clockwise', [big, rev(lake), island]),
        ('lake with an island, all counter-clockwise', [rev(big), lake, rev(island)]),
        ('hole written before its outer ring, both inverted', [rev(hole_a), rev(a)]),
        ('lake with two islands, every winding inverted', [rev(big), rev(lake), rev(islet1), rev(islet2)]),
    ]
    pyshp_fixture('wound_wrong', POLYGON, [(shape(POLYGON, rings), [label]) for label, rings in wrong],
                  'Polygons whose rings are wound the wrong way (ESRI: outer rings clockwise, holes counter-clockwise)',
                  fields=(('NAME', 'C', 60, 0),))
    FIXTURES['wound_wrong']['masks'] = True
    a, hole_a = box(1000, 2000, 1300, 2200), box(1100, 2050, 1200, 2150, cw=False)
    b = box(1400, 2000, 1500, 2100)
    big, lake, island = box(1000, 2000, 1400, 2400), box(1050, 2050, 1350, 2350, cw=False), box(1100, 2100, 1300, 2300)
    right = [
        ('one ring', [a]),
        ('outer and hole', [a, hole_a]),
        ('hole written before its outer ring', [hole_a, a]),
        ('lake with an island', [big, lake, island]),
        ('two outers, holes interleaved', [a, b, hole_a, box(1420, 2020, 1480, 2080, cw=False)]),
    ]
    pyshp_fixture('wound_right', POLYGON, [(shape(POLYGON, rings), [label]) for label, rings in right],
                  'Polygons wound as ESRI says, for comparison', fields=(('NAME', 'C', 60, 0),))

    pyshp_fixture('attrs_pyshp', POINT, [
        (shape(POINT, [[POINTS[0]]]), ['alpha', 42, 3.125, 1.5e-3, True, '20210304']),
        (shape(POINT, [[POINTS[1]]]), ['  padded  ', -7, -0.5, -12345.6789, False, '19991231']),
        (shape(POINT, [[POINTS[0]]]), [None, None, None, None, None, None]),
    ], 'Attribute types as pyshp writes them: C, N, N with decimals, F, L, D; a row of nulls',
        fields=(('NAME', 'C', 20, 0), ('COUNT', 'N', 10, 0), ('AMOUNT', 'N', 12, 3), ('RATE', 'F', 14, 5),
                ('FLAG', 'L', 1, 0), ('WHEN', 'D', 8, 0)))
    for name, encoding, cpg, ldid, values, about in [
        ('enc_ansi1252', 'cp1252', 'ANSI 1252', None, ['café crème', '€ 5', 'Straße'], '.cpg "ANSI 1252"'),
        ('enc_88591', 'latin-1', '88591', None, ['café crème', 'Ærø'], '.cpg "88591"'),
        ('enc_ldid87_euro', 'cp1252', None, 0x57, ['café crème', '€ 5', '“quoted”'],
         'no .cpg, LDID 87, bytes written as windows-1252 (0x80 and 0x93/0x94 included)'),
        ('enc_ldid_cp866', 'cp866', None, 0x65, ['Москва', 'Київ'], 'no .cpg, LDID 101 (code page 866)'),
    ]:
        pyshp_fixture(name, POINT, [(shape(POINT, [[(1000 + i, 2000)]]), [v]) for i, v in enumerate(values)],
                      f'Text written by pyshp as {encoding}, with {about}', encoding=encoding, cpg=cpg, ldid=ldid)


def check_pyshp_bytes(name, records):
    """The file holds exactly the parts and vertices given: pyshp neither rewound nor reordered them."""
    written = read_records(name)
    assert len(written) == len(records), name
    for (intended, _), (shape_type, starts, xy) in zip(records, written):
        if intended is None:
            assert shape_type == NULL, name
            continue
        assert shape_type == intended.shapeType, name
        assert xy == [tuple(map(float, p[:2])) for p in intended.points], name
        if shape_type % 10 in (POLYLINE, POLYGON):
            assert starts == list(intended.parts), name


def read_records(name):
    """(shape type, part starts, [(x, y)]) of every record, located by the .shx."""
    with open(path(name, 'shp'), 'rb') as f:
        shp = f.read()
    with open(path(name, 'shx'), 'rb') as f:
        shx = f.read()
    records = []
    for i in range((len(shx) - 100) // 8):
        offset, _ = struct.unpack_from('>ii', shx, 100 + 8 * i)
        at = offset * 2 + 8
        shape_type, = struct.unpack_from('<i', shp, at)
        base = shape_type % 10
        if shape_type == NULL:
            records.append((NULL, [], []))
        elif base == POINT:
            records.append((shape_type, [0], [struct.unpack_from('<2d', shp, at + 4)]))
        elif base == MULTIPOINT:
            count, = struct.unpack_from('<i', shp, at + 36)
            records.append((shape_type, [], [struct.unpack_from('<2d', shp, at + 40 + 16 * k) for k in range(count)]))
        else:
            parts, points = struct.unpack_from('<2i', shp, at + 36)
            starts = list(struct.unpack_from(f'<{parts}i', shp, at + 44))
            first = at + 44 + 4 * parts
            xy = [struct.unpack_from('<2d', shp, first + 16 * k) for k in range(points)]
            records.append((shape_type, starts, xy))
    return records


# --------------------------------------------------------------------------- bytes


def edit(file, change):
    with open(file, 'rb') as f:
        data = f.read()
    with open(file, 'wb') as f:
        f.write(change(data))


def put(data, offset, fmt, *values):
    out = bytearray(data)
    struct.pack_into(fmt, out, offset, *values)
    return bytes(out)


def shx_entry(name, i):
    """(offset, content length) of record i, in bytes, as the .shx lists it."""
    with open(path(name, 'shx'), 'rb') as f:
        f.seek(100 + 8 * i)
        offset, length = struct.unpack('>ii', f.read(8))
    return offset * 2, length * 2


def set_shx_entry(name, i, offset=None, length=None):
    old_offset, old_length = shx_entry(name, i)
    edit(path(name, 'shx'), lambda b: put(b, 100 + 8 * i, '>ii', (old_offset if offset is None else offset) // 2,
                                          (old_length if length is None else length) // 2))


def copy_fixture(source, name, about, writer=None, extensions=('shp', 'shx', 'dbf', 'cpg', 'prj')):
    for ext in extensions:
        if os.path.exists(path(source, ext)):
            shutil.copyfile(path(source, ext), path(name, ext))
    register(name, writer or FIXTURES[source]['writer'] + ' + byte edits', about)


def poly_content(shape_type, starts, xy, z=None, m=None, counts=None):
    """A PolyLine/Polygon(Z/M) record's content; `counts` overrides the (parts, points) it states."""
    parts, points = counts or (len(starts), len(xy))
    content = struct.pack('<i4d2i', shape_type, *bbox_of(xy), parts, points)
    content += struct.pack(f'<{len(starts)}i', *starts)
    content += b''.join(struct.pack('<2d', x, y) for x, y in xy)
    for values in (z, m):
        if values is not None:
            content += struct.pack(f'<2d{len(values)}d', min(values), max(values), *values)
    return content


def multipoint_content(shape_type, xy, z=None, counts=None):
    content = struct.pack('<i4di', shape_type, *bbox_of(xy), len(xy) if counts is None else counts)
    content += b''.join(struct.pack('<2d', x, y) for x, y in xy)
    if z is not None:
        content += struct.pack(f'<2d{len(z)}d', min(z), max(z), *z)
    return content


def point_content(shape_type, x, y, *more):
    return struct.pack(f'<i2d{len(more)}d', shape_type, x, y, *more)


def bbox_of(xy):
    finite = [p for p in xy if all(math.isfinite(v) for v in p)]
    if not finite:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(p[0] for p in finite), min(p[1] for p in finite), max(p[0] for p in finite), max(p[1] for p in finite))


def raw_fixture(name, shape_type, records, about, shx_type=None):
    """`records`: (content bytes, [(x, y)] for the header box) each; a .dbf with NAME, no .cpg."""
    xy = [p for _, points in records for p in points]
    def header(length):
        return struct.pack('>i20xi', 9994, length // 2) + struct.pack('<2i4d32x', 1000, shape_type, *bbox_of(xy))
    body, entries, offset = b'', b'', 100
    for content, _ in records:
        body += struct.pack('>2i', len(entries) // 8 + 1, len(content) // 2) + content
        entries += struct.pack('>2i', offset // 2, len(content) // 2)
        offset += 8 + len(content)
    with open(path(name, 'shp'), 'wb') as f:
        f.write(header(100 + len(body)) + body)
    with open(path(name, 'shx'), 'wb') as f:
        f.write(put(header(100 + len(entries)), 32, '<i', shx_type or shape_type) + entries)
    write_dbf(name, [[f'{name} {i}'] for i in range(len(records))])
    register(name, 'bytes (this script)', about)


def write_dbf(name, rows, fields=(('NAME', 24),)):
    """A dBASE III file of C fields, LDID 0; `fields` may be empty."""
    row_bytes = 1 + sum(size for _, size in fields)
    head = struct.pack('<B3sIHH20x', 3, DBF_DATE, len(rows), 33 + 32 * len(fields), row_bytes)
    for field, size in fields:
        head += struct.pack('<11sc4xBB14x', field.encode('ascii'), b'C', size, 0)
    encode = lambda row: b' ' + b''.join(str(v).encode('ascii').ljust(size) for v, (_, size) in zip(row, fields))
    body = b''.join(encode(row) for row in rows)
    with open(path(name, 'dbf'), 'wb') as f:
        f.write(head + b'\r' + body + b'\x1a')


def line_records(count, x0=1000):
    return [shape(POLYLINE, [line_at(x0 + 10 * i)]) for i in range(count)]


def line_at(x):
    return [(x, 2000), (x, 2010), (x + 5, 2020)]


def write_damaged_fixtures():
    pyshp_fixture('lines4', POLYLINE, named('lines4', line_records(4)),
                  'Four lines, the base of the damaged copies below')

    copy_fixture('lines4', 'dmg_truncated', 'The .shp cut 10 bytes short: the last record runs past the end')
    edit(path('dmg_truncated', 'shp'), lambda b: b[:-10])

    copy_fixture('lines4', 'shx_len_longer', 'The .shx lists record 1 with 16 bytes more than the .shp record says, '
                 'and the last record with 8 bytes more (a writer counting the record header in)')
    set_shx_entry('shx_len_longer', 1, length=shx_entry('lines4', 1)[1] + 16)
    set_shx_entry('shx_len_longer', 3, length=shx_entry('lines4', 3)[1] + 8)

    copy_fixture('lines4', 'shx_len_past_end', 'The .shx lists the last record with 16 bytes more than the file holds')
    set_shx_entry('shx_len_past_end', 3, length=shx_entry('lines4', 3)[1] + 16)

    copy_fixture('lines4', 'shx_len_plus8_mismatch', 'The .shx lists the last record with 8 bytes more than the .shp '
                 'record says, and that record\'s own header says 8 bytes less still')
    set_shx_entry('shx_len_plus8_mismatch', 3, length=shx_entry('lines4', 3)[1] + 8)
    last = shx_entry('lines4', 3)
    edit(path('shx_len_plus8_mismatch', 'shp'), lambda b: put(b, last[0] + 4, '>i', (last[1] - 8) // 2))

    copy_fixture('lines4', 'shx_len_shorter', 'The .shx lists record 2 with 16 bytes less than the .shp record says, '
                 'too short for its points')
    set_shx_entry('shx_len_shorter', 2, length=shx_entry('lines4', 2)[1] - 16)

    pyshp_fixture('linesz4', POLYLINEZ, named('linesz4', [shape(POLYLINEZ, [line_at(1000 + 10 * i)], 10, 100)
                                                          for i in range(4)]),
                  'Four PolyLineZ records with M, the base of the copy below')
    copy_fixture('linesz4', 'shx_len_z', 'PolyLineZ: the .shx lists record 0 without its M block (GDAL reads it '
                 'without M), record 1 without its Z block, record 2 too short for its points')
    z_only = 44 + 4 + 16 * 3 + 16 + 8 * 3
    set_shx_entry('shx_len_z', 0, length=z_only)
    set_shx_entry('shx_len_z', 1, length=44 + 4 + 16 * 3)
    set_shx_entry('shx_len_z', 2, length=44 + 4 + 16 * 2)

    copy_fixture('lines4', 'shx_past_end', 'The .shx points record 1 past the end of the .shp')
    set_shx_entry('shx_past_end', 1, offset=1_000_000)

    copy_fixture('lines4', 'shx_offset_zero', 'The .shx points record 1 at byte 0, the file header')
    set_shx_entry('shx_offset_zero', 1, offset=0)

    copy_fixture('lines4', 'shx_count_trailing', 'The .shx header\'s file length counts 2 records; it holds 4 entries')
    edit(path('shx_count_trailing', 'shx'), lambda b: put(b, 24, '>i', (100 + 16) // 2))

    copy_fixture('lines4', 'shx_count_short', 'The .shx header\'s file length counts 5 records; it holds 4 entries')
    edit(path('shx_count_short', 'shx'), lambda b: put(b, 24, '>i', (100 + 40) // 2))

    copy_fixture('lines4', 'shx_bbox', 'The .shx header\'s bounding box differs from the .shp header\'s')
    edit(path('shx_bbox', 'shx'), lambda b: put(b, 36, '<4d', 900.0, 1900.0, 1200.0, 2100.0))

    copy_fixture('lines4', 'no_shx', 'No .shx: GDAL 3.6 refuses unless SHAPE_RESTORE_SHX=YES',
                 extensions=('shp', 'dbf'))
    FIXTURES['no_shx']['restore_shx'] = True

    copy_fixture('lines4', 'no_dbf', 'No .dbf: geometry only', extensions=('shp', 'shx'))

    copy_fixture('lines4', 'dbf_short', 'The .dbf has 2 rows for 4 records')
    edit(path('dbf_short', 'dbf'), lambda b: put(b, 4, '<I', 2))

    raw_fixture('dbf_no_fields', POLYLINE, [(poly_content(POLYLINE, [0], line), line) for line in (LINE, LINE)],
                'A .dbf with no fields at all (33-byte header, 1-byte rows)')
    write_dbf('dbf_no_fields', [[], []], fields=())

    pts = [(1000, 2000), (1010, 2010), (1020, 2000), (1030, 2010), (1040, 2000), (1050, 2010)]
    pyshp_fixture('part_starts_line', POLYLINE, named('part_starts_line', [
        raw_shape(POLYLINE, pts, [0, 0, 3]),
        raw_shape(POLYLINE, pts, [0, 6]),
        raw_shape(POLYLINE, pts, [0, 4, 2]),
        raw_shape(POLYLINE, pts, [2]),
        raw_shape(POLYLINE, pts, [1, 3]),
        raw_shape(POLYLINE, pts, [0, -1]),
        raw_shape(POLYLINE, pts, [0, 3]),
    ]), 'PolyLine part starts: equal; at the vertex count; decreasing; first at 2; first at 1; negative; fine')
    ring, inner = box(1000, 2000, 1100, 2100), box(1020, 2020, 1080, 2080, cw=False)
    junk = [(5000, 5000), (6000, 6000), (7000, 5000)]
    pyshp_fixture('part_starts_polygon', POLYGON, named('part_starts_polygon', [
        raw_shape(POLYGON, ring + inner, [0, 0, 5]),
        raw_shape(POLYGON, ring + inner, [0, 10]),
        raw_shape(POLYGON, junk + ring + inner, [3, 8]),
        raw_shape(POLYGON, ring + inner, [5, 0]),
        raw_shape(POLYGON, ring + inner, [0, 5]),
    ]), 'Polygon part starts: equal; at the vertex count; first at 3 (three stray vertices before it); '
        'decreasing; fine')

    raw_fixture('counts', POLYLINE, [
        (poly_content(POLYLINE, [0], LINE, counts=(1, 4)), LINE),
        (poly_content(POLYLINE, [0], LINE, counts=(40, 3)), LINE),
        (poly_content(POLYLINE, [0], LINE, counts=(1, -3)), LINE),
        (poly_content(POLYLINE, [0], LINE, counts=(-1, 3)), LINE),
        (poly_content(POLYLINE, [0], LINE), LINE),
    ], 'PolyLine counts that do not fit: 4 points stated, 3 written; 40 parts; -3 points; -1 parts; fine')
    raw_fixture('counts_multipoint', MULTIPOINT, [
        (multipoint_content(MULTIPOINT, MULTIPOINTS[0], counts=4), MULTIPOINTS[0]),
        (multipoint_content(MULTIPOINT, MULTIPOINTS[0], counts=-1), MULTIPOINTS[0]),
        (multipoint_content(MULTIPOINT, MULTIPOINTS[0]), MULTIPOINTS[0]),
    ], 'MultiPoint counts: 4 points stated, 3 written; -1; fine')

    raw_fixture('empty_shapes', POLYGON, [
        (struct.pack('<i', NULL), []),
        (poly_content(POLYGON, [], []), []),
        (poly_content(POLYGON, [0], []), []),
        (poly_content(POLYGON, [0, 0], []), []),
        (poly_content(POLYGON, [], SQUARE), SQUARE),
        (poly_content(POLYGON, [0], SQUARE), SQUARE),
    ], 'Polygon records: null; no parts, no points; one part, no points; two parts, no points; '
       'no parts but 5 points; fine')
    raw_fixture('empty_multipoint', MULTIPOINT, [
        (multipoint_content(MULTIPOINT, []), []),
        (multipoint_content(MULTIPOINT, MULTIPOINTS[1]), MULTIPOINTS[1]),
    ], 'MultiPoint records: no points; fine')

    raw_fixture('nonfinite', POLYLINE, [
        (poly_content(POLYLINE, [0], LINE), LINE),
        (poly_content(POLYLINE, [0], [(1000, 2000), (math.nan, 2010)]), []),
        (poly_content(POLYLINE, [0], [(1000, 2000), (1010, math.inf)]), []),
    ], 'PolyLine records with a NaN and an infinite coordinate')

    zline = [10, 11, 12]
    raw_fixture('mixed_types', POLYLINE, [
        (poly_content(POLYLINE, [0], LINE), LINE),
        (poly_content(POLYLINEZ, [0], LINE, z=zline), LINE),
        (poly_content(POLYLINEM, [0], LINE, m=zline), LINE),
        (poly_content(POLYLINEZ, [0], LINE, z=zline, m=zline), LINE),
        (poly_content(POLYGON, [0], SQUARE), SQUARE),
        (struct.pack('<i', 99) + bytes(40), []),
    ], 'A PolyLine file whose records are PolyLine, PolyLineZ, PolyLineM, PolyLineZ with M, Polygon, and type 99')
    raw_fixture('mixed_2d_in_z', POLYLINEZ, [
        (poly_content(POLYLINEZ, [0], LINE, z=zline), LINE),
        (poly_content(POLYLINE, [0], LINE), LINE),
        (poly_content(POLYLINEM, [0], LINE, m=zline), LINE),
    ], 'A PolyLineZ file whose records are PolyLineZ, PolyLine and PolyLineM')
    raw_fixture('z_block_missing', POLYLINEZ, [
        (poly_content(POLYLINEZ, [0], LINE), LINE),
        (poly_content(POLYLINEZ, [0], LINE, z=zline), LINE),
    ], 'PolyLineZ records: one without its Z block, one with Z and without M')
    raw_fixture('pointz_short', POINTZ, [
        (point_content(POINTZ, 1000, 2000), [(1000, 2000)]),
        (point_content(POINTZ, 1010, 2010, 5.0), [(1010, 2010)]),
        (point_content(POINTZ, 1020, 2020, 5.0, 7.0), [(1020, 2020)]),
    ], 'PointZ records: 20 bytes (no z), 28 bytes (z, no m), 36 bytes (z and m)')
    raw_fixture('multipointz_short', MULTIPOINTZ, [
        (multipoint_content(MULTIPOINTZ, MULTIPOINTS[0]), MULTIPOINTS[0]),
        (multipoint_content(MULTIPOINTZ, MULTIPOINTS[0], z=[1, 2, 3]), MULTIPOINTS[0]),
    ], 'MultiPointZ records: without Z block; with Z, without M')
    raw_fixture('shp_header_z', POLYGONZ, [(poly_content(POLYGON, [0], SQUARE), SQUARE)],
                'The .shp header says PolygonZ, the .shx header and the record say Polygon', shx_type=POLYGON)
    raw_fixture('shx_header_z', POLYGON, [(poly_content(POLYGON, [0], SQUARE), SQUARE)],
                'The .shp header and the record say Polygon, the .shx header says PolygonZ', shx_type=POLYGONZ)
    raw_fixture('header_base_mismatch', POLYLINE, [(poly_content(POLYLINE, [0], LINE), LINE)],
                'The .shp header and the record say PolyLine, the .shx header says Polygon', shx_type=POLYGON)


def write_gdal_edited_fixtures():
    """Files GDAL itself leaves behind when it edits without repacking (AUTO_REPACK=NO)."""
    copy_fixture('ogr_polygon', 'gdal_deleted', 'ogr_polygon with feature 1 deleted by GDAL (AUTO_REPACK=NO): '
                 'its .dbf row is marked deleted', writer='ogr2ogr + GDAL update')
    with gdal_update('gdal_deleted') as layer:
        assert layer.DeleteFeature(1) == 0
    copy_fixture('ogr_polygon', 'gdal_rewritten', 'ogr_polygon with feature 0 replaced by GDAL (AUTO_REPACK=NO) by a '
                 'larger polygon: the new record is appended at the end of the .shp, the old one stays in place, '
                 'the .shx points at the new one', writer='ogr2ogr + GDAL update')
    with gdal_update('gdal_rewritten') as layer:
        feature = layer.GetFeature(0)
        feature.SetGeometry(ogr.CreateGeometryFromWkt(wkt_polygon([box(1000, 2000, 1050, 2050, cw=False),
                                                                   box(1010, 2010, 1020, 2020)])))
        assert layer.SetFeature(feature) == 0
    offsets = [shx_entry('gdal_rewritten', i)[0] for i in range(4)]
    assert offsets[0] > max(offsets[1:]), 'GDAL rewrote the record in place'


class gdal_update:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.ds = gdal.OpenEx(path(self.name, 'shp'), gdal.OF_VECTOR | gdal.OF_UPDATE,
                              open_options=['AUTO_REPACK=NO', 'DBF_DATE_LAST_UPDATE=2000-01-01'])
        return self.ds.GetLayer(0)

    def __exit__(self, *_):
        self.ds = None


# --------------------------------------------------------------------------- GDAL's reading

LEVELS = {gdal.CE_Debug: 'debug', gdal.CE_Warning: 'warning', gdal.CE_Failure: 'failure', gdal.CE_Fatal: 'fatal'}


def number(value):
    return value if math.isfinite(value) else repr(value)


def xy(geometry, i):
    x, y = geometry.GetPoint_2D(i)
    return [number(x), number(y)]


def coordinates(curve):
    return [xy(curve, i) for i in range(curve.GetPointCount())]


def children_of(geometry):
    """Children as docs/decisions.md numbers them, or None for a type we do not draw."""
    flat = ogr.GT_Flatten(geometry.GetGeometryType())
    parts = lambda: [geometry.GetGeometryRef(i) for i in range(geometry.GetGeometryCount())]
    rings = lambda polygon: [coordinates(polygon.GetGeometryRef(r)) for r in range(polygon.GetGeometryCount())]
    if flat == ogr.wkbPoint:
        return [xy(geometry, 0)]
    if flat == ogr.wkbMultiPoint:
        return [xy(point, 0) for point in parts()]
    if flat == ogr.wkbLineString:
        return [coordinates(geometry)]
    if flat == ogr.wkbMultiLineString:
        return [coordinates(line) for line in parts()]
    if flat == ogr.wkbPolygon:
        return [rings(geometry)]
    if flat == ogr.wkbMultiPolygon:
        return [rings(polygon) for polygon in parts()]
    return None


def describe_geometry(geometry):
    if geometry is None:
        return None
    if geometry.IsEmpty():
        return {'type': geometry.GetGeometryName(), 'empty': True}
    xmin, xmax, ymin, ymax = geometry.GetEnvelope()
    return {'type': geometry.GetGeometryName(), 'children': children_of(geometry),
            'bbox': [number(v) for v in (xmin, ymin, xmax, ymax)]}


def gdal_reading(shp, config=()):
    """What GDAL makes of the file: opens?, layer facts, and every feature by fid."""
    messages = []
    drain = lambda: [messages.pop(0) for _ in range(len(messages))]
    gdal.PushErrorHandler(lambda level, _, message: messages.append(
        {'level': LEVELS.get(level, level), 'message': message.strip()}))
    for key, value in config:
        gdal.SetConfigOption(key, value)
    try:
        ds = ogr.Open(shp)
        if ds is None:
            return {'opens': False, 'errors': [m for m in drain() if m['level'] != 'debug']}
        layer = ds.GetLayer(0)
        listed = []
        layer.ResetReading()
        feature = layer.GetNextFeature()
        while feature is not None:
            listed.append(feature.GetFID())
            feature = layer.GetNextFeature()
        drain()
        xmin, xmax, ymin, ymax = layer.GetExtent(force=0)
        reading = {'opens': True, 'geometryType': ogr.GeometryTypeToName(layer.GetGeomType()),
                   'extent': [xmin, ymin, xmax, ymax], 'featureCount': layer.GetFeatureCount(),
                   'encoding': layer.GetMetadataItem('SOURCE_ENCODING', 'SHAPEFILE') or '',
                   'listed': listed, 'features': []}
        for fid in range(reading['featureCount']):
            feature = layer.GetFeature(fid)
            errors = [m for m in drain() if m['level'] != 'debug']
            entry = {'fid': fid, 'feature': feature is not None}
            if feature is not None:
                entry['geometry'] = describe_geometry(feature.GetGeometryRef())
            entry['errors'] = errors
            reading['features'].append(entry)
        ds = None
        return reading
    finally:
        for key, _ in config:
            gdal.SetConfigOption(key, None)
        gdal.PopErrorHandler()


def geojson_properties(shp, config=()):
    """Attribute values by fid, as ogr2ogr's GeoJSON writer gives them."""
    command = ['ogr2ogr', '-f', 'GeoJSON', '/vsistdout/', shp, '-preserve_fid', '-nlt', 'NONE']
    for key, value in config:
        command += ['--config', key, value]
    output = subprocess.run(command, check=True, capture_output=True).stdout.decode('utf-8', errors='replace')
    return {feature['id']: feature['properties'] for feature in json.loads(output)['features']}


def reference_of(name):
    fixture = FIXTURES[name]
    entry = {'writer': fixture['writer'], 'about': fixture['about']}
    if fixture.get('restore_shx'):
        entry['gdal'] = gdal_reading(path(name, 'shp'))
        with tempfile.TemporaryDirectory() as tmp:
            for ext in ('shp', 'dbf'):
                shutil.copyfile(path(name, ext), os.path.join(tmp, f'{name}.{ext}'))
            copy = os.path.join(tmp, f'{name}.shp')
            config = [('SHAPE_RESTORE_SHX', 'YES')]
            entry['restored'] = with_attributes(gdal_reading(copy, config), copy, config)
        return entry
    entry['gdal'] = with_attributes(gdal_reading(path(name, 'shp')), path(name, 'shp'))
    return entry


def with_attributes(reading, shp, config=()):
    if reading['opens']:
        properties = geojson_properties(shp, config)
        for feature in reading['features']:
            if feature['fid'] in properties:
                feature['attributes'] = properties[feature['fid']]
    return reading


# --------------------------------------------------------------------------- masks


def pixel_grid(bbox):
    """The geotransform of our image of an extent: src/projection/fit.ts fitExtent, y flipped."""
    width, height, buffer = IMAGE['width'], IMAGE['height'], IMAGE['buffer']
    xmin, ymin, xmax, ymax = bbox
    half_width, half_height = xmax / 2 - xmin / 2, ymax / 2 - ymin / 2
    scale_x = (width / 2 - buffer) / half_width if half_width > 0 else math.inf
    scale_y = (height / 2 - buffer) / half_height if half_height > 0 else math.inf
    scale = min(scale_x, scale_y)
    cx, cy = xmin / 2 + xmax / 2, ymin / 2 + ymax / 2
    return [cx - (width / 2) / scale, 1 / scale, 0, cy + (height / 2) / scale, 0, -1 / scale]


def write_mask(file, rings):
    """Rasterizes one polygon (outer ring, then holes) at pixel centres; returns (bbox, set pixels)."""
    polygon = ogr.Geometry(ogr.wkbPolygon)
    for ring in rings:
        linear = ogr.Geometry(ogr.wkbLinearRing)
        for x, y in ring:
            linear.AddPoint_2D(x, y)
        polygon.AddGeometry(linear)
    xmin, xmax, ymin, ymax = polygon.GetEnvelope()
    memory = ogr.GetDriverByName('Memory').CreateDataSource('mask')
    layer = memory.CreateLayer('child', geom_type=ogr.wkbPolygon)
    feature = ogr.Feature(layer.GetLayerDefn())
    feature.SetGeometry(polygon)
    layer.CreateFeature(feature)
    raster = gdal.GetDriverByName('MEM').Create('', IMAGE['width'], IMAGE['height'], 1, gdal.GDT_Byte)
    raster.SetGeoTransform(pixel_grid((xmin, ymin, xmax, ymax)))
    gdal.PushErrorHandler('CPLQuietErrorHandler')  # neither side has a CRS: both are the file's units
    assert gdal.RasterizeLayer(raster, [1], layer, burn_values=[1]) == 0
    gdal.PopErrorHandler()
    count = sum(raster.GetRasterBand(1).ReadRaster())
    gdal.GetDriverByName('PNG').CreateCopy(file, raster, options=['NBITS=1'])
    return [xmin, ymin, xmax, ymax], count


def write_masks(name, reading):
    masks = {}
    for feature in reading['features']:
        geometry = feature.get('geometry')
        if not geometry or not geometry.get('children'):
            continue
        for child, rings in enumerate(geometry['children']):
            fid = f"{feature['fid']}.{child}"
            file = f'{name}-{fid}.png'
            bbox, pixels = write_mask(os.path.join(MASKS, file), rings)
            masks[fid] = {'file': f'masks/{file}', 'bbox': bbox, 'pixels': pixels}
    return masks


# --------------------------------------------------------------------------- main


def fix_dbf_dates():
    for file in sorted(os.listdir(OUT)):
        if file.endswith('.dbf'):
            edit(os.path.join(OUT, file), lambda b: b[:1] + DBF_DATE + b[4:])


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(MASKS)
    write_ogr2ogr_fixtures()
    write_pyshp_fixtures()
    write_damaged_fixtures()
    write_gdal_edited_fixtures()
    fix_dbf_dates()
    reference = {'gdal': gdal.VersionInfo('--version'), 'image': IMAGE, 'files': {}}
    for name in sorted(FIXTURES):
        entry = reference_of(name)
        if FIXTURES[name].get('masks'):
            entry['masks'] = write_masks(name, entry['gdal'])
        reference['files'][name] = entry
    with open(os.path.join(OUT, 'reference.json'), 'w', encoding='utf-8') as f:
        f.write(dumps(reference) + '\n')


def dumps(value, indent=0):
    """JSON with short values on one line: a ring is one line, a file's features one line each."""
    compact = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(',', ':'))
    if len(compact) + indent <= 120 or not isinstance(value, (dict, list)) or not value:
        return compact
    pad = ' ' * (indent + 1)
    if isinstance(value, dict):
        items = [f'{pad}{json.dumps(key, ensure_ascii=False)}:{dumps(item, indent + 1)}' for key, item in value.items()]
        return '{\n' + ',\n'.join(items) + '\n' + ' ' * indent + '}'
    items = [pad + dumps(item, indent + 1) for item in value]
    return '[\n' + ',\n'.join(items) + '\n' + ' ' * indent + ']'


if __name__ == '__main__':
    main()
