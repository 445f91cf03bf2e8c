import { describe, expect, it } from 'vitest';
import { ARBORIST_ADVICE, helpPassages } from '../../core/help-text';
import { createHelpSearch, createLocalAssistant } from './local-answerer';

/*
 * A held-out set of questions as a UK homeowner or tree surgeon types them,
 * each with the help passage that answers it. They were written before the passages were
 * reworded, and are not copied into any passage's askedAs: the passages carry the concepts
 * and everyday words (metres, roll over, council, cables), so other wordings find them too.
 * The first three are the issue's own. The search is the one POST /api/chatbot answers with
 * when no model is configured, or when the model fails.
 */
const PLAIN_QUESTIONS: [question: string, passageId: string][] = [
  ['How much does it cost to use this', 'plans'],
  ['How accurate is it', 'accuracy'],
  ['Can I add a minimum charge and travel to my prices?', 'pricing-rules'],
  ['Do the prices include VAT?', 'vat'],
  ['Can I enter the height in metres', 'tree-size'],
  ['Does it work in metric or only feet and inches?', 'tree-size'],
  ["Do I need the council's permission to fell a tree in my garden?", 'safety-before-you-start'],
  ["We're in a conservation area, does that matter?", 'safety-before-you-start'],
  ['How close can we work to overhead electricity cables?', 'safety-power-lines'],
  ['The tree is touching the electric wires, who should I contact?', 'safety-power-lines'],
  ['Can I put the estimator on my own website?', 'embedding'],
  ['How do I add the quote calculator to my WordPress site?', 'embedding'],
  ['Where do I see enquiries from people who used it on my site?', 'leads'],
  ['Will I get an email when a customer asks for a quote?', 'leads'],
  ['What do you do with my photos and personal details?', 'account'],
  ['How do I delete my account and everything in it?', 'account'],
  ['What happens when my credits run out?', 'credits'],
  ['Do unused credits roll over to next month?', 'credits'],
  ['Is there a pay as you go option instead of a subscription?', 'unlimited-pass'],
  ['Which plan should I go for if I do a lot of jobs?', 'plans'],
  ['How do I stop paying every month?', 'cancel'],
  ['The estimate was way off, how do I tell it how long the job really took?', 'feedback'],
  ['Will it learn how quickly my crew works?', 'feedback'],
  ['How do I measure the tree on the photo?', 'measure-photo'],
  ['Can I give my customer a PDF of the quote?', 'report'],
  ['Does the price include VAT?', 'vat'],
  ["I can't remember my password", 'password-reset'],
  ['What should I take a photo of?', 'photo-tips'],
  ['Where do I put in what I charge per hour?', 'hourly-rate'],
  ['Is it safe to cut the tree down myself?', 'safety-arborist'],
  ['What safety gear should the lads wear?', 'safety-ppe'],
  ['Can it tell what kind of tree it is?', 'local-estimate'],
];

describe.each([
  ['without a vision model', false],
  ['with a vision model', true],
])('plain questions find the passage that answers them, %s', (_, visionModel) => {
  const search = createHelpSearch({ visionModel });

  it.each(PLAIN_QUESTIONS)('%s -> %s', (question, passageId) => {
    expect(search.best(question)?.id).toBe(passageId);
  });
});

describe('the held-out questions', () => {
  const passages = helpPassages({ visionModel: false });

  it('are at least 30, each answered by a passage that exists', () => {
    expect(PLAIN_QUESTIONS.length).toBeGreaterThanOrEqual(30);
    const ids = new Set(passages.map((p) => p.id));
    for (const [, passageId] of PLAIN_QUESTIONS) expect(ids, passageId).toContain(passageId);
  });

  it('are not pasted into any passage', () => {
    const normalise = (text: string) => text.toLowerCase().replace(/[^a-z0-9 ]+/g, '').replace(/\s+/g, ' ').trim();
    const searched = passages.map((p) => normalise(`${p.title} ${p.text} ${p.more ?? ''} ${p.askedAs}`)).join(' | ');
    for (const [question] of PLAIN_QUESTIONS) expect(searched).not.toContain(normalise(question));
  });
});

describe('power lines, in UK terms', () => {
  const assistant = createLocalAssistant({ visionModel: false });

  it.each(['How close can we work to overhead electricity cables?', 'The tree is touching the electric wires, who should I contact?'])(
    '%s: 3 m from low-voltage lines, more for higher voltages, and the network operator first',
    async (question) => {
      const reply = await assistant.answer(question);
      expect(reply).toContain('at least 3 m (10 ft) from low voltage overhead lines');
      expect(reply).toContain('more for higher voltages');
      expect(reply).toContain('contact the Distribution Network Operator first');
      expect(reply).toContain('call 105 to reach yours');
      expect(reply).toContain(ARBORIST_ADVICE);
      // Never the US figure on its own.
      expect(reply).not.toMatch(/(?<!\()10 ft/);
    },
  );
});
