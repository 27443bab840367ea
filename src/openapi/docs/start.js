// The interactive reference of /openapi.json (Swagger UI, served from our own dependencies).
// @ts-nocheck: a browser script; SwaggerUIBundle is the global the bundle above defines.
SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true });
