/** A point in image pixels. */
export type Pixel = [number, number];

/**
 * The outline of a stroke `halfWidth` pixels either side of a polyline, with square caps,
 * as one closed polygon (not repeated first point). Joins are mitred, or bevelled where a
 * mitre would reach further than twice the half width. `points` must have no consecutive
 * duplicates and at least two points.
 */
export function strokeOutline(points: readonly Pixel[], halfWidth: number): Pixel[] {
  return [...offsetSide(points, halfWidth), ...offsetSide([...points].reverse(), halfWidth)];
}

/** One side of the stroke, walking the line forward, with the cap at either end. */
function offsetSide(points: readonly Pixel[], halfWidth: number): Pixel[] {
  const last = points.length - 1;
  const side: Pixel[] = [];
  for (let i = 0; i <= last; i++) {
    const [x, y] = points[i];
    if (i === 0 || i === last) {
      const [dx, dy] = i === 0 ? direction(points[0], points[1]) : direction(points[last - 1], points[last]);
      const along = i === 0 ? -halfWidth : halfWidth;
      side.push([x + dx * along - dy * halfWidth, y + dy * along + dx * halfWidth]);
      continue;
    }
    const [ix, iy] = direction(points[i - 1], points[i]);
    const [ox, oy] = direction(points[i], points[i + 1]);
    const [nx, ny, px, py] = [-iy, ix, -oy, ox];
    const bisectorLength = Math.hypot(nx + px, ny + py);
    const cosHalfAngle = bisectorLength / 2;
    if (cosHalfAngle < 0.5) {
      side.push([x + nx * halfWidth, y + ny * halfWidth], [x + px * halfWidth, y + py * halfWidth]);
    } else {
      const scale = halfWidth / cosHalfAngle / bisectorLength;
      side.push([x + (nx + px) * scale, y + (ny + py) * scale]);
    }
  }
  return side;
}

function direction([ax, ay]: Pixel, [bx, by]: Pixel): Pixel {
  const length = Math.hypot(bx - ax, by - ay);
  return [(bx - ax) / length, (by - ay) / length];
}
