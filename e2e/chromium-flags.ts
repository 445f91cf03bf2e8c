/**
 * The flags Debian's Chromium runs with, here and in the front-end bench (Lighthouse): no
 * sandbox in a container, no GPU, and none of the browser's own background traffic (updates,
 * sync, QUIC), which this box cannot reach and which would skew the timings.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
