import { describe, expect, it } from 'vitest';
import { EMAIL_FOR_EMAIL, PHONE_FOR_CALL } from '../core/contact-preference';
import { LEAD_LIMITS } from '../core/embed';
import { CONTACT_REQUIRED, errorsFromDetails, validateLead } from './lead-validation';

const empty = { name: '', email: '', phone: '', note: '' };

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

  it('keeps to the shared limits', () => {
    expect(validateLead({ ...empty, name: 'x'.repeat(LEAD_LIMITS.name + 1), phone: '07700900123' }).name).toMatch(/at most/);
    expect(validateLead({ ...empty, name: 'Jo', phone: '07700900123', note: 'x'.repeat(LEAD_LIMITS.note + 1) }).note).toMatch(
      /at most/,
    );
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
