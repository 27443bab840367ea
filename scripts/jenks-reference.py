#!/usr/bin/python3
"""Exact natural breaks of weighted values, computed apart from our code, to check it against.

Our jenks breaks (src/thematic/ckmeans.ts) come from a dynamic programme that trusts two
monotonicity properties to skip most split points. This one trusts none: for every number of
classes and every last value it tries every start of the last class (numpy, vectorized), over
the distinct values with their counts, which is the same objective as over the values
themselves (equal values never gain by being split between classes). Cost O(classes · d²) for
d distinct values: for fields with few distinct values, which is what the tests give it.

Reads JSON from stdin: {"values": [distinct values, ascending], "counts": [how many of each],
"classes": N}. Prints JSON: {"breaks": [the largest value of each class, ascending],
"deviation": the total within-class squared deviation of those classes, each about its own
mean}.

Usage: python3 scripts/jenks-reference.py < input.json
Needs numpy (Debian: python3-numpy).
"""
import json
import sys

import numpy


def jenks(values, counts, classes):
    d = len(values)
    # Deviations from the weighted mean keep the prefix sums of squares small.
    centred = values - numpy.average(values, weights=counts)
    weights = numpy.concatenate(([0.0], numpy.cumsum(counts)))
    sums = numpy.concatenate(([0.0], numpy.cumsum(counts * centred)))
    squares = numpy.concatenate(([0.0], numpy.cumsum(counts * centred * centred)))

    def last_class_costs(end):
        """Squared deviation of values[start:end + 1] for every start 0…end."""
        starts = numpy.arange(end + 1)
        weight = weights[end + 1] - weights[starts]
        total = sums[end + 1] - sums[starts]
        return numpy.maximum(0.0, squares[end + 1] - squares[starts] - total * total / weight)

    classes = min(classes, d)
    # best[m][i]: least cost of values[0:i + 1] in m + 1 classes; first[m][i]: where its last class starts.
    best = numpy.full((classes, d), numpy.inf)
    first = numpy.zeros((classes, d), dtype=int)
    for i in range(d):
        costs = last_class_costs(i)
        best[0][i] = costs[0]
        for m in range(1, min(classes, i + 1)):
            # A last class starting at s ≥ m leaves values[0:s] to the other m classes.
            candidates = best[m - 1][m - 1 : i] + costs[m:]
            pick = int(numpy.argmin(candidates))
            best[m][i], first[m][i] = candidates[pick], m + pick
    ends = []
    last = d - 1
    for m in range(classes - 1, -1, -1):
        ends.append(last)
        last = first[m][last] - 1
    ends.reverse()
    return [float(values[end]) for end in ends], deviation(values, counts, ends)


def deviation(values, counts, ends):
    """The classes' total squared deviation, each class about its own mean, by two passes."""
    total, start = 0.0, 0
    for end in ends:
        part, weight = values[start : end + 1], counts[start : end + 1]
        mean = numpy.average(part, weights=weight)
        total += float(numpy.sum(weight * (part - mean) ** 2))
        start = end + 1
    return total


def main():
    given = json.load(sys.stdin)
    values = numpy.array(given["values"], dtype=float)
    counts = numpy.array(given["counts"], dtype=float)
    breaks, total = jenks(values, counts, int(given["classes"]))
    print(json.dumps({"breaks": breaks, "deviation": total}))


if __name__ == "__main__":
    main()
