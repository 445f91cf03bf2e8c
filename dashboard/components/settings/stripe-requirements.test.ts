import { describe, expect, it } from 'vitest';
import { requirementsWords, requirementWords } from './stripe-requirements';

describe('requirementWords', () => {
  it('says what Stripe needs of the account in words', () => {
    expect(requirementWords('external_account')).toBe('a bank account for payouts');
    expect(requirementWords('business_profile.url')).toBe("your business's website");
    expect(requirementWords('tos_acceptance.date')).toBe("agreeing to Stripe's terms");
    expect(requirementWords('company.address.postal_code')).toBe("the company's address");
  });

  it('says whose detail a person’s path is', () => {
    expect(requirementWords('individual.dob.day')).toBe('your date of birth');
    expect(requirementWords('individual.verification.document')).toBe('your photo ID');
    expect(requirementWords('representative.address.city')).toBe("the representative's home address");
    expect(requirementWords('person_1AbC2dEf.verification.additional_document')).toBe("a company owner's or director's proof of address");
  });

  it('shows a path it does not know as Stripe wrote it', () => {
    expect(requirementWords('some_new.requirement')).toBe('some_new.requirement');
    expect(requirementWords('individual.political_exposure')).toBe('individual.political_exposure');
  });
});

describe('requirementsWords', () => {
  it('says each once, in Stripe’s order', () => {
    expect(requirementsWords(['individual.dob.day', 'individual.dob.month', 'individual.dob.year', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'])).toEqual([
      'your date of birth',
      'a bank account for payouts',
      "agreeing to Stripe's terms",
    ]);
    expect(requirementsWords([])).toEqual([]);
  });
});
