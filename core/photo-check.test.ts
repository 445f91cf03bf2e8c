import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from './analysis';
import { formatFileSize, photoProblem } from './photo-check';

describe('photoProblem', () => {
  it('accepts JPEG, PNG and WebP up to 10 MB', () => {
    expect(photoProblem({ name: 'oak.jpg', type: 'image/jpeg', size: MAX_UPLOAD_BYTES })).toBeNull();
    expect(photoProblem({ name: 'oak.png', type: 'image/png', size: 1000 })).toBeNull();
    expect(photoProblem({ name: 'oak.webp', type: 'image/webp', size: 1000 })).toBeNull();
  });

  it('decides by extension when the browser gives no type', () => {
    expect(photoProblem({ name: 'oak.JPEG', type: '', size: 1000 })).toBeNull();
    expect(photoProblem({ name: 'oak.heic', type: '', size: 1000 })).toMatch(/not a supported image/);
  });

  it('refuses other types and files over 10 MB', () => {
    expect(photoProblem({ name: 'oak.gif', type: 'image/gif', size: 1000 })).toBe(
      '"oak.gif" is not a supported image. Please choose a JPEG, PNG or WebP photo.',
    );
    expect(photoProblem({ name: 'big.jpg', type: 'image/jpeg', size: MAX_UPLOAD_BYTES + 1 })).toBe(
      '"big.jpg" is 10.1 MB. The maximum file size is 10MB.',
    );
    expect(photoProblem({ name: 'empty.jpg', type: 'image/jpeg', size: 0 })).toMatch(/is empty/);
  });
});

describe('formatFileSize', () => {
  it('shows KB under a megabyte and MB to one decimal above', () => {
    expect(formatFileSize(300 * 1024)).toBe('300 KB');
    expect(formatFileSize(2.5 * 1024 * 1024)).toBe('2.5 MB');
  });
});
