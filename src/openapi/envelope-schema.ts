/**
 * The JSON envelope as zod schemas: what the API description publishes for every JSON
 * answer. Not used to write answers (envelope/json.ts writes them byte by byte for speed);
 * a test checks real answers against these, so the description cannot drift from them.
 */
import { z } from 'zod';

const attributeValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const hotSpotSchema = z
  .object({
    FeatureId: z.int().meta({ description: 'The feature id (the record number) the area belongs to.' }),
    Fid: z.string().meta({ description: "The id as the request listed it: '5' or '5.2'." }),
    Shape: z.enum(['poly', 'circle', 'rect']).meta({ description: "The HTML <area> element's shape." }),
    Coords: z.string().meta({ description: "The <area> coords: whole CSS pixels, comma-separated." }),
    Attributes: z
      .record(z.string(), attributeValue)
      .optional()
      .meta({ description: 'With hotSpotFields=: the values of those fields, by the .dbf spelling of their names.' }),
  })
  .strict()
  .meta({ description: 'An HTML image-map area for one feature (or part) drawn on the image.' });

export const featureImageSchema = z
  .object({
    ItemId: z.int().min(1).meta({ description: 'The 1-based position of the image in the answer.' }),
    FeatureId: z.int().min(-1).meta({ description: 'The feature id the image shows; -1 for several (singleImage=1, maps).' }),
    FeatureImage: z.array(z.int().min(0).max(255)).meta({ description: "The PNG's bytes, as a list of byte values." }),
    FeatureHotSpots: z.array(hotSpotSchema).nullable().meta({ description: 'null unless includeHotSpots=1.' }),
  })
  .strict()
  .meta({ description: 'One image: its place in the answer, its feature, its PNG and its hot spots.' });

export const envelopeSchema = z
  .object({
    Copyright: z.string(),
    StatusCode: z.int().meta({ description: 'The HTTP status.' }),
    StatusDescription: z.string(),
    ErrorDetails: z.string().meta({ description: 'Empty on success; one sentence per problem otherwise.' }),
    TraceId: z.string().meta({ description: 'Also in the X-Trace-Id header.' }),
    Resource: z
      .object({
        __type: z.string().meta({ description: "'ShapefileFeatureImageCollection:' and the schema namespace." }),
        ItemId: z.int(),
        Shapefile: z.string().meta({ description: 'The shapefile as the data folder spells it.' }),
        ShapefileFeatureImages: z.array(featureImageSchema),
      })
      .strict()
      .nullable()
      .meta({ description: 'null on failure.' }),
  })
  .strict()
  .meta({
    description:
      'The envelope of every answer but format=png, svg and jpeg. The XML form has the same members in the same order, ' +
      'in the schema namespace, nulls as i:nil.',
  });
