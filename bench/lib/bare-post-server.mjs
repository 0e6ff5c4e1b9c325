// The baseline for request latency: a bare Fastify route that reads a JSON body and answers JSON.
import Fastify from 'fastify';

const app = Fastify();
app.post('/bare', async (request) => ({ received: Array.isArray(request.body?.containsCommitShas) }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening http://127.0.0.1:${app.server.address().port}/bare`);
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => app.close().then(() => process.exit(0)));
