#!/usr/bin/python3
"""Ring-organization fixtures, and what GDAL makes of them.

Writes small Polygon, PolygonZ and PolygonM shapefiles into test/fixtures/rings/, each
record holding exactly the rings (winding, order, closure) listed below, checks by reading
the bytes back that the files hold exactly that, then asks the GDAL installed here how it
organizes every record into polygons, and writes the answer to
test/fixtures/rings/reference.json: for every feature, its polygons in GDAL's order, each as
the indices (among the record's parts) of its rings, outer ring first.

GDAL's rings are matched to the record's parts by their coordinates (x, y and, where the
WKT has them, z and m). Parts with identical coordinates cannot be told apart that way;
they are listed under "identical", and the PolygonM fixtures tag such rings with distinct
m values so that GDAL's choice among them is known too.

GDAL is asked through `ogrinfo -ro -al -q`, whose WKT keeps m and prints the rings exactly
as the reader built them (ogr2ogr's GeoJSON writer has options that re-orient rings). The
hostile fixtures (rings of every magnitude, down to subnormal coordinates, which the WKT
prints as 0.0) are read through GDAL's Python bindings instead, which give the doubles.

Run from anywhere: /usr/bin/python3 scripts/gdal-reference/rings.py
Needs pyshp (`import shapefile`), GDAL's command-line tools (ogrinfo) and its Python
bindings (python3-gdal).
"""
import json
import math
import os
import re
import struct
import subprocess

import shapefile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
OUT = os.path.join(ROOT, 'test', 'fixtures', 'rings')

# --------------------------------------------------------------------------- rings


def box(x0, y0, x1, y1, cw=True):
    """A closed axis-aligned rectangle; clockwise (y up) as ESRI wants outer rings."""
    ring = [(x0, y0), (x0, y1), (x1, y1), (x1, y0), (x0, y0)]
    return ring if cw else ring[::-1]


def rev(ring):
    return ring[::-1]


def rotate(ring, k):
    """The same closed ring started at its k-th vertex."""
    body = ring[:-1]
    body = body[k:] + body[:k]
    return body + [body[0]]


def u_shape(x0, y0, x1, y1, notch, cw=True):
    """A 'U': the box with a notch cut down from the middle of its top side."""
    nx0, nx1, ny = notch
    ring = [(x0, y0), (x0, y1), (nx0, y1), (nx0, ny), (nx1, ny), (nx1, y1), (x1, y1), (x1, y0), (x0, y0)]
    return ring if cw else ring[::-1]


def signed_area(ring):
    """Shoelace sum, positive for counter-clockwise (y up)."""
    n = len(ring)
    return sum(ring[i][0] * ring[(i + 1) % n][1] - ring[(i + 1) % n][0] * ring[i][1] for i in range(n)) / 2


# --------------------------------------------------------------------------- cases
# Each case: (name, [ring, ...]); a ring is a list of (x, y) vertices written as given.

A = box(0, 0, 100, 100)            # big outer, clockwise
B = box(200, 0, 260, 60)           # second outer, clockwise, disjoint from A
HA = box(10, 10, 20, 20, cw=False)  # hole of A, counter-clockwise
HB = box(210, 10, 220, 20, cw=False)  # hole of B

WINDING = [
    ('one ring clockwise', [A]),
    ('one ring counter-clockwise', [rev(A)]),
    ('outer and hole, correctly wound', [A, HA]),
    ('outer and hole, both clockwise', [A, rev(HA)]),
    ('outer and hole, both counter-clockwise', [rev(A), HA]),
    ('hole written before its outer ring', [HA, A]),
    ('two disjoint outers', [A, B]),
    ('two outers, the second listed first', [B, A, HA, HB]),
    ('hole inside the second of two outers', [A, B, HB]),
    ('two outers, holes listed before both', [HB, HA, A, B]),
    ('counter-clockwise ring inside no outer', [A, B, box(400, 0, 420, 20, cw=False)]),
    ('counter-clockwise ring larger than every clockwise ring', [box(-50, -50, 150, 150, cw=False), A, HA]),
    ('hole sticking out of its outer box', [A, B, box(90, 40, 110, 60, cw=False)]),
    ('hole in the notch of the largest outer', [u_shape(0, 0, 100, 100, (40, 60, 30)), B, box(45, 50, 55, 60, cw=False)]),
    ('hole in the notch of an outer that is not the largest',
     [box(-300, 0, -100, 200), u_shape(0, 0, 100, 100, (40, 60, 30)), box(45, 50, 55, 60, cw=False)]),
    ('hole in the notch of a smaller outer inside a larger one',
     [box(-10, -10, 200, 200), u_shape(0, 0, 100, 100, (40, 60, 30)), box(45, 50, 55, 60, cw=False)]),
    ('hole whose first vertex touches its outer', [A, B, [(0, 50), (10, 40), (10, 60), (0, 50)]]),
    ('hole whose first two vertices touch its outer', [A, B, [(0, 40), (0, 60), (10, 50), (0, 40)][::-1]]),
    ('ring outside, touching the outer at its first vertex', [A, B, [(100, 50), (110, 40), (110, 60), (100, 50)][::-1]]),
    ('hole sharing a whole side with its outer', [A, B, box(0, 0, 10, 100, cw=False)]),
    ('holes in three outers, interleaved', [A, HB, B, box(300, 0, 340, 40), HA, box(310, 10, 320, 20, cw=False)]),
]

