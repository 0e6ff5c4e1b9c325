import type { FastifyRequest } from 'fastify';

/** Who is signing in, as far as throttles and the sessions list are concerned. */
export interface Client {
  address: string;
  userAgent: string | undefined;
}

/** Who is signing in, from the request: the address the throttles count, the user agent the sessions list shows. */
export const clientOf = (request: FastifyRequest): Client => ({
  address: request.ip,
  userAgent: request.headers['user-agent'],
});
