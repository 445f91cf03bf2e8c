// `npm run test:e2e`: find the system's headless Chromium (installing it with apt when we are
// root), build the dashboard, widget and server bundle (what `npm run serve` runs), then run the Playwright browser tests in
// that Chromium. Extra arguments go to `playwright test`
// (e.g. `npm run test:e2e -- accounts.spec.ts`). Exits with Playwright's exit code.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HEADLESS_PACKAGE = 'chromium-headless-shell';
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_CHROMIUM = '/usr/bin/chromium';

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function fail(message) {
  console.error(`\ne2e: ${message}`);
  process.exit(1);
}

/**
 * The browser: CHROMIUM_PATH when set; else Debian's `chromium-headless-shell`, the headless-only
 * build Playwright itself runs headless tests in (no window system, about a quarter less CPU per
 * spec than the full browser on this box, measured in docs/testing.md); else the full `chromium`.
 * As root with apt, a missing headless shell is installed once (it persists), and a failed
 * install falls back to the full browser, so the tests run either way.
 */
function findChromium() {
  if (process.env.CHROMIUM_PATH) {
    if (isExecutable(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
    fail(
      `CHROMIUM_PATH=${process.env.CHROMIUM_PATH} is not an executable file. Point it at a Chromium or Chrome binary,\n` +
        `or unset it and install Chromium with: sudo apt-get install -y ${HEADLESS_PACKAGE}`,
    );
  }
  if (isExecutable(HEADLESS_SHELL)) return HEADLESS_SHELL;

  const isRoot = process.getuid?.() === 0;
  const aptGet = ['/usr/bin/apt-get', '/bin/apt-get'].find(isExecutable);
  if (isRoot && aptGet) {
    console.log(`e2e: installing Debian's "${HEADLESS_PACKAGE}" with apt-get (once: the browser tests' headless Chromium)...`);
    const install = () => spawnSync(aptGet, ['install', '-y', HEADLESS_PACKAGE], { stdio: 'inherit' }).status === 0;
    // A fresh container may have no package lists yet: update once and retry.
    const installed = install() || (spawnSync(aptGet, ['update'], { stdio: 'inherit' }).status === 0 && install());
    if (installed && isExecutable(HEADLESS_SHELL)) return HEADLESS_SHELL;
    console.log(`e2e: could not install ${HEADLESS_PACKAGE}; trying the full Chromium.`);
  }
  if (isExecutable(FULL_CHROMIUM)) return FULL_CHROMIUM;
  fail(
    `Chromium was not found at ${HEADLESS_SHELL} or ${FULL_CHROMIUM}. Install it with\n` +
      `    sudo apt-get install -y ${HEADLESS_PACKAGE}\n` +
      "or set CHROMIUM_PATH to a Chromium or Chrome binary. (Playwright's own browser download is not used.)",
  );
}

function build() {
  process.stdout.write('e2e: building dist/dashboard, dist/widget and dist/server (npm run build)... ');
  const started = Date.now();
  const result = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (result.status !== 0) {
    console.log('failed.');
    console.error(`${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`);
    fail('the build failed, so the browser tests were not run.');
  }
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  // The embed script's size matters to the sites that load it: keep its line visible.
  const sizeLines = `${result.stdout}${result.stderr}`.split('\n').filter((l) => /widget\.js/.test(l) && /kB|bytes|gzip/i.test(l));
  for (const line of sizeLines) console.log(`    ${line.trim()}`);
}

const chromium = findChromium();
console.log(`e2e: using Chromium at ${chromium}`);
// `npm test` (build/test-all.mjs) builds once before the browser and unit tests start.
if (process.env.E2E_BUILT === '1') console.log('e2e: using the build npm test made (E2E_BUILT=1).');
else build();

const cli = resolve(repoRoot, 'node_modules/@playwright/test/cli.js');
if (!existsSync(cli)) fail('@playwright/test is not installed: run `npm install` first.');

const child = spawn(process.execPath, [cli, 'test', ...process.argv.slice(2)], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
