import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Doc } from './report-layout';

/**
 * The job quote's typeface: Noto Sans, embedded, so a customer's name or address in any
 * European script prints as written ("Łukasz Wójcik", "Москва", "Αθήνα"). The standard PDF fonts
 * the one-tree report uses are WinAnsi only (report-text.ts turns the rest into "?").
 *
 * One file per weight covers Latin (with Latin Extended and Vietnamese), Greek and Cyrillic:
 * Google Fonts' static Noto Sans (4,503 glyphs), as the npm package @expo-google-fonts/noto-sans
 * ships it (SIL Open Font License 1.1, its LICENSE_FONT; the package's code is MIT). pdfkit embeds
 * only the glyphs a quote uses (fontkit subsetting), about 15 to 30 kB a weight.
 */
export const QUOTE_FONT = { regular: 'QuoteSans', bold: 'QuoteSans-Bold' } as const;

const FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
};

interface QuoteFontFiles {
  regular: Buffer;
  bold: Buffer;
}

/** Found through node_modules from this file (also from the bundled dist/server), read once per process. */
let files: Promise<QuoteFontFiles> | undefined;
function loadFontFiles(): Promise<QuoteFontFiles> {
  const require = createRequire(import.meta.url);
  return (files ??= Promise.all([readFile(require.resolve(FILES.regular)), readFile(require.resolve(FILES.bold))]).then(([regular, bold]) => ({ regular, bold })));
}

/**
 * Each weight's decoded font tables (cmap, hmtx, GSUB, GPOS and the rest), decoded once per
 * process and shared by every document after the first. pdfkit parses the font file afresh for
 * each document (fontkit.create), and decoding Noto Sans's tables was most of a quote's render:
 * a page of 41 lines took about 200 ms to lay out, 25 to 40 ms with the tables shared, and the
 * PDF came out byte for byte the same (job-quote-font.test.ts checks it). Only the tables are
 * shared: each document keeps its own fontkit font, with its own glyph cache and subset, so what
 * one quote printed cannot leak into another's text layer (sharing the whole font object did:
 * fontkit keeps a glyph's first code points). The tables are only read once decoded; their lazy
 * parts decode from the shared font's own stream, saving and restoring its position.
 */
const sharedTables = new Map<string, object>();

/** The fontkit font under a pdfkit document's current font, through pdfkit's and fontkit's own fields. */
interface FontInternals {
  _font?: { font?: { _tables?: unknown } };
}

function shareDecodedTables(doc: Doc, name: string): void {
  doc.font(name);
  const font = (doc as unknown as FontInternals)._font?.font;
  // Another pdfkit or fontkit may hold its tables elsewhere: then each document decodes its own, as before.
  if (!font || typeof font._tables !== 'object' || font._tables === null) return;
  const shared = sharedTables.get(name);
  if (shared) font._tables = shared;
  else sharedTables.set(name, font._tables);
}

/** Registers both weights on a new document under QUOTE_FONT's names, and starts it in the regular one. */
export async function useQuoteFonts(doc: Doc): Promise<void> {
  const { regular, bold } = await loadFontFiles();
  doc.registerFont(QUOTE_FONT.regular, regular);
  doc.registerFont(QUOTE_FONT.bold, bold);
  shareDecodedTables(doc, QUOTE_FONT.bold);
  shareDecodedTables(doc, QUOTE_FONT.regular);
}

/**
 * Text as the quote prints it: composed (NFC, so a letter typed with a combining accent uses the
 * font's own accented glyph), control and format characters and emoji (the font has no colour
 * glyphs) left out, tabs and other spaces as one space, each line trimmed; line breaks kept.
 */
export function quoteText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Emoji_Presentation}\uFE0F]/gu, (ch) => (ch === '\n' ? ch : ch === '\t' ? ' ' : ''))
    .replace(/[ \p{Zs}]+/gu, ' ')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .trim();
}
