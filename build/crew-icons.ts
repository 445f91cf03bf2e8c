/*
 * The installable crew app's icons (build/dashboard-plugins.ts, the web app manifest), drawn from the
 * favicon's tree: 192 and 512 px for "Add to Home Screen", a maskable 512 px with the tree inside
 * the safe zone (the middle 80%), and Apple's 180 px touch icon. Run once when the mark changes:
 * `node --import tsx build/crew-icons.ts`; the PNGs are committed in dashboard/public/icons.
 */
import sharp from 'sharp';
import { fileURLToPath } from 'node:url';

const OUT = fileURLToPath(new URL('../dashboard/public/icons/', import.meta.url));
const TREE = '<path d="M16 5l-6 8h3.5L9 19h4.5L10 24h12l-3.5-5H23l-4.5-6H22z" fill="#fff"/><rect x="14.5" y="24" width="3" height="4" rx="1" fill="#fff"/>';

/** The tree on the brand green: rounded for "any", full-bleed with the tree at 70% for "maskable". */
function svg(maskable: boolean): string {
  const background = maskable ? '<rect width="32" height="32" fill="#166534"/>' : '<rect width="32" height="32" rx="7" fill="#166534"/>';
  const tree = maskable ? `<g transform="translate(4.8 4.8) scale(0.7)">${TREE}</g>` : TREE;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${background}${tree}</svg>`;
}

const icons: { name: string; size: number; maskable: boolean }[] = [
  { name: 'icon-192.png', size: 192, maskable: false },
  { name: 'icon-512.png', size: 512, maskable: false },
  { name: 'icon-maskable-512.png', size: 512, maskable: true },
  { name: 'apple-touch-icon-180.png', size: 180, maskable: true },
];

for (const icon of icons) {
  await sharp(Buffer.from(svg(icon.maskable)), { density: (72 * icon.size) / 32 })
    .resize(icon.size, icon.size)
    .png({ compressionLevel: 9 })
    .toFile(`${OUT}${icon.name}`);
  console.log(`dashboard/public/icons/${icon.name}`);
}
