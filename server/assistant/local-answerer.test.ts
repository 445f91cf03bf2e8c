import { describe, expect, it } from 'vitest';
import { ARBORIST_ADVICE, HELP_FALLBACK, helpPassages, passageAnswer } from '../../core/help-text';
import { PLANS } from '../../core/plans';
import { createHelpSearch, createLocalAssistant } from './local-answerer';

const search = createHelpSearch({ visionModel: false });
const assistant = createLocalAssistant({ visionModel: false });

describe('the local answerer finds the passage that answers a question', () => {
  it.each([
    ['How much is the Lite plan?', 'plan-lite'],
    ['What does the Standard plan cost a month?', 'plan-standard'],
    ['price of pro', 'plan-pro'],
    ['What plans are there?', 'plans'],
    ['What do I get with the one-time £29.99 payment?', 'unlimited-pass'],
    ['Is there a daily limit on the unlimited pass?', 'unlimited-pass'],
    ['How far should I stay from power lines?', 'safety-power-lines'],
    ['Is it too windy to work today?', 'safety-weather'],
    ['How do I embed the estimator on my website?', 'embedding'],
    ['I forgot my password', 'password-reset'],
    ['How does calibration work?', 'feedback'],
    ['Can it identify the species from my photo?', 'local-estimate'],
    ['how do I take a good photo', 'photo-tips'],
    ['how many credits does an analysis use', 'credits'],
    ['Do I need a TPO check?', 'safety-before-you-start'],
  ])('%s -> %s', (question, id) => {
    expect(search.best(question)?.id).toBe(id);
  });

  it('answers with numbers from the plans the server charges by', async () => {
    expect(await assistant.answer('How much is the Pro plan?')).toContain(`£79.00 a month`);
    expect(await assistant.answer('How much is the Pro plan?')).toContain(`${PLANS.pro.creditsPerMonth} credits`);
    expect(await assistant.answer('lite plan price')).toContain('£31.00');
    expect(await assistant.answer('unlimited pass')).toContain('£29.99');
    expect(await assistant.answer('unlimited pass')).toContain('25 analyses a day');
  });

  it("quotes this server's own fair-use cap", async () => {
    const ours = createLocalAssistant({ visionModel: false, passDailyCap: 40 });
    expect(await ours.answer('unlimited pass daily cap')).toContain('40 analyses a day');
  });

  it('answers with the whole passage', async () => {
    const passage = helpPassages({ visionModel: false }).find((p) => p.id === 'password-reset');
    expect(await assistant.answer('I forgot my password')).toBe(passageAnswer(passage!));
  });
});

describe('danger points to a certified arborist', () => {
  it('adds the advice to a safety answer', async () => {
    const reply = await assistant.answer('Can I cut branches near the power lines?');
    expect(reply).toContain('at least 3 m (10 ft) from low voltage overhead lines');
    expect(reply).toContain('contact the Distribution Network Operator first');
    expect(reply).toContain(ARBORIST_ADVICE);
    expect(await assistant.answer('Is it safe when it is windy?')).toContain('25 mph');
    expect(await assistant.answer('Is it safe when it is windy?')).toContain('certified arborist');
  });

  it('answers a question about felling risk with the arborist passage', async () => {
    const reply = await assistant.answer('Is it dangerous to fell a tree myself?');
    expect(reply).toContain('certified arborist');
    // Said once, not twice.
    expect(reply.match(/certified arborist/g)).toHaveLength(1);
  });

  it('adds nothing to a question about prices', async () => {
    expect(await assistant.answer('How much is the Pro plan?')).not.toContain('arborist');
    expect(await assistant.answer('How does calibration work?')).not.toContain('arborist');
  });
});

describe('no match', () => {
  it.each(['asdkjh qwezx', 'purple elephant banana', '???', 'the of and'])('%s gets the polite fallback', async (question) => {
    expect(search.best(question)).toBeNull();
    const reply = await assistant.answer(question);
    expect(reply).toBe(HELP_FALLBACK);
    expect(reply).toContain('How It Works');
  });

  it('a greeting says what it can help with', async () => {
    expect(await assistant.answer('hello')).toMatch(/^I can answer questions about/);
  });
});

describe('worded for the server', () => {
  it('says honestly what a local estimate cannot see, and what a vision model does', async () => {
    const local = await assistant.answer('Can it recognise the species?');
    expect(local).toContain('cannot name the species');
    const withModel = await createLocalAssistant({ visionModel: true }).answer('Can it recognise the species?');
    expect(withModel).toContain('AI vision model reads the species');
  });
});
