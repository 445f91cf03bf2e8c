/**
 * What Stripe still needs before a connected account can take card payments, in words a business
 * reads (Settings → Getting paid, Card payments). Stripe names each field it lacks by its path in
 * the Account object (`requirements.currently_due`, https://docs.stripe.com/api/accounts/object):
 * "external_account", "individual.dob.day", "person_1Abc.verification.document". Pure, so it is
 * tested without a browser.
 */

/** Whole paths, and the parts after a person (individual, representative, a person's id) Stripe asks of. */
const ACCOUNT_WORDS: Record<string, string> = {
  external_account: 'a bank account for payouts',
  business_type: 'the type of business',
  'business_profile.url': "your business's website",
  'business_profile.mcc': 'what your business does',
  'business_profile.product_description': 'a description of what you sell',
  'business_profile.support_phone': 'a phone number for customers',
  'business_profile.name': "your business's name",
  'settings.payments.statement_descriptor': "the name on customers' card statements",
  'company.name': "the company's name",
  'company.address': "the company's address",
  'company.tax_id': "the company's tax reference",
  'company.phone': "the company's phone number",
  'company.registration_number': "the company's registration number",
  'company.owners_provided': "who owns the company",
  'company.directors_provided': "the company's directors",
  'company.executives_provided': "the company's executives",
  'company.verification.document': "a document proving the company's details",
  tos_acceptance: "agreeing to Stripe's terms",
};

const PERSON_WORDS: Record<string, string> = {
  first_name: 'name',
  last_name: 'name',
  dob: 'date of birth',
  address: 'home address',
  email: 'e-mail address',
  phone: 'phone number',
  id_number: 'ID number',
  ssn_last_4: 'ID number',
  'relationship.title': 'job title',
  'relationship.owner': 'share of the company',
  'relationship.percent_ownership': 'share of the company',
  'verification.document': 'photo ID',
  'verification.additional_document': 'proof of address',
};

/** Whose detail a person's path is: the business owner themself, the company's representative, or another person. */
function personOf(head: string): string | null {
  if (head === 'individual') return 'your';
  if (head === 'representative') return "the representative's";
  if (head.startsWith('person_') || head === 'owners' || head === 'directors' || head === 'executives') return "a company owner's or director's";
  return null;
}

/** The longest known prefix of `parts` in `words` (so "dob.day" and "address.postal_code" find "dob" and "address"). */
function longestKnown(parts: readonly string[], words: Record<string, string>): string | undefined {
  for (let n = parts.length; n > 0; n -= 1) {
    const found = words[parts.slice(0, n).join('.')];
    if (found) return found;
  }
  return undefined;
}

/** One requirement in words; a path this does not know is shown as Stripe wrote it. */
export function requirementWords(path: string): string {
  const parts = path.split('.');
  const whose = personOf(parts[0] ?? '');
  if (whose) {
    const what = longestKnown(parts.slice(1), PERSON_WORDS);
    return what ? `${whose} ${what}` : path;
  }
  return longestKnown(parts, ACCOUNT_WORDS) ?? path;
}

/** Every requirement in words, each said once, in Stripe's order. */
export function requirementsWords(paths: readonly string[]): string[] {
  return [...new Set(paths.map(requirementWords))];
}
