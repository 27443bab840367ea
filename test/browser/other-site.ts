/**
 * A web site other than shapeshot's, on loopback, whose pages load shapeshot's images: what
 * the key rules for public pages are about (allowed sites, the start-up key's refusal of
 * cross-site requests). Chromium sees `localhost:PORT` and shapeshot's `127.0.0.1` as other sites.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtherSite {
  /** Where its pages are, e.g. http://localhost:41234. */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** Serves, for every path, the HTML page `pageFor` writes for the URL asked for (the body only: title and images). */
export async function startOtherSite(pageFor: (url: URL) => string): Promise<OtherSite> {
  const pages = createServer((request, response) => {
    const body = pageFor(new URL(request.url ?? '/', 'http://pages'));
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html>${body}`);
  });
  await new Promise<void>((listening) => pages.listen(0, '127.0.0.1', listening));
  const { port } = pages.address() as AddressInfo;
  return { origin: `http://localhost:${port}`, port, close: () => new Promise((closed) => pages.close(() => closed())) };
}