NESTING = [
    ('3 levels, correctly wound', [box(0, 0, 100, 100), box(10, 10, 90, 90, cw=False), box(20, 20, 80, 80)]),
    ('5 levels, correctly wound', [box(0, 0, 100, 100), box(10, 10, 90, 90, cw=False), box(20, 20, 80, 80),
                                   box(30, 30, 70, 70, cw=False), box(40, 40, 60, 60)]),
    ('5 levels, correctly wound, innermost first', [box(40, 40, 60, 60), box(30, 30, 70, 70, cw=False),
                                                    box(20, 20, 80, 80), box(10, 10, 90, 90, cw=False),
                                                    box(0, 0, 100, 100)]),
    ('3 levels, all clockwise', [box(0, 0, 100, 100), box(10, 10, 90, 90), box(20, 20, 80, 80)]),
    ('3 levels, all counter-clockwise', [box(0, 0, 100, 100, False), box(10, 10, 90, 90, False),
                                         box(20, 20, 80, 80, False)]),
    ('3 levels, winding inverted', [box(0, 0, 100, 100, False), box(10, 10, 90, 90), box(20, 20, 80, 80, False)]),
    ('5 levels, all clockwise', [box(0, 0, 100, 100), box(10, 10, 90, 90), box(20, 20, 80, 80),
                                 box(30, 30, 70, 70), box(40, 40, 60, 60)]),
    ('5 levels, all counter-clockwise', [box(0, 0, 100, 100, False), box(10, 10, 90, 90, False),
                                         box(20, 20, 80, 80, False), box(30, 30, 70, 70, False),
                                         box(40, 40, 60, 60, False)]),
    ('5 levels, winding inverted', [box(0, 0, 100, 100, False), box(10, 10, 90, 90), box(20, 20, 80, 80, False),
                                    box(30, 30, 70, 70), box(40, 40, 60, 60, False)]),
    ('two islands in one lake', [box(0, 0, 100, 100), box(10, 10, 90, 90, False), box(20, 20, 40, 40),
                                 box(60, 60, 80, 80), box(65, 65, 75, 75, False)]),
]

SEGMENT = [(30, 30), (40, 40)]
TRIANGLE_OPEN = [(30, 30), (40, 30), (35, 40)]
ZERO_AREA = [(210, 30), (220, 30), (230, 30), (210, 30)]
BOWTIE = [(30, 30), (50, 50), (50, 30), (30, 50), (30, 30)]
UNCLOSED_HOLE = [(30, 30), (40, 30), (40, 40), (30, 40)]
UNCLOSED_OUTER = [(200, 0), (200, 60), (260, 60), (260, 0)]

