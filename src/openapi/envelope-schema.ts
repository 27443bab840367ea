/**
 * The JSON envelope as zod schemas: what the API description publishes for every JSON
 * answer. Not used to write answers (envelope/json.ts writes them byte by byte for speed);
 * a test checks real answers against these, so the description cannot drift from them.
 */
import { z } from 'zod';
import { CLASSIFY_METHODS } from '../thematic/methods.ts';

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
    Class: z.int().min(0).optional().meta({ description: "A styled picture's: the feature's class, its index in Legend.Classes." }),
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

export const legendSchema = z
  .object({
    Field: z.string().nullable().meta({ description: 'The .dbf field the classes are of, as the file spells it; null for a theme\'s rules.' }),
    Method: z.enum([...CLASSIFY_METHODS, 'rules']),
    Classes: z.array(
      z
        .object({
          Label: z.string().meta({ description: 'The class as a legend reads it: rounded bounds, a category, "other" or "no value".' }),
          Color: z.string().meta({ description: '#RRGGBB.' }),
          Min: z.number().nullable().meta({ description: "A numeric class's exact lower bound; null otherwise." }),
          Max: z.number().nullable().meta({ description: "A numeric class's exact upper bound (a value belongs to the first class whose Max is at least it); null otherwise." }),
          Value: attributeValue.meta({ description: "A category's value; null otherwise." }),
          Count: z.int().min(0).meta({ description: 'Features in the class.' }),
        })
        .strict(),
    ),
  })
  .strict()
  .meta({ description: "A styled request's classes, in class order: what each colour means." });

const imageCollectionSchema = z
  .object({
    __type: z.string().meta({ description: "'ShapefileFeatureImageCollection:' and the schema namespace." }),
    ItemId: z.int(),
    Shapefile: z.string().meta({ description: 'The shapefile as the data folder spells it.' }),
    ShapefileFeatureImages: z.array(featureImageSchema),
    Legend: legendSchema.optional().meta({ description: 'With styleBy (or a theme that colours by class or rule).' }),
  })
  .strict();

const legendResourceSchema = z
  .object({
    __type: z.string().meta({ description: "'ShapefileLegend:' and the schema namespace." }),
    Shapefile: z.string(),
    Legend: legendSchema,
  })
  .strict()
  .meta({ description: 'The legend route\'s answer.' });

const periodUseSchema = z
  .object({
    Count: z.int().min(0).meta({ description: 'Requests counted in the period, on this instance.' }),
    Quota: z.int().min(1).nullable().meta({ description: "The key's quota for the period; null when it has none." }),
    ResetsAt: z.string().meta({ description: 'When the next period begins: ISO 8601, UTC (2026-12-01T00:00:00Z).' }),
  })
  .strict();

const usageResourceSchema = z
  .object({
    __type: z.string().meta({ description: "'KeyUsage:' and the schema namespace." }),
    Today: periodUseSchema,
    ThisMonth: periodUseSchema,
    RateLimit: z.object({ PerSecond: z.number(), Burst: z.int() }).strict().nullable(),
    MaxConcurrent: z.int().nullable(),
  })
  .strict()
  .meta({ description: "The usage route's answer: the key's own counts and limits." });

export const envelopeSchema = z
  .object({
    Copyright: z.string(),
    StatusCode: z.int().meta({ description: 'The HTTP status.' }),
    StatusDescription: z.string(),
    ErrorDetails: z.string().meta({ description: 'Empty on success; one sentence per problem otherwise.' }),
    TraceId: z.string().meta({ description: 'Also in the X-Trace-Id header.' }),
    Resource: z
      .union([imageCollectionSchema, legendResourceSchema, usageResourceSchema])
      .nullable()
      .meta({ description: 'The images, the legend route\'s legend, or the usage route\'s counts; null on failure.' }),
  })
  .strict()
  .meta({
    description:
      'The envelope of every answer but format=png, svg and jpeg. The XML form has the same members in the same order, ' +
      'in the schema namespace, nulls as i:nil.',
  });
