/** Types for build/layers.mjs, which eslint.config.js loads as plain JavaScript. */
export declare const SERVER_LAYERS: string[][];
export declare const SERVER_ENTRY_FILES: string[];
export declare function foldersAbove(folder: string): string[];
export declare function layerRestrictions(
  folder: string,
  extra?: { paths: unknown[]; patterns: unknown[] },
): { paths: unknown[]; patterns: unknown[] };
