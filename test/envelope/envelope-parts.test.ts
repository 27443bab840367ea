/**
 * The envelopes as the drawing workers and the main thread now write them between them
 * (each image's part on its worker, head and tail on the main thread) against the bytes the
 * service wrote before, in one piece: XML as xmlbuilder2 serialized the tree (the reference
 * below builds that tree as src/envelope/xml.ts did), JSON as JSON.stringify writes the whole
 * envelope. .NET clients read these bytes, so equal means byte for byte.
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { describe, expect, it } from 'vitest';
import { answerTooLarge } from '../../src/envelope/answer-limit.ts';
import { imagePart } from '../../src/envelope/image-part.ts';
import { envelopeToJson } from '../../src/envelope/json.ts';
import { RESOURCE_TYPE, type Envelope, type FeatureImage, type ImageCollection } from '../../src/envelope/model.ts';
import { envelopeToXml } from '../../src/envelope/xml.ts';
import type { Format } from '../../src/params/fields.ts';
import { xmlSafe } from '../../src/xml-text.ts';
import { child, parseXml } from '../support/xml.ts';

const NAMESPACE = 'http://schemas.microsoft.com/search/local/ws/rest/v1';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const NO_LIMIT = { maxBytes: Number.MAX_SAFE_INTEGER, advice: '', usedBytes: 0 };

/** Text that XML and JSON must carry intact or replace as docs/decisions.md says. */
const AWKWARD = [
  'plain',
  '',
  'a & b < c > d "e" \'f\'',
  'tab\there, new\nline, return\r',
  'nul \u0000 and bell \u0007',
  'unpaired \uD800 surrogate',
  'non-BMP 𝄞 and é ß 中文',
  ']]> and <!-- -->',
  '\uFFFE\uFFFF',
];

function images(): FeatureImage[] {
  const bytes = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 37 + 11) % 256);
  return [
    {
      itemId: 1,
      featureId: -1,
      bytes: bytes(1000),
      hotSpots: AWKWARD.map((text, i) => ({
        FeatureId: i,
        Fid: `${i}.0`,
        Shape: 'poly' as const,
        Coords: '1,2,3,4,5,6',
        Attributes: { NAME: text, COUNT: i * 1.5, FLAG: i % 2 === 0, EMPTY: null, [`F"&<>${i}`]: text },
      })),
    },
    { itemId: 2, featureId: 7, bytes: bytes(1), hotSpots: [] },
    { itemId: 3, featureId: 8, bytes: bytes(0), hotSpots: null },
    { itemId: 4, featureId: 9, bytes: bytes(2), hotSpots: [{ FeatureId: 9, Fid: '9', Shape: 'circle', Coords: '5,5,4' }] },
    { itemId: 5, featureId: 10, bytes: bytes(3), hotSpots: [{ FeatureId: 10, Fid: '10', Shape: 'circle', Coords: '5,5,4', Attributes: {} }] },
  ];
}

function envelope(format: Format, text: string, withImages: FeatureImage[] | null): Envelope {
  return {
    copyright: `Copyright ${text}`,
    statusCode: withImages ? 200 : 400,
    statusDescription: withImages ? 'OK' : 'Bad Request',
    errorDetails: withImages ? '' : `Parameter 'size' ${text}`,
    traceId: `shapeshot/20260101T000000Z/${text.length}`,
    resource: withImages && {
      itemId: 1,
      shapefile: `file ${text}`,
      images: withImages.map((image) => imagePart(image, format, NO_LIMIT)),
    },
  };
}

/** The envelope as src/envelope/xml.ts built it with xmlbuilder2 before its parts moved to the workers. */
function referenceXml(source: Envelope, withImages: FeatureImage[] | null): string {
  const root = create({ version: '1.0', encoding: 'utf-8' }).ele(NAMESPACE, 'Response').att('http://www.w3.org/2000/xmlns/', 'xmlns:i', XSI);
  root.ele('Copyright').txt(xmlSafe(source.copyright));
  root.ele('StatusCode').txt(String(source.statusCode));
  root.ele('StatusDescription').txt(xmlSafe(source.statusDescription));
  const details = root.ele('ErrorDetails');
  if (source.errorDetails) details.txt(xmlSafe(source.errorDetails));
  root.ele('TraceId').txt(xmlSafe(source.traceId));
  const resource = root.ele('Resource');
  if (!withImages) {
    resource.att(XSI, 'i:nil', 'true');
  } else {
    resource.att(XSI, 'i:type', RESOURCE_TYPE);
    resource.ele('ItemId').txt(String((source.resource as ImageCollection).itemId));
    resource.ele('Shapefile').txt(xmlSafe((source.resource as ImageCollection).shapefile));
    const list = resource.ele('ShapefileFeatureImages');
    for (const image of withImages) appendImage(list, image);
  }
  return root.end({ prettyPrint: false });
}

