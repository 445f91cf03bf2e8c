import { serve, type ServerType } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../core/analysis';
import { errorBodySchema } from '../../core/errors';
import { renderError } from '../http/errors';
import { DOOR_MEASUREMENT } from '../../testing/analysis';
import { sampleImage } from '../../testing/images';
import { readAnalysisUpload, uploadBodyLimit } from '../http/upload-limit';

const IDLE_MS = 200;

/** A tiny real app: the upload reader is what is tested, without the analysis behind it. */
let server: ServerType;
let url: string;
let port: number;

beforeAll(async () => {
  const app = new Hono();
  app.onError(renderError);
  const echo = async (c: Context) => {
    const upload = await readAnalysisUpload(c.req.raw);
    return c.json({ ...upload, bytes: upload.bytes.length, hasDescription: 'description' in upload });
  };
  app.post('/upload', echo);
  // The same reader with a 200 ms idle timeout, where the route's is 15 s.
  app.post('/impatient', async (c) => {
    const upload = await readAnalysisUpload(c.req.raw, IDLE_MS);
    return c.json({ bytes: upload.bytes.length });
  });
  // As the analysis route mounts it: the middleware refuses a declared oversize body first.
  app.post('/guarded', uploadBodyLimit, echo);
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}/upload`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function form(fields: Record<string, string | File | (string | File)[]>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  }
  return body;
}

const file = (bytes: Buffer | string, name = 'tree.jpg', type = 'image/jpeg') =>
  new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name, { type });
const post = (body: FormData | string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', body, headers });

async function expectError(res: Response, status: number, code: string, message?: string | RegExp) {
  expect(res.status).toBe(status);
  const body = errorBodySchema.parse(await res.json());
  expect(body.code).toBe(code);
  if (message) expect(body.message).toMatch(message);
}

const TOO_LARGE = 'Image is too large. The maximum file size is 10MB.';
const UNSUPPORTED = 'Unsupported image type. Please upload a JPEG, PNG or WebP photo.';
const NO_PHOTO = 'Please choose a photo of the tree to analyze.';

/**
 * Sends a raw request with node:http and resolves on the response, whether or not the body
 * was ever finished: `send` writes what it likes and may leave the request open, which a
 * server that waited for the whole body would never answer.
 */
function rawUpload(
  path: string,
  headers: Record<string, string | number>,
  send: (req: ReturnType<typeof httpRequest>) => void,
): Promise<{ status: number; body: string; requestEnded: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers });
    req.on('response', (res) => {
      const requestEnded = req.writableEnded;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, requestEnded });
      });
    });
    req.on('error', reject);
    send(req);
  });
}

describe('readUpload: size limits while reading', () => {
  it.each(['/upload', '/guarded'])('refuses a declared 50 MB body with 413 before reading it (%s)', async (path) => {
    const boundary = 'x-boundary';
    const res = await rawUpload(
      path,
      { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': 50 * 1024 * 1024 },
      (req) => {
        req.flushHeaders();
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="t.jpg"\r\n\r\n`);
      },
    );
    // The answer came while 50 MB were still owed: the server never waited for them.
    expect(res.requestEnded).toBe(false);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: TOO_LARGE });
  });

  it('counts a chunked body as it streams and refuses 11 MB with 413', async () => {
    const boundary = 'x-boundary';
    const chunk = Buffer.alloc(256 * 1024, 0xab);
    const res = await rawUpload('/upload', { 'content-type': `multipart/form-data; boundary=${boundary}` }, (req) => {
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="t.jpg"\r\n\r\n`);
      let sent = 0;
      const pump = () => {
        while (sent < 11 * 1024 * 1024 && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
      };
      pump();
    });
    // No Content-Length, and the body never finished: only the running count can have answered.
    expect(res.requestEnded).toBe(false);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: TOO_LARGE });
  });

  it('refuses a file over 10 MB inside a request that fits the framing allowance', async () => {
    const bytes = Buffer.alloc(MAX_UPLOAD_BYTES + 1024, 0);
    bytes.set([0xff, 0xd8, 0xff]);
    await expectError(await post(form({ image: file(bytes) })), 413, 'PAYLOAD_TOO_LARGE', TOO_LARGE);
  });
});

describe('readUpload: an upload that stalls', () => {
  const STALLED = 'The upload stalled. Please check your connection and try again.';

  async function multipart() {
    const request = new Request('http://localhost/', { method: 'POST', body: form({ image: file(await sampleImage('jpeg', 640, 480)) }) });
    return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
  }

  it('answers 408 REQUEST_TIMEOUT when no byte comes for the idle timeout', async () => {
    const { body, contentType } = await multipart();
    const res = await rawUpload('/impatient', { 'content-type': contentType, 'content-length': body.length }, (req) => {
      req.flushHeaders();
      req.write(body.subarray(0, 1000));
    });
    expect(res.requestEnded).toBe(false);
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toEqual({ code: 'REQUEST_TIMEOUT', message: STALLED });
  });

  it('waits as long as bytes keep coming, however long the whole upload takes', async () => {
    const { body, contentType } = await multipart();
    const pieces = 10;
    const size = Math.ceil(body.length / pieces);
    // Each pause is a quarter of the idle timeout (room for a busy event loop); all of them
    // together are over twice it.
    const res = await rawUpload('/impatient', { 'content-type': contentType, 'content-length': body.length }, (req) => {
      let sent = 0;
      const next = () => {
        const piece = body.subarray(sent * size, (sent + 1) * size);
        sent += 1;
        if (sent < pieces) {
          req.write(piece);
          setTimeout(next, IDLE_MS / 4);
        } else req.end(piece);
      };
      next();
    });
    expect(res.requestEnded).toBe(true);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ bytes: expect.any(Number) });
  });
});

describe('readUpload: the form', () => {
  const crlf = (lines: (string | Buffer)[]) =>
    Buffer.concat(lines.flatMap((line, i) => [typeof line === 'string' ? Buffer.from(line) : line, Buffer.from(i < lines.length - 1 ? '\r\n' : '')]));
  const raw = (body: Buffer, boundary = 'x') =>
    fetch(url, { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });

  it('reads what the platform FormData sends, byte for byte, text as UTF-8', async () => {
    const photo = await sampleImage('jpeg', 320, 240);
    const res = await post(form({ image: file(photo, 'tree "1".jpg'), description: 'Chêne près du garage 🌳\r\nsecond line', businessSlug: '' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ bytes: photo.length, description: 'Chêne près du garage 🌳\r\nsecond line', hasDescription: true });
  });

  it('reads a quoted boundary, keeps look-alike lines inside content, ignores an epilogue', async () => {
    const photo = await sampleImage('jpeg', 64, 48);
    // The boundary only counts after a line break and two dashes (RFC 2046), so these are content.
    const description = 'x--b0und mid-line\r\n-b0und one dash\r\n\r\n';
    const body = crlf([
      '--b0und',
      'Content-Disposition: form-data; name="image"; filename="a;b.jpg"',
      'Content-Type: image/jpeg',
      '',
      photo,
      '--b0und',
      'content-disposition: form-data; name=description',
      '',
      description,
      '--b0und--',
      'This is the epilogue.',
    ]);
    const res = await fetch(url, { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': 'multipart/form-data; boundary="b0und"' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ bytes: photo.length, description: description.trim() });
  });

  it.each([
    ['a field the form does not take', crlf(['--x', 'Content-Disposition: form-data; name="__proto__"', '', '{}', '--x--']), /does not take: "__proto__"/],
    ['a field sent twice', crlf(['--x', 'Content-Disposition: form-data; name="description"', '', 'a', '--x', 'Content-Disposition: form-data; name="description"', '', 'b', '--x--']), /description field was sent more than once/],
    ['a text field sent as a file', crlf(['--x', 'Content-Disposition: form-data; name="siteDetails"; filename="s.json"', '', '{}', '--x--']), /siteDetails field must be text/],
    ['no close delimiter', crlf(['--x', 'Content-Disposition: form-data; name="description"', '', 'cut short']), /ended before its closing boundary/],
    ['a part without a name', crlf(['--x', 'Content-Disposition: form-data; filename="a.jpg"', '', '1', '--x--']), /no field name/],
    ['a part without Content-Disposition', crlf(['--x', 'Content-Type: text/plain', '', '1', '--x--']), /no field name/],
    ['garbage', Buffer.from('garbage without boundaries'), /does not start with the boundary/],
    ['a part header over 1 KB', crlf(['--x', `Content-Disposition: form-data; name="description"; x="${'a'.repeat(2000)}"`, '', '1', '--x--']), /headers over 1024 bytes/],
    ['text that is not UTF-8', crlf(['--x', 'Content-Disposition: form-data; name="description"', '', Buffer.from([0xff, 0xfe, 0xfd]), '--x--']), /not UTF-8/],
  ])('refuses %s with 400 naming the problem', async (_, body, message) => {
    await expectError(await raw(body), 400, 'VALIDATION_ERROR', message);
  });

  it.each([
    ['no boundary parameter', 'multipart/form-data; charset=utf-8'],
    ['a boundary of 71 characters', `multipart/form-data; boundary=${'a'.repeat(71)}`],
    ['a boundary with a character RFC 2046 does not allow', 'multipart/form-data; boundary=a*b'],
  ])('refuses %s with 400', async (_, contentType) => {
    const body = crlf(['--x', 'Content-Disposition: form-data; name="description"', '', '1', '--x--']);
    const res = await fetch(url, { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': contentType } });
    await expectError(res, 400, 'VALIDATION_ERROR', /needs a boundary of 1 to 70/);
  });

  it('refuses a text field over its cap with 413 naming it', async () => {
    const res = await post(form({ image: file(await sampleImage('jpeg')), siteDetails: 'x'.repeat(3000) }));
    await expectError(res, 413, 'PAYLOAD_TOO_LARGE', 'The siteDetails field is too large (at most 2048 bytes).');
  });
});

describe('readUpload: the image', () => {
  it('refuses a GIF with 415', async () => {
    const gif = await sampleImage('gif');
    await expectError(await post(form({ image: file(gif, 'tree.gif', 'image/gif') })), 415, 'UNSUPPORTED_MEDIA_TYPE', UNSUPPORTED);
  });

  it('refuses a text file named .jpg and sent as image/jpeg with 415', async () => {
    const res = await post(form({ image: file('not a photo at all', 'tree.jpg', 'image/jpeg') }));
    await expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', UNSUPPORTED);
  });

  it('refuses a body that is not multipart with 415', async () => {
    const res = await post(JSON.stringify({ image: 'x' }), { 'content-type': 'application/json' });
    await expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', UNSUPPORTED);
  });

  it('asks for a photo when there is none, an empty one or text in its place', async () => {
    const cases = [form({ description: 'an oak' }), form({ image: file(Buffer.alloc(0)) }), form({ image: 'tree.jpg' })];
    for (const body of cases) await expectError(await post(body), 400, 'VALIDATION_ERROR', NO_PHOTO);
  });

  it('refuses two photos with 400', async () => {
    const jpeg = await sampleImage('jpeg');
    await expectError(await post(form({ image: [file(jpeg), file(jpeg)] })), 400, 'VALIDATION_ERROR', 'The image field was sent more than once.');
  });

  it('refuses a multipart body it cannot parse with 400', async () => {
    const res = await post('garbage without boundaries', { 'content-type': 'multipart/form-data; boundary=zzz' });
    await expectError(res, 400, 'VALIDATION_ERROR');
  });
});

describe('readUpload: the fields', () => {
  it.each([
    ['jpeg', 'image/jpeg'],
    ['png', 'image/png'],
    ['webp', 'image/webp'],
  ] as const)('reads a %s by its bytes, whatever its name says', async (format, type) => {
    const bytes = await sampleImage(format);
    const siteDetails = { targets: 'building', powerLines: true, access: 'side_gate' };
    const res = await post(
      form({
        image: file(bytes, 'photo.bin', 'application/octet-stream'),
        description: '  Large oak, about 60 ft  ',
        siteDetails: JSON.stringify(siteDetails),
        businessSlug: ' greenleaf-trees ',
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      bytes: bytes.length,
      type,
      description: 'Large oak, about 60 ft',
      siteDetails,
      treeDetails: null,
      measurement: null,
      // Nothing said about the size checks: the sizes are checked before a price.
      sizesConfirmed: false,
      businessSlug: 'greenleaf-trees',
      hasDescription: true,
    });
  });

  it('omits a blank description and reads no site details as {}', async () => {
    const res = await post(form({ image: file(await sampleImage('jpeg')), description: '   \n ', siteDetails: ' ' }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ hasDescription: false, siteDetails: {} });
    expect(body).not.toHaveProperty('businessSlug');
  });

  it('refuses site details that are not JSON, or not the site questions, with 400', async () => {
    const image = file(await sampleImage('jpeg'));
    await expectError(
      await post(form({ image, siteDetails: '{targets: building' })),
      400,
      'VALIDATION_ERROR',
      'Site details must be valid JSON',
    );
    const res = await post(form({ image, siteDetails: JSON.stringify({ targets: 'castle' }) }));
    expect(res.status).toBe(400);
    const body = errorBodySchema.parse(await res.json());
    expect(body.message).toMatch(/^Site details are not valid \(targets: /);
    expect(body.details?.siteDetails).toHaveLength(1);
  });

  it('reads tree details into whole feet and inches with their sources, recomputing a measurement', async () => {
    const measurement = DOOR_MEASUREMENT;
    const treeDetails = { species: 'English oak', diameter: { value: 45, unit: 'cm' }, measurement, heightFt: 999, sizes: 'ignored' };
    const res = await post(form({ image: file(await sampleImage('jpeg')), treeDetails: JSON.stringify(treeDetails) }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.treeDetails).toMatchObject({
      species: { name: 'Oak', kind: 'broadleaf', greenDensityKgM3: 1050 },
      // Typed wins over measured; the measurement gives the height (12 m = 39 ft).
      heightFt: { value: 39, source: 'measured' },
      dbhIn: { value: 18, source: 'user' },
      measured: { heightFt: 39, dbhIn: 20 },
    });
    expect(body.measurement).toEqual(measurement);
  });

  it('refuses tree details that are not JSON, not the contract, or not usable, with 400 and the reason', async () => {
    const image = file(await sampleImage('jpeg'));
    await expectError(await post(form({ image, treeDetails: '{height: 40' })), 400, 'VALIDATION_ERROR', 'Tree details must be valid JSON');
    const shape = await post(form({ image, treeDetails: JSON.stringify({ height: { value: 40, unit: 'yards' } }) }));
    expect(shape.status).toBe(400);
    const shapeBody = errorBodySchema.parse(await shape.json());
    expect(shapeBody.message).toMatch(/^Tree details are not valid \(height/);
    expect(shapeBody.details?.treeDetails?.length).toBeGreaterThan(0);
    const tiny = await post(
      form({
        image,
        treeDetails: JSON.stringify({
          measurement: { imageWidth: 100, imageHeight: 100, reference: { top: { x: 1, y: 1 }, bottom: { x: 1, y: 4 }, lengthM: 2, label: 'door' } },
        }),
      }),
    );
    await expectError(tiny, 400, 'VALIDATION_ERROR', /reference is too small/);
    const tooTall = await post(form({ image, treeDetails: JSON.stringify({ height: { value: 149, unit: 'm' } }) }));
    await expectError(tooTall, 400, 'VALIDATION_ERROR', /^Tree details are not valid \(height/);
    const shrub = await post(form({ image, treeDetails: JSON.stringify({ height: { value: 2, unit: 'ft' } }) }));
    await expectError(shrub, 400, 'VALIDATION_ERROR', /A height of 2 ft is not a tree we can quote for/);
  });

  it('refuses a description over 2000 characters with 400', async () => {
    const res = await post(form({ image: file(await sampleImage('jpeg')), description: 'a'.repeat(2001) }));
    await expectError(res, 400, 'VALIDATION_ERROR', 'Project details must be at most 2000 characters');
  });
});
