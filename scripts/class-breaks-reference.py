#!/usr/bin/python3
"""Class breaks of a numeric field, computed apart from our code, to check it against.

Our classes (src/thematic/classify-values.ts) come from simple-statistics. This script
computes the same definitions with other tools, from the GeoJSON a test wrote the shapefile
from (so not through our reader either):
- quantile: numpy.quantile with method='linear', R's type 7, which is the definition
  simple-statistics' quantileSorted documents and implements since 7.9 ((n - 1) p, linear
  interpolation between the two order statistics around it);
- equal: min + k (max - min) / classes, as equal intervals are defined;
- jenks: the optimal partition of the sorted values into `classes` groups by least sum of
  squared deviations (ckmeans' objective, which is Jenks' natural breaks done exactly), by
  plain dynamic programming over all split points in exact rational arithmetic, so that no
  rounding can pick another partition.

Prints JSON: {"breaks": [upper bound of each class, ascending; the last is the largest value]}.
Values that are null are left out, as our classification counts them apart.

Usage: python3 scripts/class-breaks-reference.py FILE.geojson FIELD quantile|equal|jenks CLASSES
Needs numpy (Debian: python3-numpy).
"""
import json
import sys
from fractions import Fraction

import numpy


def field_values(path, field):
    with open(path, encoding="utf-8") as source:
        features = json.load(source)["features"]
    values = [feature["properties"].get(field) for feature in features]
    return sorted(float(value) for value in values if value is not None)


def quantile_breaks(values, classes):
    inner = [float(numpy.quantile(numpy.array(values), k / classes, method="linear")) for k in range(1, classes)]
    return inner + [values[-1]]


def equal_breaks(values, classes):
    low, high = values[0], values[-1]
    step = (high - low) / classes
    return [low + step * k for k in range(1, classes)] + [high]


def jenks_breaks(values, classes):
    exact = [Fraction(value) for value in values]
    n = len(exact)
    sums = [Fraction(0)]
    squares = [Fraction(0)]
    for value in exact:
        sums.append(sums[-1] + value)
        squares.append(squares[-1] + value * value)

    def cost(first, last):
        """Sum of squared deviations from their mean of values[first:last + 1]."""
        count = last - first + 1
        total = sums[last + 1] - sums[first]
        return squares[last + 1] - squares[first] - total * total / count

    # best[m][i]: least cost of values[0:i + 1] in m + 1 groups; start[m][i]: where its last group starts.
    best = [[cost(0, i) for i in range(n)]]
    start = [[0] * n]
    for m in range(1, classes):
        row, starts = [None] * n, [0] * n
        for i in range(m, n):
            for first in range(m, i + 1):
                candidate = best[m - 1][first - 1] + cost(first, i)
                if row[i] is None or candidate < row[i]:
                    row[i], starts[i] = candidate, first
        best.append(row)
        start.append(starts)
    breaks = []
    last = n - 1
    for m in range(classes - 1, -1, -1):
        breaks.append(values[last])
        last = start[m][last] - 1
    return breaks[::-1]


def main():
    path, field, method, classes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    values = field_values(path, field)
    compute = {"quantile": quantile_breaks, "equal": equal_breaks, "jenks": jenks_breaks}[method]
    print(json.dumps({"breaks": compute(values, classes)}))


if __name__ == "__main__":
    main()