function appendImage(parent: XMLBuilder, image: FeatureImage) {
  const element = parent.ele('ShapefileFeatureImage');
  element.ele('ItemId').txt(String(image.itemId));
  element.ele('FeatureId').txt(String(image.featureId));
  element.ele('FeatureImage').txt(Buffer.from(image.bytes).toString('base64'));
  const hotSpots = element.ele('FeatureHotSpots');
  if (image.hotSpots === null) {
    hotSpots.att(XSI, 'i:nil', 'true');
    return;
  }
  for (const spot of image.hotSpots) {
    const area = hotSpots.ele('HotSpot');
    area.ele('FeatureId').txt(String(spot.FeatureId));
    area.ele('Fid').txt(xmlSafe(spot.Fid));
    area.ele('Shape').txt(xmlSafe(spot.Shape));
    area.ele('Coords').txt(xmlSafe(spot.Coords));
    if (!spot.Attributes) continue;
    const attributes = area.ele('Attributes');
    for (const [name, value] of Object.entries(spot.Attributes)) {
      const attribute = attributes.ele('Attribute').att('Name', xmlSafe(name));
      if (value === null) attribute.att(XSI, 'i:nil', 'true');
      else attribute.txt(xmlSafe(String(value)));
    }
  }
}

/** The envelope as one JSON.stringify of the whole, the PNG as its list of byte values. */
function referenceJson(source: Envelope, withImages: FeatureImage[] | null): string {
  return JSON.stringify({
    Copyright: source.copyright,
    StatusCode: source.statusCode,
    StatusDescription: source.statusDescription,
    ErrorDetails: source.errorDetails,
    TraceId: source.traceId,
    Resource: withImages && {
      __type: `${RESOURCE_TYPE}:${NAMESPACE}`,
      ItemId: (source.resource as ImageCollection).itemId,
      Shapefile: (source.resource as ImageCollection).shapefile,
      ShapefileFeatureImages: withImages.map((image) => ({
        ItemId: image.itemId,
        FeatureId: image.featureId,
        FeatureImage: Array.from(image.bytes),
        FeatureHotSpots: image.hotSpots,
      })),
    },
  });
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('the XML envelope put together from parts', () => {
  it.each(AWKWARD)('is byte for byte what xmlbuilder2 wrote, success and failure (%j)', (awkward) => {
    for (const withImages of [images(), null]) {
      const source = envelope('xml', awkward, withImages);
      expect(text(envelopeToXml(source, NAMESPACE))).toBe(referenceXml(source, withImages));
    }
  });

  it('escapes an ampersand that looks like an entity, which xmlbuilder2 left as it was (the text came back changed)', () => {
    const spotted = [{ itemId: 1, featureId: 1, bytes: Uint8Array.of(1), hotSpots: [{ FeatureId: 1, Fid: '1', Shape: 'circle' as const, Coords: '1,1,4', Attributes: { NAME: 'Tom &amp; Jerry &#65;' } }] }];
    const xml = text(envelopeToXml(envelope('xml', '&lt;', spotted), NAMESPACE));
    expect(xml).toContain('<Copyright>Copyright &amp;lt;</Copyright>');
    expect(xml).toContain('<Attribute Name="NAME">Tom &amp;amp; Jerry &amp;#65;</Attribute>');
    expect(child(parseXml(xml), 'Copyright')!.text).toBe('Copyright &lt;');
  });
});

describe('the JSON envelope put together from parts', () => {
  it.each(AWKWARD)('is byte for byte one JSON.stringify of the whole envelope, success and failure (%j)', (awkward) => {
    for (const withImages of [images(), null]) {
      const source = envelope('json', awkward, withImages);
      expect(text(envelopeToJson(source, NAMESPACE))).toBe(referenceJson(source, withImages));
    }
  });
});

describe('the answer limit', () => {
  const limit = { maxBytes: 2000, advice: 'Ask for less.' };

  it('refuses an image part that would not fit in what the earlier parts left, naming the limit', () => {
    const [image] = images();
    const whole = imagePart(image, 'xml', NO_LIMIT).length;
    expect(imagePart(image, 'xml', { maxBytes: whole, advice: '', usedBytes: 0 })).toHaveLength(whole);
    expect(() => imagePart(image, 'xml', { ...limit, maxBytes: whole + 100, usedBytes: 101 })).toThrow(
      `more than ${whole + 101} bytes long; at most ${whole + 100} bytes (limits.maxAnswerBytes) can be sent in one answer. Ask for less.`,
    );
  });

  it('counts the picture alone for format=png', () => {
    const image = { ...images()[0], bytes: new Uint8Array(2001) };
    expect(() => imagePart(image, 'png', { ...limit, usedBytes: 0 })).toThrow(answerTooLarge(2001, limit).message);
    expect(imagePart(image, 'png', { ...limit, maxBytes: 2001, usedBytes: 0 })).toBe(image.bytes);
  });

  it('refuses an envelope whose head does not fit beside its parts', () => {
    const source = envelope('json', 'x', [images()[1]]);
    const length = envelopeToJson(source, NAMESPACE).length;
    expect(envelopeToJson(source, NAMESPACE, { ...limit, maxBytes: length })).toHaveLength(length);
    expect(() => envelopeToJson(source, NAMESPACE, { ...limit, maxBytes: length - 1 })).toThrow('(limits.maxAnswerBytes)');
    expect(() => envelopeToXml(envelope('xml', 'x', [images()[1]]), NAMESPACE, { ...limit, maxBytes: 100 })).toThrow('(limits.maxAnswerBytes)');
  });
});
