import type nodemailer from 'nodemailer';

/**
 * nodemailer loads with the first e-mail, not at start (start-up time and idle
 * memory; docs/performance.md, Server start-up): most processes send none for hours. Once per process, for both mailers.
 */
let loaded: Promise<typeof nodemailer> | undefined;
export const loadNodemailer = () => (loaded ??= import('nodemailer').then((module) => module.default));