DEGENERATE = [
    ('2-point ring beside one outer and its hole', [A, HA, SEGMENT]),
    ('2-point ring beside two outers', [A, B, HA, SEGMENT]),
    ('3-point ring beside two outers', [A, B, HA, TRIANGLE_OPEN]),
    ('3-point ring as the only clockwise-looking part', [rev(A), HA, TRIANGLE_OPEN]),
    ('zero-area ring inside the second outer', [A, B, ZERO_AREA]),
    ('zero-area ring alone with one outer', [A, ZERO_AREA]),
    ('unclosed hole', [A, B, UNCLOSED_HOLE]),
    ('unclosed outer with a hole', [A, UNCLOSED_OUTER, HB]),
    ('duplicate outers', [A, A]),
    ('duplicate outers and a hole', [A, A, HA]),
    ('duplicate outers, one reversed, then another outer', [A, rev(A), B]),
    ('duplicate outers, reversed one first, then another outer', [rev(A), A, B]),
    ('duplicate holes', [A, B, HA, HA]),
    ('hole identical to its outer, reversed, with another outer', [B, A, rev(A)]),
    ('hole identical to its outer, reversed, started elsewhere', [B, A, rotate(rev(A), 2)]),
    ('self-crossing ring as a hole', [A, B, BOWTIE]),
    ('self-crossing ring as the outer', [[(0, 0), (100, 100), (100, 0), (0, 100), (0, 0)], B, HA]),
    ('self-crossing ring with one outer', [A, BOWTIE]),
]

# More than 16 rings, so that std::sort leaves insertion sort for introsort: equal areas
# (shifted equal squares) make its tie order visible.
SHIFTED = [box(i, 0, i + 50, 50) for i in range(0, 40, 2)]
TIES = [
    ('20 equal overlapping outers and a hole inside all', SHIFTED + [box(40, 20, 45, 25, cw=False)]),
    ('20 equal overlapping outers, every other reversed, and a hole',
     [r if i % 2 else rev(r) for i, r in enumerate(SHIFTED)] + [box(40, 20, 45, 25, cw=False)]),
]


def with_z(rings, z0):
    return [[(x, y, z0 + k) for x, y in ring] for k, ring in enumerate(rings)]


def with_m(rings):
    """m = ring index, so that rings with identical x, y stay distinguishable."""
    return [[(x, y, float(k)) for x, y in ring] for k, ring in enumerate(rings)]


Z_CASES = [
    ('PolygonZ: outer and hole, correctly wound', with_z([A, HA], 1)),
    ('PolygonZ: hole written before its outer ring', with_z([HA, A], 1)),
    ('PolygonZ: two outers both wound wrong, and a hole', with_z([rev(A), rev(B), rev(HB)], 5)),
]
M_CASES = [
    ('PolygonM: outer and hole, correctly wound', with_m([A, HA])),
    ('PolygonM: two outers, the second listed first', with_m([B, A, HA, HB])),
    ('PolygonM: duplicate outers and a hole', with_m([A, A, HA])),
    ('PolygonM: duplicate holes', with_m([A, B, HA, HA])),
    ('PolygonM: 17 identical outers and a hole', with_m([A] * 17 + [HA])),
]


# Records that made organizing rings costly or inexact before: many rings around one point
# (envelopes containing every hole, or only its corner), a comb whose teeth every ray
# crosses, holes walking along their outer ring's boundary, and coordinates far from
# ordinary magnitudes, where GDAL's products underflow or overflow.


def comb(teeth, scale=1.0):
    """A clockwise comb: a band along y = 0…10 with teeth up to y = 100, a notch x = 4t+2 … 4t+3 between them."""
    ring = [(0, 0), (0, 100)]
    for t in range(teeth):
        ring += [(4 * t + 2, 100), (4 * t + 2, 10), (4 * t + 3, 10), (4 * t + 3, 100)]
    ring += [(4 * teeth, 100), (4 * teeth, 0), (0, 0)]
    return [(x * scale, y * scale) for x, y in ring]


def comb_holes(teeth, scale=1.0):
    """Holes in the teeth, in the notches, and on the notches' edges (walking along them into a tooth or into the notch)."""
    holes = []
    for t in range(0, teeth, 3):
        x = 4 * t
        holes.append(box(x + 0.5, 20 + t % 50, x + 1.5, 90, cw=False))                 # in a tooth
        holes.append(box(x + 2.25, 30, x + 2.75, 95, cw=False))                        # in a notch
        holes.append([(x + 2, 40), (x + 2, 70), (x + 1.5, 55), (x + 2, 40)])           # along a notch edge, then into the tooth
        holes.append([(x + 2, 40), (x + 2.5, 55), (x + 2, 70), (x + 2, 40)])           # on a notch edge, then into the notch
        holes.append([(x + 2, 10), (x + 2.5, 5), (x + 3, 10), (x + 2, 10)])            # along a notch bottom, then into the band
    return [[(x * scale, y * scale) for x, y in hole] for hole in holes]


