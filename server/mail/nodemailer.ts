import type nodemailer from 'nodemailer';

/**
 * nodemailer loads with the first e-mail, not at start (issue 10: start-up time and idle
 * memory): most processes send none for hours. Once per process, for both mailers.
 */
let loaded: Promise<typeof nodemailer> | undefined;
export const loadNodemailer = () => (loaded ??= import('nodemailer').then((module) => module.default));
