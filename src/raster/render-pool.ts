import { createWorkerPool } from './worker-pool.ts';

export interface RenderRequest {
  svg: string;
  width: number;
  height: number;
  /** zlib level of the PNG, 0–9. */
  compressionLevel: number;
  /** Font files the SVG's text needs; left out when there is no text, since loading fonts takes time. */
  fonts?: string[];
}

export interface RenderPoolOptions {
  /** Renders that run at once, one per worker thread. */
  workers: number;
  /** Renders that may wait for a worker; one more is refused with OverloadedError. */
  maxQueue: number;
  /** zlib level of the PNGs, 0–9 (default 1: fast, and nearly as small for flat graphics). */
  pngCompression?: number;
}

export interface RenderPool {
  /** The PNG of `svg`, which must be `width` x `height` pixels; `fonts`: files its text needs. */
  render(svg: string, width: number, height: number, fonts?: string[]): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Rasterizes SVG to PNG on worker threads, off the event loop. */
export function createRenderPool({ workers, maxQueue, pngCompression = 1 }: RenderPoolOptions): RenderPool {
  const pool = createWorkerPool<RenderRequest, Uint8Array>({
    entry: new URL('./render-worker.js', import.meta.url),
    name: 'render pool',
    workers,
    maxQueue,
  });
  return {
    render: (svg, width, height, fonts) =>
      pool.run({ svg, width, height, compressionLevel: pngCompression, ...(fonts?.length ? { fonts } : {}) }),
    close: () => pool.close(),
  };
}
