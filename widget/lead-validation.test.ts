import { describe, expect, it } from 'vitest';
import { leadInputSchema } from '../core/business';
import { CONTACT_METHODS, EMAIL_FOR_EMAIL, PHONE_FOR_CALL, type ContactMethod } from '../core/contact-preference';
import { LEAD_LIMITS } from '../core/embed';
import { CONTACT_REQUIRED, errorsFromDetails, validateLead, type LeadErrors, type LeadFields } from './lead-validation';

const empty = { name: '', email: '', phone: '', note: '', postcode: 'LS6 2AB', address: '' };

describe('validateLead', () => {
  it('needs a name and an e-mail or a phone', () => {
    expect(validateLead(empty)).toEqual({ name: 'Name is required', email: CONTACT_REQUIRED });
    expect(validateLead({ ...empty, name: '  Jo ', phone: '07700 900123' })).toEqual({});
    expect(validateLead({ ...empty, name: 'Jo', email: 'jo@example.com' })).toEqual({});
  });

  it('checks the e-mail and phone that are given', () => {
    expect(validateLead({ ...empty, name: 'Jo', email: 'jo@example' }).email).toBe('Please enter a valid email address');
    expect(validateLead({ ...empty, name: 'Jo', phone: '12345' }).phone).toBe('Please enter a valid phone number');
    expect(validateLead({ ...empty, name: 'Jo', phone: 'call me' }).phone).toBe('Please enter a valid phone number');
    expect(validateLead({ ...empty, name: 'Jo', phone: '+44 (0)20 7946-0958' })).toEqual({});
  });

  it('needs the detail for the way the visitor chose to hear back', () => {
    expect(validateLead({ ...empty, name: 'Jo', email: 'jo@example.com' }, { contactMethod: 'phone' })).toEqual({ phone: PHONE_FOR_CALL });
    expect(validateLead({ ...empty, name: 'Jo', phone: '07700 900123' }, { contactMethod: 'email' })).toEqual({ email: EMAIL_FOR_EMAIL });
    expect(validateLead({ ...empty, name: 'Jo', phone: '07700 900123' }, { contactMethod: 'phone' })).toEqual({});
    expect(validateLead({ ...empty, name: 'Jo', phone: '07700 900123' }, { contactMethod: 'either' })).toEqual({});
    // A wrong number says what is wrong with it, not that one is missing.
    expect(validateLead({ ...empty, name: 'Jo', email: 'jo@example.com', phone: '123' }, { contactMethod: 'phone' }).phone).toBe(
      'Please enter a valid phone number',
    );
  });

  it('needs a UK postcode, in the words the server uses', () => {
    const jo = { ...empty, name: 'Jo', phone: '07700 900123' };
    expect(validateLead({ ...jo, postcode: '' })).toEqual({ postcode: 'Enter your postcode, e.g. LS6 2AB' });
    expect(validateLead({ ...jo, postcode: 'LS6' })).toEqual({ postcode: 'Enter a full UK postcode, e.g. LS6 2AB' });
    expect(validateLead({ ...jo, postcode: ' ls62ab ' })).toEqual({});
    expect(validateLead({ ...jo, address: 'x'.repeat(LEAD_LIMITS.address + 1) }).address).toMatch(/at most/);
  });

  it('keeps to the shared limits', () => {
    expect(validateLead({ ...empty, name: 'x'.repeat(LEAD_LIMITS.name + 1), phone: '07700900123' }).name).toMatch(/at most/);
    expect(validateLead({ ...empty, name: 'Jo', phone: '07700900123', note: 'x'.repeat(LEAD_LIMITS.note + 1) }).note).toMatch(
      /at most/,
    );
  });
});

/*
 * One list of forms through the server's schema and the widget's check: both must accept the
 * same forms and refuse the rest with the same first message on the same field (what the form
 * shows under each input).
 */