def comb_case(scale):
    teeth = 40
    frame = [(x * scale, y * scale) for x, y in box(-10, -10, 4 * teeth + 10, 110)]
    return [frame, comb(teeth, scale)] + comb_holes(teeth, scale)


def spiral(turns):
    """A clockwise band winding `turns` times around (500, 500), 24 vertices a turn on each side."""
    def at(k, offset):
        a = -k * 2 * math.pi / 24
        r = offset + 6 * k / 24
        return (round(500 + r * math.cos(a), 3), round(500 + r * math.sin(a), 3))
    inner = [at(k, 10) for k in range(turns * 24)]
    outer = [at(k, 13) for k in range(turns * 24 - 1, -1, -1)]
    return rev(inner + outer + [inner[0]])


def spiral_case():
    holes = []
    for k in range(0, 10 * 24, 7):
        x, y = spiral_point(k, (1.5, 4.5)[k % 2])
        holes.append(box(x, y, round(x + 0.3, 3), round(y + 0.3, 3), cw=False))
    return [box(0, 0, 1000, 1000), spiral(10)] + holes


def spiral_point(k, offset):
    a = -k * 2 * math.pi / 24
    r = 10 + 6 * k / 24 + offset
    return round(500 + r * math.cos(a), 3), round(500 + r * math.sin(a), 3)


def crossing_case():
    """Envelopes that contain every hole's lower-left corner but not the hole, some that contain it, and a large outer ring."""
    rings = [box(-1000, -1000, 1000, 1000)]
    for k in range(24):
        s = 10 + k
        rings.append(box(-s, -s, 0.5, s) if k % 3 == 0 else box(-s, -s, s, 0.5) if k % 3 == 1 else box(-s, -s, s, s))
    for k in range(12):
        x, y = 0.03 * k, 0.02 * k
        rings.append(box(x, y, x + 1, y + 1, cw=False))
    return rings


def bays_case():
    """Triangles whose envelopes hold the holes while they do not: GDAL tries each of them for each hole."""
    rings = [box(-1000, -1000, 1000, 1000)]
    for k in range(12):
        a = 3 + k
        rings.append([(-a - 1, -a - 1), (-a - 1, a - 1), (a - 1, -a - 1), (-a - 1, -a - 1)])
    for k in range(8):
        x, y = 0.1 * k, 0.05 * k
        rings.append(box(x, y, x + 0.1, y + 0.1, cw=False))
    return rings


def shared_side_nesting(levels):
    """Islands and lakes, each lake sharing its island's left side: every lake's first vertex lies on its island's boundary."""
    rings = []
    for level in range(0, levels, 2):
        rings.append(box(level, level, 1000 - level, 1000 - level))
        rings.append(box(level, level + 1, 1000 - level - 1, 1000 - level - 1, cw=False))
    return rings


def square(x, y, counter_clockwise):
    ring = [(x, y), (x + 0.1, y), (x + 0.1, y + 0.1), (x, y + 0.1), (x, y)]
    return ring if counter_clockwise else [ring[0]] + ring[-2:0:-1] + [ring[0]]


def subnormal_edge_case():
    """Squares around a sliver whose ring has an edge of subnormal length at the origin: GDAL's
    products with that edge round to zero, so that it finds points a quarter away on the
    sliver's boundary (the record a random comparison with GDAL found)."""
    sliver = [(0.0, 0.0), (0.0, 5e-324)] + [(-1.0 - k / 100.0, 1.0 + k / 100.0) for k in range(158)] + [(-3.0, -3.0), (0.0, 0.0)]
    corners = [(-1, 0, 1), (0.25, 5e-324, 1), (-1, 5e-324, 0), (-2, 5e-324, 1), (-1, 5e-324, 1), (0.25, -0.5, 0),
               (-2, 1e-320, 0), (0.5, -0.5, 1), (0.25, 0, 1), (0.5, 1e-320, 1), (0.5, 1e-320, 0), (0.5, 5e-324, 1),
               (-1, 1e-320, 1), (-0.25, 0, 1), (-0.25, 0, 1)]
    rings = [square(x, y, ccw) for x, y, ccw in corners]
    rings += [box(-100, -100, 100, 100), rev(sliver)]
    rings += [square(x, y, ccw) for x, y, ccw in [(-0.25, 0, 1), (-1, 5e-324, 0), (-1, 1e-320, 1)]]
    return rings


