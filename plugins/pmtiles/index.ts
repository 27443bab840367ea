/**
 * pmtiles: raster tiles (PNG, JPEG or WebP) from a local PMTiles v3 archive, placed on the
 * pixel grid as the xyz provider places its tiles. Options: `path` (absolute, or relative to
 * the working directory), `attribution` (default: the archive's own metadata attribution).
 * Past the archive's deepest zoom its deepest tiles are scaled up; above its shallowest zoom
 * the map gets no tiles (drawing them would take 4^k tiles per map tile). Missing tiles are
 * left empty.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { PMTiles, TileType, type Header } from 'pmtiles';
import { z } from 'zod';
import {
  BasemapUnavailableError,
  tilesCovering,
  untilAborted,
  definePlugin,
  type BasemapProvider,
  type PlacedImage,
} from '../../src/sdk/plugin.ts';
import { FileHandleSource } from './file-source.ts';

const optionsSchema = z
  .object({
    path: z.string().min(1),
    attribution: z.string().optional(),
  })
  .strict();

const MIME_TYPES: Partial<Record<TileType, PlacedImage['mime']>> = {
  [TileType.Png]: 'image/png',
  [TileType.Jpeg]: 'image/jpeg',
  [TileType.Webp]: 'image/webp',
};

export default definePlugin({
  sdkVersion: 1,
  async create(rawOptions, context): Promise<BasemapProvider> {
    const parsed = optionsSchema.safeParse(rawOptions);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`option '${issue.path.join('.') || '(options)'}' ${issue.message}`);
    }
    const path = resolve(parsed.data.path);
    const archiveName = basename(path);
    const { archive, header, metadataAttribution, handle } = await openArchive(path);
    const mime = MIME_TYPES[header.tileType]!;
    const attribution = parsed.data.attribution ?? metadataAttribution ?? '';

    const tile = async (z: number, x: number, y: number, signal: AbortSignal): Promise<Uint8Array | undefined> => {
      try {
        const found = await archive.getZxy(z, x, y, signal);
        return found === undefined ? undefined : new Uint8Array(found.data);
      } catch (error) {
        // Answers never show where files lie on the server: the archive is named by its file name alone.
        const reason = (error as Error).message.replaceAll(path, archiveName);
        throw new BasemapUnavailableError(context.name, `reading tile ${z}/${x}/${y} of archive '${archiveName}' failed: ${reason}`);
      }
    };

    return {
      name: context.name,
      async render({ view, signal }) {
        const placements = view.zoom < header.minZoom ? [] : tilesCovering(view, header.maxZoom);
        const all = Promise.all(
          placements.map(async ({ z, x, y, left, top, size }): Promise<PlacedImage | undefined> => {
            const bytes = await tile(z, x, y, signal);
            return bytes && { x: left, y: top, width: size, height: size, mime, bytes };
          }),
        );
        const placed = await untilAborted(all, signal, context.name);
        return { below: { images: placed.filter((image) => image !== undefined) }, attribution };
      },
      close: () => handle.close(),
    };
  },
});

interface OpenArchive {
  archive: PMTiles;
  header: Header;
  metadataAttribution: string | undefined;
  handle: FileHandle;
}

/** Opens and checks the archive now, so a missing or damaged file stops start-up, naming it. */
async function openArchive(path: string): Promise<OpenArchive> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const archive = new PMTiles(new FileHandleSource(handle, path));
    const header = await archive.getHeader();
    if (MIME_TYPES[header.tileType] === undefined) {
      throw new Error(`it holds ${TileType[header.tileType] ?? 'unknown'} tiles; only PNG, JPEG and WebP raster tiles can be drawn`);
    }
    // Reading one tile reads the root directory too: a damaged directory shows up here.
    await archive.getZxy(header.minZoom, 0, 0);
    const metadata = header.jsonMetadataLength > 0 ? ((await archive.getMetadata()) as { attribution?: unknown }) : undefined;
    const metadataAttribution = typeof metadata?.attribution === 'string' ? metadata.attribution : undefined;
    return { archive, header, metadataAttribution, handle };
  } catch (error) {
    await handle?.close();
    throw new Error(`PMTiles archive '${path}' cannot be used: ${(error as Error).message}`, { cause: error });
  }
}
