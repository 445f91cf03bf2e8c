import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { KEEP_ALIVE_MS } from './node-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Sends `count` GET /api/capabilities requests on one kept-alive connection, `pauseMs` apart; resolves to each status line. */
function requestsOnOneConnection(count: number, pauseMs: number): Promise<string[]> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const statuses: string[] = [];
    let buffered = '';
    const send = () => socket.write('GET /api/capabilities HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    socket.on('connect', send);
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      // Each answer is small and whole: count a status line once its body (Content-Length) is in.
      const match = /^(HTTP\/1\.1 \d{3}[^\r]*)\r\n[\s\S]*?content-length: (\d+)\r\n[\s\S]*?\r\n\r\n/i.exec(buffered);
      if (!match || buffered.length < match[0].length + Number(match[2])) return;
      statuses.push(match[1]!);
      buffered = buffered.slice(match[0].length + Number(match[2]));
      if (statuses.length === count) {
        socket.end();
        resolve(statuses);
      } else setTimeout(send, pauseMs);
    });
    socket.on('error', reject);
    socket.on('close', () => (statuses.length < count ? reject(new Error(`closed by the server after ${statuses.length} answers`)) : undefined));
  });
}

describe('idle kept-alive connections', () => {
  it('stay open well past Node’s 5 s default, so a client reusing one is not reset mid-request', async () => {
    expect(KEEP_ALIVE_MS).toBeGreaterThan(60_000);
    // 7 s apart: Node's default closes an idle socket after 5 s (plus a 1 s margin), and the
    // second request is then written to a socket the server has closed.
    const statuses = await requestsOnOneConnection(2, 7_000);
    expect(statuses).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
  });
});