function serverVerdict(fields: LeadFields, contactMethod: ContactMethod | null): LeadErrors {
  const parsed = leadInputSchema.safeParse({ analysisId: 1, leadToken: 'token', ...fields, contactMethod });
  const errors: LeadErrors = {};
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = String(issue.path[0]) as keyof LeadErrors;
    errors[field] ??= issue.message;
  }
  return errors;
}

const long = (n: number, c = 'a') => c.repeat(n);
const names = ['Jo', '  Ash Birch  ', '', '   ', long(LEAD_LIMITS.name), long(LEAD_LIMITS.name + 1), 'Jo\nBcc: x@evil.example', 'Tab\there', 'Del\u007f'];
const emails = [
  '',
  'jo@example.com',
  '  Jo.Birch@Example.CO.UK ',
  "o'neil+trees@mail-host.example.org",
  'a@b.c',
  'two..dots@example.com',
  '.lead@example.com',
  'trail.@example.com',
  'jo@example',
  'no-at-sign',
  'a b@example.com',
  'a@-host.com',
  'ünï@example.com',
  `${long(240)}@example.com`,
  `${long(250)}@example.com`,
];
const phones = ['', '07700 900123', '+44 (0)20 7946-0958', '12345', '123456', long(20, '1'), long(21, '1'), 'call me', `${long(20, '1')} ${long(9, ' ')}1`];
const postcodes = ['', '  ', 'LS6 2AB', 'ls62ab', 'sw1a 1aa', 'GIR 0AA', 'LS6', 'LS6 2CI', 'QA1 1AA', 'ＬＳ６ ２ＡＢ', long(LEAD_LIMITS.postcode + 1, '1'), long(5000)];
const addresses = ['', '  ', '12 Oak Lane, Leeds', long(LEAD_LIMITS.address), long(LEAD_LIMITS.address + 1), `  ${long(LEAD_LIMITS.address)}  `];
const notes = ['', 'Big oak by the gate', long(LEAD_LIMITS.note), long(LEAD_LIMITS.note + 1), `  ${long(LEAD_LIMITS.note)}  `];

describe('the widget and the server check a quote request alike', () => {
  const base: LeadFields = { name: 'Jo', email: 'jo@example.com', phone: '', note: '', postcode: 'LS6 2AB', address: '' };
  const forms: LeadFields[] = [
    ...names.map((name) => ({ ...base, name })),
    ...emails.flatMap((email) => [
      { ...base, email },
      { ...base, email, phone: '07700 900123' },
    ]),
    ...phones.flatMap((phone) => [
      { ...base, email: '', phone },
      { ...base, phone },
    ]),
    ...notes.map((note) => ({ ...base, note })),
    ...postcodes.map((postcode) => ({ ...base, postcode })),
    ...addresses.map((address) => ({ ...base, address })),
    { name: '', email: '', phone: '', note: long(LEAD_LIMITS.note + 1), postcode: '', address: long(400) },
    { name: long(200), email: 'a@b.c', phone: '12', note: '', postcode: 'LS6', address: '' },
  ];

  it.each([null, ...CONTACT_METHODS])('with contactMethod %s', (contactMethod) => {
    for (const form of forms) {
      expect(validateLead(form, { contactMethod }), JSON.stringify(form)).toEqual(serverVerdict(form, contactMethod));
    }
  });

  it('refuses the addresses the server refuses, which a looser copy once let through', () => {
    for (const email of ['a@b.c', 'two..dots@example.com']) {
      expect(validateLead({ ...base, email }).email).toBe('Please enter a valid email address');
    }
  });
});

describe('errorsFromDetails', () => {
  it("puts the server's messages on the form's fields and the rest above the button", () => {
    expect(errorsFromDetails({ email: ['Please enter a valid email address'], analysisId: ['analysisId is required'] })).toEqual({
      fields: { email: 'Please enter a valid email address' },
      form: 'analysisId is required',
    });
    expect(errorsFromDetails(undefined)).toEqual({ fields: {}, form: undefined });
  });
});