HOSTILE = [
    ('comb: holes in its teeth, in its notches and along their edges', comb_case(1.0)),
    ('comb at 1e-140 (coordinates below 2^-440)', comb_case(1e-140)),
    ('comb at 1e-160 (products near underflow)', comb_case(1e-160)),
    ('comb at 1e150 (coordinates above 2^490)', comb_case(1e150)),
    ('comb at 1e160 (products overflow)', comb_case(1e160)),
    ('spiral band with holes between its turns and in it', spiral_case()),
    ('envelopes around the holes\' lower-left corners, some around the holes', crossing_case()),
    ('triangles whose envelopes hold the holes', bays_case()),
    ('30 levels of islands and lakes sharing their left sides', shared_side_nesting(30)),
    ('edge of subnormal length at the origin', subnormal_edge_case()),
]

FILES = [
    ('winding', shapefile.POLYGON, WINDING),
    ('nesting', shapefile.POLYGON, NESTING),
    ('degenerate', shapefile.POLYGON, DEGENERATE),
    ('ties', shapefile.POLYGON, TIES),
    ('polygonz', shapefile.POLYGONZ, Z_CASES),
    ('polygonm', shapefile.POLYGONM, M_CASES),
    ('hostile', shapefile.POLYGON, HOSTILE),
]
# Files whose coordinates ogrinfo's WKT would round: read through GDAL's Python bindings.
EXACT_FILES = {'hostile'}

# --------------------------------------------------------------------------- writing


def write(name, shape_type, cases):
    """Writes the parts exactly as given: Writer.shape() with an explicit Shape neither
    closes nor re-orients rings (Writer.poly() would close them)."""
    path = os.path.join(OUT, name)
    with shapefile.Writer(path, shapeType=shape_type) as w:
        w.field('name', 'C', 64)
        for label, rings in cases:
            shape = shapefile.Shape(shape_type)
            shape.parts, shape.points = [], []
            for ring in rings:
                shape.parts.append(len(shape.points))
                shape.points.extend([list(p) for p in ring])
            w.shape(shape)
            w.record(label)
    return path + '.shp'


