import { DomainError } from '../../core/errors';
import { readImageSize } from '../../core/image-header';
import { imageShapeProblem, type ImageUse } from '../../core/image-shape';
import type { AcceptedImageType } from '../../core/upload-rules';

/**
 * Refuses an image by its header alone, before anything decodes it (core/image-shape.ts; the
 * header read by core/image-header.ts readImageSize, which fails closed): an unreadable header
 * is a 400 in words; too many pixels on a side or in all is 413 PAYLOAD_TOO_LARGE, as the
 * pixel-flood guard has always answered; a shape no photo or logo has (too long for its width)
 * is not too large, so 400 VALIDATION_ERROR. `type` is the one core/image-header.ts
 * detectImageType found in the bytes; `field` names the form field for the details.
 */
export function refuseImageShape(bytes: Uint8Array, type: AcceptedImageType, use: ImageUse, field: string): void {
  const problem = imageShapeProblem(readImageSize(bytes, type) ?? { width: 0, height: 0 }, use);
  if (!problem) return;
  const code = problem.kind === 'edge' || problem.kind === 'pixels' ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR';
  throw new DomainError(code, problem.message, code === 'VALIDATION_ERROR' ? { details: { [field]: [problem.message] } } : {});
}
