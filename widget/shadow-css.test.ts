import { describe, expect, it } from 'vitest';
import { remToPx, shadowSafeCss, unconditionalPropertyFallbacks } from './shadow-css';

// What Tailwind 4.3 emits for the @property fallbacks, as its optimiser prints it.
const GUARD =
  '@supports (((-webkit-hyphens:none)) and (not (margin-trim:inline))) or ((-moz-orient:inline) and (not (color:rgb(from red r g b))))';

describe('unconditionalPropertyFallbacks', () => {
  it('unwraps the minified guard and applies the fallbacks to :host as well', () => {
    const css = `@layer properties{${GUARD}{*,:before,:after,::backdrop{--tw-border-style:solid;--tw-shadow:0 0 #0000}}}.border{border-style:var(--tw-border-style)}`;
    expect(unconditionalPropertyFallbacks(css)).toBe(
      '@layer properties{:host,*,:before,:after,::backdrop{--tw-border-style:solid;--tw-shadow:0 0 #0000}}.border{border-style:var(--tw-border-style)}',
    );
  });

  it('handles the formatted form and an inherited-variables rule beside it', () => {
    const css = [
      '@layer properties {',
      '  @supports ((-webkit-hyphens: none) and (not (margin-trim: inline))) {',
      '    :root, :host {',
      '      --tw-inherited: 1;',
      '    }',
      '    *, ::before, ::after, ::backdrop {',
      '      --tw-ring-shadow: 0 0 #0000;',
      '      --tw-content: "";',
      '    }',
      '  }',
      '}',
    ].join('\n');
    const out = unconditionalPropertyFallbacks(css);
    expect(out).not.toContain('@supports');
    expect(out).toContain(':root, :host {');
    expect(out).toContain(':host,*, ::before, ::after, ::backdrop{');
    expect(out).toContain('--tw-content: "";');
  });

  it('keeps every other @supports block as it is', () => {
    const css =
      '.bg-black\\/50{background-color:#00000080}@supports (color:color-mix(in lab,red,red)){.bg-black\\/50{background-color:color-mix(in oklab,var(--color-black)50%,transparent)}}';
    expect(unconditionalPropertyFallbacks(css)).toBe(css);
  });
});

describe('remToPx', () => {
  it('converts declarations at a 16px base', () => {
    expect(remToPx(':host{--spacing:.25rem;--text-sm:0.875rem;margin:-1.5rem 2rem}')).toBe(
      ':host{--spacing:4px;--text-sm:14px;margin:-24px 32px}',
    );
  });

  it('converts inside calc() and at-rule preludes', () => {
    expect(remToPx('@media (width>=40rem){.a{width:calc(100% - 1rem)}}')).toBe(
      '@media (width>=640px){.a{width:calc(100% - 16px)}}',
    );
  });

  it('leaves selectors, words and strings alone', () => {
    const css = '.w-\\[2rem\\]{width:2rem}.lorem{content:"3rem";font-family:Premium}';
    expect(remToPx(css)).toBe('.w-\\[2rem\\]{width:32px}.lorem{content:"3rem";font-family:Premium}');
  });

  it('leaves em and px lengths alone', () => {
    expect(remToPx('.a{letter-spacing:.025em;border-width:1px}')).toBe('.a{letter-spacing:.025em;border-width:1px}');
  });
});

describe('shadowSafeCss', () => {
  it('applies both rewrites', () => {
    const css = `${GUARD}{*,:before,:after,::backdrop{--tw-space-x-reverse:0}}.p-4{padding:1rem}`;
    expect(shadowSafeCss(css)).toBe(':host,*,:before,:after,::backdrop{--tw-space-x-reverse:0}.p-4{padding:16px}');
  });
});
