// A real DNS server on loopback for tests: UDP, TXT records only (what a domain's proof is), every
// other question answered "no such name". The server's resolver is pointed at it with
// SVC_DNS_SERVERS (config.dnsServers), so a domain's proof is checked through the same lookup as
// in production.
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as packet from 'dns-packet';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for `dnsServers`. */
  address: string;
  /** TXT records by name (lower case): each value one record. */
  txt: Map<string, string[]>;
  /** How many questions it answered. */
  questions(): number;
  close(): Promise<void>;
}

export async function startTestDnsServer(): Promise<TestDnsServer> {
  const socket = dgram.createSocket('udp4');
  const txt = new Map<string, string[]>();
  let asked = 0;
  socket.on('message', (message, peer) => {
    let query: packet.Packet;
    try {
      query = packet.decode(message);
    } catch {
      return;
    }
    asked += 1;
    const [question] = query.questions ?? [];
    const values = question && question.type === 'TXT' ? txt.get(question.name.toLowerCase()) : undefined;
    const answer = packet.encode({
      id: query.id,
      type: 'response',
      flags: packet.AUTHORITATIVE_ANSWER | (values ? 0 : 3), // rcode 3: no such name
      questions: query.questions,
      answers: (values ?? []).map((value) => ({
        type: 'TXT' as const,
        name: question?.name ?? '',
        ttl: 60,
        class: 'IN' as const,
        data: value,
      })),
    });
    socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    txt,
    questions: () => asked,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
