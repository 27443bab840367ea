/**
 * Converts premultiplied RGBA (as resvg renders it) to straight alpha (as PNG stores it),
 * in place. Opaque and fully transparent pixels are already right and are skipped.
 */
/** @param {Uint8Array} rgba */
export function unpremultiplyInPlace(rgba) {
  for (let i = 3; i < rgba.length; i += 4) {
    const alpha = rgba[i];
    if (alpha === 0 || alpha === 255) continue;
    const factor = 255 / alpha;
    rgba[i - 3] = Math.min(255, Math.round(rgba[i - 3] * factor));
    rgba[i - 2] = Math.min(255, Math.round(rgba[i - 2] * factor));
    rgba[i - 1] = Math.min(255, Math.round(rgba[i - 1] * factor));
  }
  return rgba;
}
