import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { CHROMIUM_FLAGS } from '../e2e/chromium-flags';
import { phonePhoto, PHONE, WEB_PHOTO } from '../e2e/phone-photo';
import { normaliseImage } from '../server/images/normalise';
import { fixturePhoto } from '../testing/images';
import { cpuMsOf, ROOT, writeSection } from './lib';

/**
 * A phone photo's time to a price in the widget on a slow phone network (docs/performance.md,
 * docs/product.md, The photo on its way). Real Chromium (Debian's, e2e/chromium-flags.ts) on a
 * business's /embed page, served by the real app with the production build; the page's network
 * emulated at slow 4G (1.6 Mbps down, 750 kbps up, 150 ms round trip: Lighthouse's mobile
 * throttling, lighthouse core/config/constants.js) and its CPU slowed 4x. Each run is a fresh
 * page: the photo is chosen (setInputFiles), "Get my price" pressed at once, and the clock stops
 * when the price shows ("Your guide price"). Pressing at once is the worst case and the goal's
 * figure; a second pair of rows waits ANSWERING_MS between choosing and pressing, as a visitor
 * answering the questions does, which hides the shrinking behind them (timed from the press).
 *   - phone: a 12-megapixel photo as a phone saves it (e2e/phone-photo.ts: 3024 x 4032, EXIF
 *     orientation 6 and GPS, 2.5 MB);
 *   - web: a web-sized photo, the 154 KB fixture it was made from (450 x 600).
 * Runs take turns, RUNS of each; the median counts. Goal: phone within 2x web (it was 8.8x,
 * 28.2 s against 3.2 s, when the photo went as taken).
 * The server's share: its CPU per estimate over the runs (/proc/<pid>/stat), and its image work
 * (server/images/normalise.ts normaliseImage) timed in this process on the 12 MP original (what it
 * received before), on 2048 and 1600 px copies (what the first two shrinkings sent, made here with
 * sharp), on the copy the browser sent now (kept as it came, server/images/clean-jpeg.ts), and on
 * the web photo as chosen and as the browser sent it.
 * Run: npm run bench -- phone-photo. Writes bench/results/phone-photo.md.
 */

const RUNS = Number(process.env.BENCH_PHONE_RUNS ?? 3);
const IMAGE_RUNS = 8;
/** Lighthouse's mobile throttling (lighthouse core/config/constants.js, mobileSlow4G), as the brief measured. */
const SLOW_4G = { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const CPU_SLOWDOWN = 4;
const GOAL_RATIO = 2;
/** Sent as taken (the brief's figures), then shrunk to 2048 px in the browser (commit 3e99f2a's run). */
const BEFORE = { phone: 28.2, web: 3.2 };
const AT_2048 = { phone: 24.8, web: 4.5 };
/** At 1600 px, re-encoded twice on the server (commit 5be1590's run). */
const AT_1600 = { phone: 10.2, web: 4.3 };
/** A visitor answering the questions between choosing the photo and pressing. */
const ANSWERING_MS = 10_000;
/** Above this the box's other work slows every figure (2 cores): said beside them. */
const BUSY_LOAD = 6;

const CHROME_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DASHBOARD_DIR = join(ROOT, 'dist/dashboard');
const WIDGET_DIR = join(ROOT, 'dist/widget');

/** The child: the real app on a temp DATA_DIR serving the build, a business whose owner has credits; prints its URL and slug. */
async function serve(): Promise<void> {
  const { registerClient, startTestServer } = await import('../testing/harness');
  const { grantTo } = await import('../testing/analysis');
  const { looseEmbedLimits } = await import('../testing/business');
  // One address makes every run here (15 estimates): the visitor's hourly limit of 10 is lifted, as for a busy office's shared line.
  const server = await startTestServer({}, { dashboardDir: DASHBOARD_DIR, widgetDir: WIDGET_DIR, rateLimits: looseEmbedLimits() });
  const { client, account } = await registerClient(server);
  grantTo(server, account.username, 100_000);
  const slug = `phone-bench-${process.pid}`;
  const res = await client.post('/api/businesses', { name: 'Phone Bench Trees', slug, hourlyRate: '40.00', aiInstructions: null });
  if (res.status !== 201) throw new Error(`business: ${res.status} ${await res.text()}`);
  console.log(JSON.stringify({ url: server.url, slug }));
  for await (const line of createInterface({ input: process.stdin })) void line;
  await server.close();
}

function ensureBuilt(): void {
  if (existsSync(join(DASHBOARD_DIR, '.vite/manifest.json')) && existsSync(join(WIDGET_DIR, 'widget.js'))) return;
  console.log('dist/ is missing: npm run build');
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

interface Photo {
  label: 'phone' | 'web';
  name: string;
  bytes: Buffer;
  /**
   * The photo as a file on disk, chosen by its path: the browser reads it itself, as from a
   * phone's picker. Chosen as a buffer, Playwright would carry it into the page as base64 and
   * build the File in the page's JavaScript, on the main thread slowed 4x: for the 2.5 MB photo
   * that alone kept the page busy for seconds no visitor ever waits.
   */
  path: string;
}

interface Run {
  /** From choosing the photo (setInputFiles) to the price shown. */
  seconds: number;
  /** From pressing "Get my price" to the price shown. */
  afterPress: number;
  /** From choosing to the request leaving: the shrinking (and, for both, the page's own work). */
  toRequest: number;
  sentBytes: number | undefined;
  serverCpuMs: number;
}

/** One visitor: a fresh page on the embed, throttled, the photo chosen and sent after `answeringMs`, until the price shows. */
async function timeToPrice(browser: Browser, url: string, photo: Photo, serverPid: number, answeringMs = 0): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  let sentBytes: number | undefined;
  let requestAt = Number.NaN;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/analyze-tree') {
      requestAt = performance.now();
      const body = request.postDataBuffer();
      if (body) sentBytes = body.length;
    }
  });
  await page.goto(url);
  const element = page.locator('tree-estimator');
  await element.getByRole('heading', { name: 'Get a guide price for your tree' }).waitFor({ timeout: 30_000 });
  await throttle(page);
  const cpuBefore = cpuMsOf(serverPid);
  const start = performance.now();
  await element.locator('input[type="file"]').setInputFiles(photo.path, { timeout: 60_000 });
  if (answeringMs > 0) await page.waitForTimeout(Math.max(0, answeringMs - (performance.now() - start)));
  const pressed = performance.now();
  await element.getByRole('button', { name: 'Get my price' }).click({ timeout: 60_000 });
  try {
    await element.getByRole('heading', { name: 'Your guide price' }).waitFor({ timeout: 120_000 });
  } catch (error) {
    // What the visitor saw instead of a price, for the log.
    throw new Error(`${photo.label}: no price; the widget says: ${(await element.innerText().catch(() => '?')).slice(0, 600)}`, { cause: error });
  }
  const end = performance.now();
  const serverCpuMs = cpuMsOf(serverPid) - cpuBefore;
  await context.close();
  return { seconds: (end - start) / 1000, afterPress: (end - pressed) / 1000, toRequest: (requestAt - start) / 1000, sentBytes, serverCpuMs };
}

