/**
 * A request line whose address holds bytes HTTP allows there only percent-encoded (a URL sent
 * as typed: é, a space, a control character) is refused by node:http before the app sees it;
 * its 400 envelope says what to encode and how (docs/api.md, "Errors"). Deno and Bun take
 * such an address as UTF-8 and answer it, or refuse it bare before shapeshot sees it.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** The answer to `request`, sent as these bytes on a connection of its own that the server closes after it: status and ErrorDetails (JSON or XML). */
async function answerTo(request: Buffer): Promise<{ status: number; details: string | undefined }> {
  const { hostname, port } = new URL(server.url('/'));
  const socket = connect(Number(port), hostname);
  socket.write(request);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const details = /"ErrorDetails":"([^"]*)"|<ErrorDetails>([^<]*)<\/ErrorDetails>/.exec(text);
  return { status: Number(text.split(' ', 2)[1]), details: details?.[1] ?? details?.[2] };
}

const requestLine = (address: Buffer) =>
  Buffer.concat([Buffer.from('GET '), address, Buffer.from(` HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${TEST_KEY}\r\nConnection: close\r\n\r\n`)]);
const images = (where: Buffer) => Buffer.concat([Buffer.from('/REST/v1/shapefiles/images?file=countries&format=json&where='), where]);

const HINT =
  'The request is not valid HTTP/1.1: characters outside ASCII, spaces and control characters in the address ' +
  'must be percent-encoded (UTF-8), as encodeURIComponent does (é as %C3%A9).';

describe('an address that is not percent-encoded', () => {
  it.each([
    ['é in UTF-8', Buffer.from("NAME='Curaçao'", 'utf8')],
    ['é in windows-1252', Buffer.from("NAME='Curaçao'", 'latin1')],
    ['a space', Buffer.from("NAME = 'Aruba'")],
    ['a control character', Buffer.from("NAME='\x01'")],
  ])('with %s: 400 saying what to encode and how', async (_, where) => {
    expect(await answerTo(requestLine(images(where)))).toEqual({ status: 400, details: HINT });
  });

  it('percent-encoded, is answered', async () => {
    const encoded = Buffer.from(encodeURIComponent("NAME='Curaçao'"));
    expect(await answerTo(requestLine(images(encoded)))).toEqual({ status: 200, details: '' });
  });

  it('other broken requests keep the plain sentence', async () => {
    expect(await answerTo(Buffer.from('GARBAGE\r\n\r\n'))).toEqual({ status: 400, details: 'The request is not valid HTTP/1.1.' });
  });
});