def read_back(path):
    """Every record's parts as lists of (x, y), straight from the bytes (via the .shx)."""
    shp = open(path, 'rb').read()
    shx = open(path[:-4] + '.shx', 'rb').read()
    records = []
    for i in range((len(shx) - 100) // 8):
        offset = struct.unpack('>i', shx[100 + 8 * i:104 + 8 * i])[0] * 2
        content = shp[offset + 8:]
        nparts, npoints = struct.unpack('<2i', content[36:44])
        starts = list(struct.unpack('<%di' % nparts, content[44:44 + 4 * nparts])) + [npoints]
        xy = struct.unpack('<%dd' % (2 * npoints), content[44 + 4 * nparts:44 + 4 * nparts + 16 * npoints])
        records.append([[(xy[2 * v], xy[2 * v + 1]) for v in range(starts[k], starts[k + 1])]
                        for k in range(nparts)])
    return records


def check_written(path, cases):
    for (label, rings), parts in zip(cases, read_back(path), strict=True):
        intended = [[tuple(p[:2]) for p in ring] for ring in rings]
        if parts != intended:
            raise SystemExit(f'{path}: "{label}" was not written as intended')


# --------------------------------------------------------------------------- GDAL


def gdal_features(path):
    """({fid: (dimensions, polygons)}, warnings) from ogrinfo's WKT."""
    run = subprocess.run(['ogrinfo', '-ro', '-al', '-q', path], capture_output=True, text=True, check=True)
    features, fid = {}, None
    for line in run.stdout.splitlines():
        match = re.match(r'OGRFeature\(.*\):(\d+)$', line)
        if match:
            fid = int(match.group(1))
        elif fid is not None and re.match(r'  (MULTI)?POLYGON', line):
            features[fid] = parse_wkt(line.strip())
    warnings = [w for w in run.stderr.splitlines() if w.strip()]
    return features, warnings


def gdal_features_exact(path):
    """The same for a Polygon file, through GDAL's Python bindings: the doubles themselves."""
    from osgeo import gdal, ogr
    warnings = []
    gdal.PushErrorHandler(lambda _class, _number, message: warnings.append(message))
    dataset = ogr.Open(path)
    features = {}
    for feature in dataset.GetLayer(0):
        geometry = feature.GetGeometryRef()
        polygons = [geometry] if geometry.GetGeometryType() == ogr.wkbPolygon else \
            [geometry.GetGeometryRef(k) for k in range(geometry.GetGeometryCount())]
        features[feature.GetFID()] = ('', [[[ring.GetPoint_2D(v) for v in range(ring.GetPointCount())]
                                            for ring in (polygon.GetGeometryRef(k) for k in range(polygon.GetGeometryCount()))]
                                           for polygon in polygons])
    gdal.PopErrorHandler()
    return features, warnings


def parse_wkt(wkt):
    """(dimensions, polygons): each polygon a list of rings, each ring a list of tuples."""
    head = re.match(r'(MULTIPOLYGON|POLYGON)\s*(ZM|Z|M)?\s*', wkt)
    dims = head.group(2) or ''
    tokens = re.findall(r'\(|\)|,|[^\s(),]+(?:\s+[^\s(),]+)*', wkt[head.end():])

    def nested(i):
        assert tokens[i] == '('
        items, i = [], i + 1
        while True:
            if tokens[i] == '(':
                item, i = nested(i)
            else:
                item, i = tuple(float(v) for v in tokens[i].split()), i + 1
            items.append(item)
            if tokens[i] == ')':
                return items, i + 1
            assert tokens[i] == ','
            i += 1

    tree, _ = nested(0)
    return dims, (tree if head.group(1) == 'MULTIPOLYGON' else [tree])


def comparable(point, shape_type, dims):
    """The coordinates of a written point that the WKT shows: pyshp takes (x, y, m) for
    PolygonM and (x, y, z, m) for PolygonZ, and writes its no-data value for a missing m."""
    x, y = point[0], point[1]
    z = point[2] if shape_type == shapefile.POLYGONZ and len(point) > 2 else 0.0
    m_at = 2 if shape_type == shapefile.POLYGONM else 3
    m = point[m_at] if len(point) > m_at else shapefile.NODATA
    values = {'': (x, y), 'Z': (x, y, z), 'M': (x, y, m), 'ZM': (x, y, z, m)}[dims]
    return tuple(float(v) for v in values)


def organize(path, shape_type, cases, exact):
    features, warnings = (gdal_features_exact if exact else gdal_features)(path)
    entries = []
    for fid, (label, rings) in enumerate(cases):
        dims, polygons = features[fid]
        keys = [tuple(comparable(p, shape_type, dims) for p in ring) for ring in rings]
        unused = list(range(len(rings)))
        grouped = []
        for polygon in polygons:
            indices = []
            for ring in polygon:
                match = next(k for k in unused if keys[k] == tuple(ring))  # lowest unused identical part
                unused.remove(match)
                indices.append(match)
            grouped.append(indices)
        if unused:
            raise SystemExit(f'{path}: GDAL dropped rings {unused} of "{label}"')
        identical = {}
        for k, key in enumerate(keys):
            identical.setdefault(key, []).append(k)
        entries.append({
            'fid': fid,
            'name': label,
            'rings': len(rings),
            'polygons': grouped,
            'identical': [group for group in identical.values() if len(group) > 1],
        })
    return entries, warnings


def compact_json(reference):
    """Indented down to the features, one feature a line."""
    text = json.dumps(reference, indent=1)
    return re.sub(r'\{\n\s*"fid"[^{}]*\}', lambda m: json.dumps(json.loads(m.group(0))), text) + '\n'


def main():
    os.makedirs(OUT, exist_ok=True)
    version = subprocess.run(['ogrinfo', '--version'], capture_output=True, text=True, check=True).stdout.strip()
    reference = {'gdal': version, 'files': {}}
    for name, shape_type, cases in FILES:
        path = write(name, shape_type, cases)
        check_written(path, cases)
        features, warnings = organize(path, shape_type, cases, name in EXACT_FILES)
        reader = 'osgeo.ogr (GDAL Python bindings)' if name in EXACT_FILES else 'ogrinfo -ro -al -q'
        reference['files'][name + '.shp'] = {'reader': reader, 'warnings': sorted(set(warnings)), 'features': features}
    with open(os.path.join(OUT, 'reference.json'), 'w') as out:
        out.write(compact_json(reference))
    total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
    print(f'{version}: {sum(len(c) for _, _, c in FILES)} features in {len(FILES)} files, {total} bytes')


if __name__ == '__main__':
    main()
