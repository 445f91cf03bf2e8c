import type sharpModule from 'sharp';

/**
 * sharp (libvips) loads with the first image a request brings, not at start (it is
 * about 0.3 s and 25 MB of the start-up, measured on the 2-core bench box, for a server
 * that may take no photo for hours); once per process, for every module that decodes.
 */
let loaded: Promise<typeof sharpModule> | undefined;
export const loadSharp = () => (loaded ??= import('sharp').then((module) => module.default));
