// The API reference: the OpenAPI document, made from the schemas of every route registered
// after `registerOpenApi`, served at /openapi.json and browsable at /docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Feedback comments API',
        version,
        description:
          'Comments pinned on a web app, applied with a commit, verified by their author and marked Live by deploy reports. Authenticate with `Authorization: Bearer <token>`: a session token (svc_sess_…) or an API key (svc_key_…). Errors are RFC 9457 problem details with a stable `code`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Swagger UI finds its document relative to the page's address, query string included:
    // `/docs?x` would fetch `/docs?x/./json`. The page takes no parameters, so drop them.
    uiHooks: {
      onRequest: (request, reply, done) => {
        const [path, query] = request.url.split('?');
        if (query !== undefined && (path === '/docs' || path === '/docs/')) reply.redirect(path, 302);
        else done();
      },
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
