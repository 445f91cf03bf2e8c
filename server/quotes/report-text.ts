/**
 * pdfkit's built-in Helvetica is WinAnsi-encoded and prints garbage for anything else, and
 * species names, factors, company details and business names come from a model or a user.
 * Accents outside Latin-1 lose their mark, symbols and emoji are dropped, other letters become "?".
 */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const REPLACEMENTS: Record<string, string> = {
  '\t': ' ', 'Ł': 'L', 'ł': 'l', 'Đ': 'D', 'đ': 'd', 'Ħ': 'H', 'ħ': 'h', 'ı': 'i', '\u2010': '-', '\u2011': '-', '\u2212': '-',
  '≤': '<=', '≥': '>=', '≈': '~', '→': '->', '←': '<-', '′': "'", '″': '"',
};

function isWinAnsi(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(ch);
}

export function winAnsi(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    if (ch === '\n' || isWinAnsi(ch)) out += ch;
    else if (REPLACEMENTS[ch] !== undefined) out += REPLACEMENTS[ch];
    else if (/\p{Zs}/u.test(ch)) out += ' ';
    else {
      const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      if (base !== '' && [...base].every(isWinAnsi)) out += base;
      else if (!/[\p{S}\p{M}\p{C}\p{Z}]/u.test(ch)) out += '?';
    }
  }
  return out.trim();
}
