import { describe, expect, it } from 'vitest';
import { firstLoadFiles, type Manifest } from './first-load';

describe('firstLoadFiles', () => {
  const manifest: Manifest = {
    'index.html': { file: 'assets/index-1.js', imports: ['_ui.js', '_runtime.js'], css: ['assets/index-1.css'] },
    '_ui.js': { file: 'assets/ui-2.js', imports: ['_runtime.js'], css: ['assets/ui-2.css'] },
    '_runtime.js': { file: 'assets/runtime-3.js' },
    'pages/home.tsx': { file: 'assets/home-4.js', imports: ['_ui.js'] },
  };

  it('takes the page, its entry, the static imports transitively and their CSS, once each', () => {
    expect(firstLoadFiles(manifest).sort()).toEqual(
      ['index.html', 'assets/index-1.js', 'assets/index-1.css', 'assets/ui-2.js', 'assets/ui-2.css', 'assets/runtime-3.js'].sort(),
    );
  });

  it('leaves out lazily loaded pages', () => {
    expect(firstLoadFiles(manifest)).not.toContain('assets/home-4.js');
  });

  it('adds a lazily loaded page and its imports when asked, without repeating shared files', () => {
    const files = firstLoadFiles(manifest, 'index.html', ['pages/home.tsx']);
    expect(files).toContain('assets/home-4.js');
    expect(files.filter((f) => f === 'assets/ui-2.js')).toHaveLength(1);
  });

  it('says so when the manifest lacks a chunk it names', () => {
    expect(() => firstLoadFiles({ 'index.html': { file: 'a.js', imports: ['_gone.js'] } })).toThrow(/_gone\.js/);
  });
});
