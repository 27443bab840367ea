// The interactive reference of /openapi.json (Swagger UI, served from our own files), authorized
// with the key the page opened with (the playground's page-key.js: docs/configuration.md, "The
// start-up key"). A module, run after the classic script that defines SwaggerUIBundle.
// @ts-nocheck: a browser script; SwaggerUIBundle is the global the bundle defines.
import { openingKey } from '/playground/page-key.js';

const key = openingKey();
const ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#docs',
  deepLinking: true,
  // keyHeader: the X-API-Key scheme of /openapi.json (src/openapi/document.ts), which every operation takes.
  onComplete: () => key && ui.preauthorizeApiKey('keyHeader', key),
});
