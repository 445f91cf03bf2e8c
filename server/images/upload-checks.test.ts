import { describe, expect, it } from 'vitest';
import { DomainError } from '../../core/errors';
import { detectImageType } from '../../core/image-header';
import { fixturePhoto, pixelFlood } from '../../testing/images';
import { refuseImageShape } from './upload-checks';

function refusal(bytes: Buffer, use: 'photo' | 'logo' = 'photo'): DomainError {
  try {
    refuseImageShape(bytes, detectImageType(bytes)!, use, 'image');
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('refuseImageShape', () => {
  it('passes a real photo and refuses the bombs as too large (413), before any decode', () => {
    expect(() => refuseImageShape(fixturePhoto('elm-open-ground.jpg'), 'image/jpeg', 'photo', 'image')).not.toThrow();
    for (const bomb of [pixelFlood(1, 39_000_000), pixelFlood(39_000_000, 1), pixelFlood()]) {
      const error = refusal(bomb);
      expect(error.status).toBe(413);
      expect(error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(error.message).toMatch(/at most 12,000 pixels on each side/);
    }
  });

  it('refuses a shape no photo has with 400 naming the field, and an unreadable header with 400', () => {
    const narrow = refusal(pixelFlood(100, 9000));
    expect(narrow.status).toBe(400);
    expect(narrow.details).toEqual({ image: [narrow.message] });
    expect(narrow.message).toMatch(/at most 8 times its short side/);
    const unreadable = refusal(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40)]));
    expect(unreadable.status).toBe(400);
    expect(unreadable.message).toBe("We couldn't read that image. Please upload a JPEG, PNG or WebP photo.");
  });

  it('holds a logo to the logo limits', () => {
    expect(refusal(pixelFlood(4032, 3024), 'logo').status).toBe(413);
    expect(() => refuseImageShape(pixelFlood(4032, 3024), 'image/png', 'photo', 'image')).not.toThrow();
  });
});
