import sharp from 'sharp';

/**
 * A company logo for tests, drawn from shapes only (no fonts needed): a green roundel with a
 * tree and a wordmark bar, 900 x 300 so the upload has to shrink it to 600 x 200.
 */
export function testLogoSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="300" viewBox="0 0 900 300">
  <circle cx="150" cy="150" r="130" fill="#2e6b3a"/>
  <polygon points="150,45 225,185 75,185" fill="#dcefd9"/>
  <rect x="138" y="185" width="24" height="60" fill="#8a5a2b"/>
  <rect x="320" y="95" width="520" height="56" rx="10" fill="#2e6b3a"/>
  <rect x="320" y="175" width="380" height="30" rx="8" fill="#8a9a8d"/>
</svg>`;
}

export async function testLogoPng(): Promise<Buffer> {
  return sharp(Buffer.from(testLogoSvg())).png().toBuffer();
}

/** The multipart body of POST /api/system-settings/logo, as the Settings page sends it. */
export function logoForm(bytes: Buffer, type = 'image/png', name = 'logo.png'): FormData {
  const form = new FormData();
  form.append('logo', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

/** A company profile as a contractor types it (the VAT number in lower case, without spaces). */
export const TEST_PROFILE = {
  tradingName: 'Oak & Ash Tree Care Ltd',
  phone: '01632 960 123',
  email: 'office@oakandash.co.uk',
  address: 'Unit 4, Mill Lane\nHebden Bridge\nHX7 8AB',
  vatNumber: 'gb 123456789',
  quoteValidityDays: 14,
};
