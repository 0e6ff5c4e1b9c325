import type { FastifyPluginAsync } from 'fastify';
import { DEMO_PROJECT_KEY } from './seed.js';

const page = (origin: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo site · feedback comments</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 44rem; margin: 3rem auto; padding: 0 1rem; color: #1f2937; }
  code { background: #f3f4f6; padding: 0.1rem 0.3rem; border-radius: 4px; }
  .card { border: 1px solid #e5e7eb; border-radius: 8px; padding: 1rem 1.25rem; margin: 1.5rem 0; }
</style>
</head>
<body>
<h1>Demo site</h1>
<p>This page belongs to the demo project <code>${DEMO_PROJECT_KEY}</code>. Reviewers pin comments on pages like
this one; a fix is applied with a commit, verified by its author, and goes Live when a deploy containing
the commit is reported.</p>
<div class="card">
  <h2>Try the API</h2>
  <p>Sign in with the demo admin printed when the server first started, or use its API key:</p>
  <pre><code>curl -H "Authorization: Bearer $SVC_API_KEY" ${origin}/api/projects/${DEMO_PROJECT_KEY}/comments</code></pre>
  <p>The whole API is described at <a href="/docs">/docs</a> (OpenAPI document at <a href="/openapi.json">/openapi.json</a>).</p>
</div>
</body>
</html>
`;

/** The demo page: a small site with the widget embedded, served by the server itself. */
export const demoRoutes: FastifyPluginAsync = async (app) => {
  app.get('/demo', { schema: { hide: true } }, async (request, reply) =>
    reply.type('text/html; charset=utf-8').send(page(`${request.protocol}://${request.host}`)),
  );
};
