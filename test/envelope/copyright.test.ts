/**
 * How an answer's Copyright is put together from the configured credits
 * (envelope/copyright.ts): which data attribution applies, and each credit said once.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { SAMPLE_DATA_DIR } from '../../src/config/package-folders.ts';
import { copyrightOf, dataAttribution, SAMPLE_DATA_ATTRIBUTION } from '../../src/envelope/copyright.ts';

describe('copyrightOf', () => {
  it('joins the credits in order, leaving out empty and missing ones', () => {
    expect(copyrightOf(['© Service.', undefined, '  ', ' Data © Kadaster ', 'Tiles © OSM'])).toBe('© Service. Data © Kadaster Tiles © OSM');
  });

  it('says an equal credit once, whatever its case', () => {
    expect(copyrightOf(['© Service.', 'Natural Earth', 'natural earth'])).toBe('© Service. Natural Earth');
  });

  it('leaves out a credit that a longer one already says, before or after it', () => {
    expect(copyrightOf(['© Service.', 'Sample data: Natural Earth; more.', 'Natural Earth'])).toBe('© Service. Sample data: Natural Earth; more.');
    expect(copyrightOf(['© Service.', 'OSM', '© OSM contributors'])).toBe('© Service. © OSM contributors');
  });

  it('counts only whole words as said: IGN is not said by Designed', () => {
    expect(copyrightOf(['Designed by us.', 'IGN'])).toBe('Designed by us. IGN');
    expect(copyrightOf(['Tiles (c) a.b', 'a*b'])).toBe('Tiles (c) a.b a*b');
  });
});

describe('dataAttribution', () => {
  const attributionFor = (config: Record<string, unknown>) => dataAttribution(parseConfig(config));

  it("is the sample data's sources for the sample data, by default and however its folder is written", () => {
    expect(attributionFor({})('countries')).toBe(SAMPLE_DATA_ATTRIBUTION);
    expect(attributionFor({ dataDir: join(SAMPLE_DATA_DIR, '..', 'data') })('countries')).toBe(SAMPLE_DATA_ATTRIBUTION);
  });

  it('is none for a folder of ones own without configuration', () => {
    expect(attributionFor({ dataDir: '/srv/maps' })('parks')).toBeUndefined();
  });

  it("is the folder's, else the file's own (its name matched in any case)", () => {
    const of = attributionFor({ dataDir: '/srv/maps', data: { attribution: '© Gemeente', files: { Parks: { attribution: '© OSM' } } } });
    expect(of('roads')).toBe('© Gemeente');
    expect(of('parks')).toBe('© OSM');
    expect(of('PARKS')).toBe('© OSM');
  });

  it("replaces the sample data's when configured", () => {
    expect(attributionFor({ data: { attribution: 'Natural Earth' } })('countries')).toBe('Natural Earth');
  });

  it('is refused empty, or under a field it does not have, naming the field', () => {
    expect(() => parseConfig({ data: { attribution: ' ' } })).toThrow("field 'data.attribution': must not be empty");
    expect(() => parseConfig({ data: { files: { parks: { credit: 'x' } } } })).toThrow("field 'data.files.parks'");
    expect(() => parseConfig({ data: { atribution: 'x' } })).toThrow("field 'data'");
  });
});
