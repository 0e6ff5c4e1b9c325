// What this server is: its version and whether it is a demo (served by the server's modules/ops).
import { ServerInfo } from '../index.js';
import { endpoint } from './endpoint.js';

export const opsEndpoints = {
  'GET /api/server': endpoint({
    summary: "The server's version and whether it is a demo server",
    answers: { 200: ServerInfo },
    problems: [],
    public: true,
  }),
} as const;
