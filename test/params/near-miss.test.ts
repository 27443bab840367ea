/**
 * The rule that tells a misspelled parameter from a cache-buster (params/near-miss.ts over
 * structures/near-names.ts), on the names of both operations as their schemas list them:
 * what a newcomer mistypes is caught, what pages and proxies add is not.
 */
import { describe, expect, it } from 'vitest';
import { imagesQuerySchema } from '../../src/params/images.ts';
import { mapQuerySchema } from '../../src/params/map.ts';
import { meantParameter } from '../../src/params/near-miss.ts';
import { editsBetween } from '../../src/structures/near-names.ts';
import { isParameterName } from '../../src/params/spelling.ts';
import { styleFields } from '../../src/params/style.ts';
import { thematicFields } from '../../src/params/thematic.ts';
import { queryParameters } from '../../src/openapi/parameters.ts';

const LIMITS = { maxSize: 4096, maxIds: 1000 };
const operations = {
  images: [
    ...queryParameters(imagesQuerySchema(LIMITS, new Map()), (name) => name).map(({ name }) => name),
    ...Object.keys(styleFields),
    ...Object.keys(thematicFields),
    'key',
  ],
  map: [...queryParameters(mapQuerySchema(LIMITS), (name) => name).map(({ name }) => name), ...Object.keys(thematicFields), 'key'],
};

describe('editsBetween', () => {
  it.each([
    ['format', 'format', 0],
    ['fromat', 'format', 1],
    ['fids', 'fid', 1],
    ['linecolour', 'linecolor', 1],
    ['time', 'theme', 2],
    ['form', 'format', 2],
    ['ab', 'ba', 1],
  ])('%s to %s: %d', (a, b, edits) => {
    expect(editsBetween(a, b, 2)).toBe(edits);
  });

  it('stops at the bound for names far apart in length, however long', () => {
    expect(editsBetween('x'.repeat(100_000), 'fid', 2)).toBe(3);
  });
});

describe('a near miss of a parameter', () => {
  it.each([
    ['images', 'fromat', 'format'],
    ['images', 'fids', 'fid'],
    ['images', 'id', 'fid'],
    ['images', 'fiel', 'file'],
    ['images', 'files', 'file'],
    ['images', 'sise', 'size'],
    ['images', 'szie', 'size'],
    ['images', 'themes', 'theme'],
    ['images', 'linecolour', 'linecolor'],
    ['images', 'fillcolour', 'fillcolor'],
    ['images', 'bgcolor', 'bgcolor1'],
    ['images', 'singleimages', 'singleimage'],
    ['images', 'includehotspot', 'includehotspots'],
    ['images', 'hotspotfield', 'hotspotfields'],
    ['images', 'reducetolerance', undefined],
    ['images', 'keys', 'key'],
    ['map', 'fromat', 'format'],
    ['map', 'zooms', 'zoom'],
    ['map', 'types', 'type'],
    ['map', 'linecolour', 'linecolor'],
    ['map', 'usebbox', undefined],
    ['map', 'cultuur', 'culture'],
    ['map', 'usebondingbox', 'useboundingbox'],
  ])('%s: %s is meant as %s', (operation, name, meant) => {
    expect(meantParameter(name, operations[operation as keyof typeof operations])).toBe(meant);
  });
});

describe('what pages, proxies and analytics add', () => {
  const ADDED = [
    '_', 'v', 't', 'r', 'f', 'x', 'cb', 'ts', '_t', 'rnd', 'rand', 'ver', 'rev', 'sig', 'now', 'time', 'date', 'hash',
    'random', 'nocache', 'callback', 'jsonp', 'version', 'timestamp', 'cachebuster', 'cachebust', 'bust', 'nonce', 'token',
    'utm_source', 'utm_medium', 'fbclid', 'gclid', 'lang', 'locale', 'width', 'height', 'page', 'ref', 'src', 'api_key', 'apikey',
    // Other map interfaces' names (WMS GetMap and GetLegendGraphic), near styleBy and classes.
    'style', 'styles', 'layer', 'layers', 'rule', 'class',
  ];
  it.each(ADDED)('%s is near no parameter of either operation (so it is ignored)', (name) => {
    for (const parameters of Object.values(operations)) {
      if (!parameters.includes(name)) expect(meantParameter(name, parameters)).toBeUndefined();
    }
  });
});

describe('the parameters of the operations', () => {
  it('all have the interface spelling, so that one operation never takes another\'s parameter for a near miss', () => {
    for (const name of [...operations.images, ...operations.map]) expect(isParameterName(name), name).toBe(true);
  });
});