async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...SLOW_4G });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
}

/** The photo the browser sends for `photo`, caught on its way (unthrottled, untimed). */
async function sentCopy(browser: Browser, url: string, photo: Photo): Promise<Buffer> {
  const page = await browser.newPage();
  let copy: Buffer | undefined;
  await page.route(
    (u) => u.pathname === '/api/analyze-tree',
    async (route) => {
      const body = route.request().postDataBuffer();
      const boundary = /boundary=(.+)$/.exec(route.request().headers()['content-type'] ?? '')?.[1];
      if (body && boundary) {
        const start = body.indexOf('\r\n\r\n', body.indexOf('name="image"')) + 4;
        copy = Buffer.from(body.subarray(start, body.indexOf(`\r\n--${boundary}`, start)));
      }
      await route.continue();
    },
  );
  await page.goto(url);
  const element = page.locator('tree-estimator');
  await element.locator('input[type="file"]').setInputFiles(photo.path, { timeout: 60_000 });
  await element.getByRole('button', { name: 'Get my price' }).click({ timeout: 60_000 });
  await element.getByRole('heading', { name: 'Your guide price' }).waitFor({ timeout: 120_000 });
  await page.close();
  if (!copy) throw new Error('the analysis request carried no image');
  return copy;
}

/** CPU ms of normaliseImage (the server's image work for one analysis), median of IMAGE_RUNS after one warm-up. */
async function imageWorkMs(bytes: Buffer): Promise<number> {
  await normaliseImage(bytes);
  const times: number[] = [];
  for (let i = 0; i < IMAGE_RUNS; i += 1) {
    const before = process.cpuUsage();
    await normaliseImage(bytes);
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  return median(times);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const kB = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

type Case = 'phone' | 'web' | 'phone, answering' | 'web, answering';

async function main(): Promise<void> {
  ensureBuilt();
  const photosDir = mkdtempSync(join(tmpdir(), 'phone-photo-bench-'));
  const onDisk = (label: Photo['label'], name: string, bytes: Buffer): Photo => {
    const path = join(photosDir, name);
    writeFileSync(path, bytes);
    return { label, name, bytes, path };
  };
  const phone = onDisk('phone', 'IMG_0042.JPG', await phonePhoto());
  const web = onDisk('web', WEB_PHOTO, fixturePhoto(WEB_PHOTO));
  const loadAtStart = loadavg()[0]!;

  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/phone-photo.bench.ts'), '--serve'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const { url, slug } = await new Promise<{ url: string; slug: string }>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as { url: string; slug: string }));
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before answering`)));
  });
  const embed = `${url}/embed/${slug}`;

  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROMIUM_FLAGS });
  const cases: { name: Case; photo: Photo; answeringMs: number }[] = [
    { name: 'phone', photo: phone, answeringMs: 0 },
    { name: 'web', photo: web, answeringMs: 0 },
    { name: 'phone, answering', photo: phone, answeringMs: ANSWERING_MS },
    { name: 'web, answering', photo: web, answeringMs: ANSWERING_MS },
  ];
  const runs = Object.fromEntries(cases.map((c) => [c.name, [] as Run[]])) as Record<Case, Run[]>;
  let copy: Buffer;
  let webCopy: Buffer;
  try {
    copy = await sentCopy(browser, embed, phone);
    webCopy = await sentCopy(browser, embed, web);
    // One unmeasured visit warms the server and the browser's cache of the widget alike.
    await timeToPrice(browser, embed, web, child.pid!);
    for (let i = 0; i < RUNS; i += 1) {
      for (const { name, photo, answeringMs } of cases) {
        const run = await timeToPrice(browser, embed, photo, child.pid!, answeringMs);
        console.log(`${name}: ${run.seconds.toFixed(1)} s (${run.afterPress.toFixed(1)} s after the press, request after ${run.toRequest.toFixed(1)} s), sent ${run.sentBytes ?? '?'} bytes, server CPU ${run.serverCpuMs} ms`);
        runs[name].push(run);
      }
    }
  } finally {
    await browser.close();
    child.stdin!.end();
    child.kill();
    rmSync(photosDir, { recursive: true, force: true });
  }
  const loadAtEnd = loadavg()[0]!;

  const copyMeta = await sharp(copy).metadata();
  const copyOfWeb = await sharp(webCopy).metadata();
  const atEdge = (edge: number, quality: number) => sharp(phone.bytes).rotate().resize(edge, edge, { fit: 'inside' }).jpeg({ quality }).toBuffer();
  const [originalMs, at2048Ms, at1600Ms, copyMs, webMs, webCopyMs] = [
    await imageWorkMs(phone.bytes),
    await imageWorkMs(await atEdge(2048, 85)),
    await imageWorkMs(await atEdge(1600, 80)),
    await imageWorkMs(copy),
    await imageWorkMs(web.bytes),
    await imageWorkMs(webCopy),
  ];
  const cores = availableParallelism();
  const perSecond = (ms: number) => ((cores * 1000) / ms).toFixed(0);

  const med = (name: Case, pick: (r: Run) => number) => median(runs[name].map(pick));
  const ratio = med('phone', (r) => r.seconds) / med('web', (r) => r.seconds);
  const answeringRatio = med('phone, answering', (r) => r.afterPress) / med('web, answering', (r) => r.afterPress);
  const met = ratio <= GOAL_RATIO;
  const row = (name: Case, chosen: string, sent: string) =>
    `| ${name} | ${chosen} | ${sent} | **${med(name, (r) => r.seconds).toFixed(1)} s** (${runs[name].map((r) => r.seconds.toFixed(1)).join(', ')}) | ${med(name, (r) => r.afterPress).toFixed(1)} s | ${med(name, (r) => r.toRequest).toFixed(1)} s | ${med(name, (r) => r.serverCpuMs)} ms |`;
  const chromiumVersion = spawnSync(CHROME_PATH, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const phoneChosen = `${PHONE.width} x ${PHONE.height}, EXIF orientation 6, GPS, ${kB(phone.bytes.length)}`;
  const phoneSent = `${copyMeta.width} x ${copyMeta.height}, no metadata, ${kB(copy.length)}`;
  const webChosen = `450 x 600, ${kB(web.bytes.length)}`;
  const webSent = `${copyOfWeb.width} x ${copyOfWeb.height}, no metadata, ${kB(webCopy.length)}`;
  const busy = Math.max(loadAtStart, loadAtEnd) > BUSY_LOAD
    ? `\n**The box was busy**: load average ${loadAtStart.toFixed(1)} at the start and ${loadAtEnd.toFixed(1)} at the end on ${cores} cores (other engineers' work), so every absolute time here is slower than on a quiet box; the cases take turns, so their ratio is the figure to read.\n`
    : '';

  const body = `Goal: a 12-megapixel phone photo reaches a price within ${GOAL_RATIO}x the time of a web-sized one on slow 4G; sent as taken it
took ${BEFORE.phone} s against ${BEFORE.web} s (${(BEFORE.phone / BEFORE.web).toFixed(1)}x), shrunk to 2048 px on the device ${AT_2048.phone} s against ${AT_2048.web} s (${(AT_2048.phone / AT_2048.web).toFixed(1)}x),
to 1600 px ${AT_1600.phone} s against ${AT_1600.web} s (${(AT_1600.phone / AT_1600.web).toFixed(1)}x).
\`bench/phone-photo.bench.ts\`: ${chromiumVersion} on a business's \`/embed\` page (the real app serving the production build, local
provider), network emulated at 1.6 Mbps down / 750 kbps up / 150 ms, CPU slowed ${CPU_SLOWDOWN}x. "Time to price" runs from choosing the
photo (by its path, as a phone's picker hands it over) to "Your guide price" shown; in the first two rows "Get my price" is pressed at once (the worst case, and the goal's figure),
in the last two after ${ANSWERING_MS / 1000} s of answering the questions, which the shrinking overlaps. ${RUNS} runs of each case in turns, the
median in bold; "request leaves" is when the upload starts (for the phone photo, after the shrinking); "server CPU" is the
server process's CPU over the whole estimate.
${busy}
| Case | Chosen | Sent | Time to price | After the press | Request leaves | Server CPU |
| --- | --- | --- | ---: | ---: | ---: | ---: |
${row('phone', phoneChosen, phoneSent)}
${row('web', webChosen, webSent)}
${row('phone, answering', phoneChosen, phoneSent)}
${row('web, answering', webChosen, webSent)}

**Phone / web, pressed at once: ${ratio.toFixed(1)}x** (was ${(BEFORE.phone / BEFORE.web).toFixed(1)}x as taken, ${(AT_2048.phone / AT_2048.web).toFixed(1)}x at 2048 px, ${(AT_1600.phone / AT_1600.web).toFixed(1)}x at 1600 px): ${met ? 'goal met' : `**goal of ${GOAL_RATIO}x missed**`}.
After ${ANSWERING_MS / 1000} s of answering, from the press to the price: ${answeringRatio.toFixed(1)}x.

How the copy is made (measured apart when it was 1600 px, in the same Chromium on a blank page, CPU slowed 4x, 5 runs each in turns, load average 14-17,
medians; the 12 MP photo to a 1200 x 1600 JPEG at 0.8): decoded whole by \`createImageBitmap\` and drawn smaller 3.5 s;
\`createImageBitmap\` with \`resizeHeight\` (it decodes whole, then scales) 3.5 s; WebCodecs \`ImageDecoder\` asked for 1600 x 1200 (it
decoded the JPEG at 3/8 scale, 1512 x 1134) and drawn **1.7 s**, kept; the code asks for the smallest n/8 scale that still covers the
edge sent, so the copy is never enlarged: for the 1024 px copy that is the same 3/8 scale, and the rows above were made with it (\`core/photo-shrink.ts\`, sizes read by
\`core/image-header.ts\`). The same at WebP 0.8: 386 KB against 456 KB, but 2.6 s against 1.7 s to make, so JPEG is kept.

Server image work per analysis (\`normaliseImage\`, median of ${IMAGE_RUNS}, CPU in this process), and what it allows on this box's ${cores} cores by image work alone:

| Received | Image work | Analyses/s by image work |
| --- | ---: | ---: |
| the 12 MP original (sent as taken) | ${originalMs.toFixed(0)} ms | ${perSecond(originalMs)} |
| a 1536 x 2048 copy (the first shrinking; made here with sharp, quality 85) | ${at2048Ms.toFixed(0)} ms | ${perSecond(at2048Ms)} |
| a 1200 x 1600 copy (the second; sharp, quality 80) | ${at1600Ms.toFixed(0)} ms | ${perSecond(at1600Ms)} |
| **the browser's copy now** (${copyMeta.width} x ${copyMeta.height}, kept as it came) | **${copyMs.toFixed(0)} ms** | **${perSecond(copyMs)}** |
| the web photo as chosen (450 x 600, re-encoded) | ${webMs.toFixed(0)} ms | ${perSecond(webMs)} |
| the browser's copy of the web photo (kept as it came) | ${webCopyMs.toFixed(0)} ms | ${perSecond(webCopyMs)} |
`;
  writeSection('phone-photo', 'Phone photos: time to a price on slow 4G, and the server\'s work', body);
  console.log(body);
  if (!met) {
    console.error(`phone-photo: phone/web ${ratio.toFixed(1)}x, goal ${GOAL_RATIO}x`);
    process.exitCode = 1;
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
