/** What `npm test` says failed at its end (build/test-report.mjs). */
export declare function readReport(file: string): unknown;
export declare function failedTests(vitest: unknown, playwright: unknown, cwd?: string): string[];
export declare function failureLines(lines: string[]): string[];
