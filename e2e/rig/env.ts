/** Environment variables global setup uses to tell the test workers where things are. */
export const E2E_ENV = {
  baseURL: 'E2E_BASE_URL',
  mailDir: 'E2E_MAIL_DIR',
  dataDir: 'E2E_DATA_DIR',
  dashboardBuild: 'E2E_DASHBOARD_BUILD',
  /** The mail catcher's SMTP port, for work a test runs as the server would (e2e/operator.ts). */
  smtpPort: 'E2E_SMTP_PORT',
} as const;

export function e2eEnv(key: keyof typeof E2E_ENV): string {
  const value = process.env[E2E_ENV[key]];
  if (!value) {
    throw new Error(`${E2E_ENV[key]} is not set: run the browser tests through playwright.config.ts (global setup).`);
  }
  return value;
}

/**
 * The fake forecast global setup starts (testing/fake-weather.ts): gusts to `gustMs` at this
 * postcode's centre (testing/fake-planning.ts FAKE_PLACES), the fake's calm 6 m/s anywhere else.
 * Only the Schedule page shows the weather (e2e/schedule.spec.ts).
 */
export const E2E_WEATHER = { windyPostcode: 'LS6 2AB', gustMs: 15 } as const;
