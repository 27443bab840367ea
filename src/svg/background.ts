/**
 * What lies under an image's features: the background (a colour, or a gradient along an angle)
 * and the grid (docs/decisions.md, "Drawing an image"), written into the SVG, so that format=svg
 * shows them exactly as the PNG does.
 */
import { paint, stopPaint } from './paint.ts';
import type { Background, Grid } from './style.ts';

/**
 * The background: a plain `color1` fill, or a linear gradient from `color1` to `color2`
 * along `angle` degrees clockwise from +x (y points down, so 90 runs top to bottom). The
 * gradient line runs through the image centre and spans the image's extent along that
 * direction, so the colours at the two extreme corners are exactly color1 and color2.
 */
export function backgroundSvg(background: Background, width: number, height: number): string {
  const { color1, color2 } = background;
  if (!color2) {
    return color1.a > 0 ? `<rect width="${width}" height="${height}"${paint('fill', color1)}/>` : '';
  }
  if (color1.a === 0 && color2.a === 0) return '';
  const radians = (background.angle * Math.PI) / 180;
  const dx = Math.cos(radians);
  const dy = Math.sin(radians);
  const halfLength = (Math.abs(width * dx) + Math.abs(height * dy)) / 2;
  const [x1, y1, x2, y2] = [
    width / 2 - dx * halfLength,
    height / 2 - dy * halfLength,
    width / 2 + dx * halfLength,
    height / 2 + dy * halfLength,
  ].map(round2);
  // "Transparent" fades the other colour out rather than blending through transparent black.
  const start = color1.a === 0 ? { ...color2, a: 0 } : color1;
  const end = color2.a === 0 ? { ...color1, a: 0 } : color2;
  return (
    `<defs><linearGradient id="background" gradientUnits="userSpaceOnUse" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">` +
    `<stop offset="0"${stopPaint(start)}/><stop offset="1"${stopPaint(end)}/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#background)"/>`
  );
}

/**
 * Grid lines one pixel wide covering pixel columns x = k·space and rows y = k·space
 * (k = 0, 1, …) from the top-left corner, centred on the pixel so they are crisp.
 */
export function gridSvg(grid: Grid, width: number, height: number): string {
  if (grid.color.a === 0 || grid.space < 1) return '';
  let d = '';
  for (let x = 0; x < width; x += grid.space) d += `M${x + 0.5} 0V${height}`;
  for (let y = 0; y < height; y += grid.space) d += `M0 ${y + 0.5}H${width}`;
  return `<path d="${d}" fill="none"${paint('stroke', grid.color)} stroke-width="1"/>`;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
