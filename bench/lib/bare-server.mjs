// The baseline: a bare Fastify JSON route, answering what unread-count answers.
import Fastify from 'fastify';

const app = Fastify();
app.get('/bare', async () => ({ count: 0 }));
// Any other address too, a POST reading its JSON body: the baseline of bench/mixed-load.
app.get('/*', async () => ({ count: 0 }));
app.post('/*', async (request) => ({ received: typeof request.body }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening http://127.0.0.1:${app.server.address().port}/bare`);
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => app.close().then(() => process.exit(0)));
