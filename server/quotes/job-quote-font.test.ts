import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { QUOTE_FONT, useQuoteFonts } from './job-quote-font';
import type { Doc } from './report-layout';

/*
 * The quote font's decoded tables are shared between documents (job-quote-font.ts): a document
 * made after others must come out byte for byte as one made with its own fresh font, in every
 * script the quote prints, and its text layer must read back as written.
 */
const require = createRequire(import.meta.url);
const FILES = {
  regular: readFileSync(require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf')),
  bold: readFileSync(require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf')),
};

const LINES = [
  ['Fell the leaning ash and grind the stump: £1,234.56 inc VAT', 'Łukasz Wójcik, ul. Długa 5, Gdańsk'],
  ['Москва, ул. Тверская 12', 'Αθήνα, Ερμού 3 — fi ffl ligatures: office, shuffle'],
  ['Crown reduce the oak by 2 m (Ø 60 cm)', 'Nguyễn Văn Ánh, Hà Nội'],
];

/** A small quote-like document: fixed date, no compression, so equal documents are equal bytes. */
async function render(lines: readonly string[], fonts: 'shared' | 'fresh'): Promise<Buffer> {
  const doc: Doc = new PDFDocument({ size: 'A4', compress: false, info: { CreationDate: new Date(0) } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  if (fonts === 'shared') await useQuoteFonts(doc);
  else {
    doc.registerFont(QUOTE_FONT.regular, FILES.regular);
    doc.registerFont(QUOTE_FONT.bold, FILES.bold);
    doc.font(QUOTE_FONT.bold);
    doc.font(QUOTE_FONT.regular);
  }
  doc.font(QUOTE_FONT.bold).fontSize(14).text(lines[0]!);
  doc.font(QUOTE_FONT.regular).fontSize(10).text(lines[1]!);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

describe('the quote font, its tables shared between documents', () => {
  it('makes each document exactly as a fresh font does, whatever the documents before it printed', async () => {
    for (const lines of LINES) await render(lines, 'shared');
    for (const lines of [...LINES].reverse()) {
      const shared = await render(lines, 'shared');
      expect(shared.equals(await render(lines, 'fresh')), lines.join(' / ')).toBe(true);
      const { text } = await extractText(await getDocumentProxy(new Uint8Array(shared)), { mergePages: true });
      for (const line of lines) expect(text.replace(/\s+/g, ' ')).toContain(line.replace(/\s+/g, ' '));
    }
  });
});
