/** Tile coordinates and what else a URL template may ask for. */
export interface TileAddress {
  z: number;
  x: number;
  y: number;
  /** The language code the culture maps to. */
  culture: string;
  /** The server's double-density tile ({r} is '@2x'), for maps of 2 or 3 real pixels per CSS pixel. */
  highDensity?: boolean;
}

const PLACEHOLDER = /\{(z|x|y|s|r|quadkey|culture)\}/g;

/** Placeholders a template may hold; anything else in braces is a configuration mistake. */
export function checkTemplate(template: string): void {
  if (!/^https?:\/\//i.test(template)) throw new Error(`option 'url' must be an http(s) URL template; got '${template}'.`);
  const unknown = template.replace(PLACEHOLDER, '').match(/\{[^}]*\}/);
  if (unknown) throw new Error(`option 'url' has unknown placeholder ${unknown[0]} (known: {z} {x} {y} {s} {r} {quadkey} {culture}).`);
}

/**
 * Fills a template's {z} {x} {y} {quadkey} {culture}, {r} ('@2x' for a high-density tile,
 * else nothing, as Leaflet and most tile servers spell it), and {s} with one of `subdomains`
 * (picked by the tile, so a tile always comes from the same host and caches well there).
 */
export function tileUrl(template: string, tile: TileAddress, subdomains: readonly string[]): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    switch (name) {
      case 'z':
        return String(tile.z);
      case 'x':
        return String(tile.x);
      case 'y':
        return String(tile.y);
      case 's':
        return subdomains.length ? subdomains[(tile.x + tile.y) % subdomains.length] : '';
      case 'r':
        return tile.highDensity ? '@2x' : '';
      case 'quadkey':
        return quadkey(tile);
      default:
        return encodeURIComponent(tile.culture);
    }
  });
}

/** Bing Maps' tile key: one base-4 digit per zoom level, interleaving the bits of y and x. */
export function quadkey({ z, x, y }: { z: number; x: number; y: number }): string {
  let key = '';
  for (let level = z; level > 0; level--) {
    const mask = 1 << (level - 1);
    key += String((x & mask ? 1 : 0) + (y & mask ? 2 : 0));
  }
  return key;
}
