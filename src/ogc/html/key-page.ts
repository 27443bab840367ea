/**
 * The page a browser gets from /ogc without a valid key (docs/ogc.md, "In a browser"): the
 * status stays 401, but a person who opened `/ogc?f=html` reads how to give the key and where
 * the start-up key was printed, not the JSON exception written for GDAL and QGIS. It quotes
 * nothing of the request (a key is a secret even when it is wrong), and its links are relative
 * to the page, so they hold behind a proxy that serves /ogc under a path of its own.
 */
import { html } from './markup.ts';

/** `pathname`'s way back to the service's root, relative: `/ogc` → `./`, `/ogc/collections/x` → `../../`. */
function rootFrom(pathname: string): string {
  const depth = pathname.split('/').length - 2;
  return depth <= 0 ? './' : '../'.repeat(depth);
}

/** The page; `keyCame`: whether the request brought a key (one not accepted) or none. */
export function keyNeededHtml(pathname: string, keyCame: boolean): string {
  const root = rootFrom(pathname);
  const problem = keyCame ? 'The key this request brought is not one this server accepts (keys are case-sensitive).' : 'This request brought no access key.';
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>An access key is needed · shapeshot</title>
  <link rel="stylesheet" href="${root}playground/playground.css">
  <link rel="icon" href="data:,">
</head>
<body>
  <header>
    <h1>An access key is needed</h1>
  </header>
  <main>
    <section aria-label="Why">
      <p>${problem} Every <code>/ogc</code> page needs one.</p>
      <p><a href="${root}">The playground</a> asks for it too.</p>
    </section>
    <section aria-label="How">
      <h2>How to give it</h2>
      <ul>
        <li>In a browser: add it to this page's address, <code>?key=YOUR_KEY</code> (<code>&amp;key=YOUR_KEY</code> when the address has a <code>?</code> already). The pages' links then carry it.</li>
        <li>From a program (GDAL, QGIS, curl): in the <code>X-API-Key</code> header.</li>
      </ul>
      <h2>Which key</h2>
      <p>While no keys are configured, the server makes a new one each time it starts and prints it in the terminal where it was started: its <code>Playground:</code> and <code>API docs:</code> lines end in <code>?key=</code> and the key. Otherwise, use one of the keys in its configuration (<code>keys</code>).</p>
    </section>
  </main>
</body>
</html>
`.text;
}
