#!/usr/bin/python3
"""The tiles benchmark's fair comparison of a small file with a big one (bench/tiles.ts): the
kit's random tile list (z 12-16 over the Netherlands) holds many tiles that no feature of a
2,000-polygon file touches, which any server answers without drawing. This keeps the tiles of
the list whose Web Mercator square meets a feature of the small file (exactly, by GEOS on the
feature reprojected to EPSG:3857), and says how many features a tile meets on average in each
list and file, so that the report can tell what each row's tiles hold.

  tiles-held.py TILES SMALL_SHP BIG_SHP OUT      prints one JSON object of counts

Debian's /usr/bin/python3 with python3-gdal and python3-numpy.
"""
import json
import math
import sys

import numpy as np
from osgeo import ogr, osr

HALF_WORLD = math.pi * 6378137


def tile_box(z, x, y):
    size = 2 * HALF_WORLD / 2 ** z
    return -HALF_WORLD + x * size, HALF_WORLD - (y + 1) * size, -HALF_WORLD + (x + 1) * size, HALF_WORLD - y * size


def to_mercator(shp):
    src = ogr.Open(shp)
    layer = src.GetLayer(0)
    mercator = osr.SpatialReference()
    mercator.ImportFromEPSG(3857)
    source = layer.GetSpatialRef()
    for srs in (source, mercator):
        srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return src, layer, osr.CoordinateTransformation(source, mercator)


def record_boxes(shp):
    """Every record's box in Web Mercator: the corners of its box in the file's CRS (from the
    .shp record headers, found through the .shx), reprojected."""
    src, _layer, transform = to_mercator(shp)
    del src
    base = shp[: -len(".shp")]
    offsets = np.fromfile(base + ".shx", dtype=">i4", offset=100).reshape(-1, 2)[:, 0].astype(np.int64) * 2
    raw = np.memmap(shp, dtype=np.uint8, mode="r")
    # a record: its header (8 bytes), its shape type (4), its box (4 little-endian doubles)
    boxes = np.ascontiguousarray(raw[(offsets + 12)[:, None] + np.arange(32)[None, :]]).view("<f8").reshape(-1, 4)
    xs, ys = [], []
    for cx, cy in ((0, 1), (0, 3), (2, 1), (2, 3)):
        points = np.array(transform.TransformPoints(np.column_stack([boxes[:, cx], boxes[:, cy]]).tolist()))
        xs.append(points[:, 0])
        ys.append(points[:, 1])
    return np.column_stack([np.min(xs, axis=0), np.min(ys, axis=0), np.max(xs, axis=0), np.max(ys, axis=0)])


def boxes_meeting(boxes, tile):
    x0, y0, x1, y1 = tile
    return np.nonzero((boxes[:, 0] <= x1) & (boxes[:, 2] >= x0) & (boxes[:, 1] <= y1) & (boxes[:, 3] >= y0))[0]


def main():
    tiles_path, small_shp, big_shp, out = sys.argv[1:5]
    tiles = [tuple(int(v) for v in line.split()) for line in open(tiles_path) if line.strip()]
    src, layer, transform = to_mercator(small_shp)
    shapes = []
    for feature in layer:
        geometry = feature.GetGeometryRef().Clone()
        geometry.Transform(transform)
        shapes.append(geometry)
    del src
    small_boxes = record_boxes(small_shp)
    big_boxes = record_boxes(big_shp)

    held, small_all, small_held, big_all, big_held = [], [], [], [], []
    for z, x, y in tiles:
        box = tile_box(z, x, y)
        ring = ogr.Geometry(ogr.wkbLinearRing)
        for px, py in ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]), (box[0], box[1])):
            ring.AddPoint_2D(px, py)
        square = ogr.Geometry(ogr.wkbPolygon)
        square.AddGeometry(ring)
        met = sum(1 for i in boxes_meeting(small_boxes, box) if shapes[i].Intersects(square))
        big_met = len(boxes_meeting(big_boxes, box))
        small_all.append(met)
        big_all.append(big_met)
        if met > 0:
            held.append((z, x, y))
            small_held.append(met)
            big_held.append(big_met)
    with open(out, "w") as f:
        f.writelines("%d %d %d\n" % tile for tile in held)
    mean = lambda values: round(float(np.mean(values)), 1) if values else 0
    print(json.dumps({
        "tiles": len(tiles),
        "held": len(held),
        "smallFeaturesPerTile": mean(small_all),
        "smallFeaturesPerHeldTile": mean(small_held),
        "bigBoxesPerTile": mean(big_all),
        "bigBoxesPerHeldTile": mean(big_held),
    }))


if __name__ == "__main__":
    main()
