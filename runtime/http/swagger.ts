import path from 'node:path';
import { createRequire } from 'node:module';
import express, { type Router } from 'express';

const require = createRequire(import.meta.url);

/** Swagger UI from the locally installed swagger-ui-dist (no CDN), reading `/api/schema/?format=json&oas=3.0`. */
export function mountSwaggerUi(router: Router, basePath: string): void {
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>API documentation</title>
  <link rel="stylesheet" href="swagger-ui.css">
  <link rel="icon" type="image/png" href="favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="swagger-ui-bundle.js"></script>
  <script src="swagger-ui-standalone-preset.js"></script>
  <script src="init.js"></script>
</body>
</html>
`;
  const init = `window.ui = SwaggerUIBundle({
  // The document as OpenAPI 3.0.3: Swagger UI resolves a 3.1 document with its ApiDOM resolver, which takes
  // about six times as long for ours (8 s instead of 1.4 s before the tags are listed).
  url: ${JSON.stringify(`${basePath}/api/schema/?format=json&oas=3.0`)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  // Hundreds of operations: tags start collapsed (an operation renders when its tag is opened or linked to)
  // and the models section is not rendered at all, so that the page is usable in a few seconds.
  docExpansion: 'none',
  defaultModelsExpandDepth: -1,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  withCredentials: true,
  // Signed in with a browser session: unsafe calls echo the CSRF cookie (token calls need nothing).
  requestInterceptor: (request) => {
    const method = (request.method || 'GET').toUpperCase();
    if (!['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method) && !request.headers.Authorization) {
      const match = document.cookie.match(/(?:^|;\\s*)csrftoken=([^;]+)/);
      if (match) request.headers['X-CSRFToken'] = decodeURIComponent(match[1]);
    }
    return request;
  },
});
`;
  router.get('/api/schema/swagger-ui/', (_req, res) => {
    res.type('html').send(page);
  });
  router.get('/api/schema/swagger-ui/init.js', (_req, res) => {
    res.type('application/javascript').send(init);
  });
  router.use('/api/schema/swagger-ui/', express.static(assets, { index: false, maxAge: '1h' }));
}
