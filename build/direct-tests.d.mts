/** The test files `npm run test:changed` runs for these changed files (build/direct-tests.mjs). */
export declare function git(...args: string[]): string;
export declare function directTests(files: string[]): string[];
