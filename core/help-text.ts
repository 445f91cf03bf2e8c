import { DEFAULT_PASS_DAILY_CAP } from './billing';
import { ANALYSIS_COST_CREDITS, analysesAvailable } from './credits';
import { EMBED_IFRAME_HEIGHT } from './embed';
import { formatGbp } from './money';
import { MEASURE_REFERENCES } from './photo-measure';
import { PLAN_ORDER, PLANS, UNLIMITED_PASS_DAYS, UNLIMITED_PASS_PRICE_PENCE, type Plan } from './plans';
import { VAT_STANDARD_RATE_PERCENT } from './price';

/**
 * The product's help text, in one place: the How It Works and Safety Guide dialogs
 * show it, the local assistant searches it and the model assistant's system prompt is built
 * from it. Prices, credits and limits come from the constants the server charges by, so the
 * help can never quote a different price from the checkout.
 */

export interface HelpPassage {
  id: string;
  title: string;
  /** What the dialogs show: one or two plain sentences. */
  text: string;
  /** Further sentences the assistant adds when it answers with this passage. */
  more?: string;
  /** Words people ask with that the text does not use; searched, never shown. */
  askedAs: string;
  /** A safety passage: the assistant adds the certified-arborist advice to its answer. */
  safety?: boolean;
}

export interface HelpOptions {
  /** Whether this server has a vision model reading the photo (GET /api/capabilities). */
  visionModel: boolean;
  /** The server's fair-use cap during an Unlimited pass (PASS_DAILY_CAP). */
  passDailyCap?: number;
}

/** Said whenever a question touches danger or felling (docs/product.md, Analysis and Help assistant). */
export const ARBORIST_ADVICE =
  'Estimates are for planning only: tree work is dangerous, so have a certified arborist assess the tree and the site before any felling or climbing.';

/*
 * UK clearance from overhead lines, said the same in the Safety Guide, the assistant and the
 * safety notes of every estimate near power lines. 3 m from low-voltage (230/400 V) lines is the
 * working clearance UK readers expect, beside the US 10 ft (3.05 m) the Safety
 * Guide names, so both are given; higher voltages need more, and the line's owner sets the
 * distance. HSE, "Working near power lines and cables" (hse.gov.uk/treework): get advice from
 * the network operator before any tree work within 10 m of an overhead line. 105 is the UK's
 * national number for the local electricity network operator (Energy Networks Association).
 */
export const POWER_LINE_CLEARANCE =
  'Keep at least 3 m (10 ft) from low voltage overhead lines, more for higher voltages, and contact the Distribution Network Operator first.';

/** The local assistant's answer when nothing in the help matches. */
export const HELP_FALLBACK =
  "Sorry, I don't have an answer to that. I can help with how estimates work, photo tips, credits and plans, the Unlimited pass, embedding the estimator on your website, feedback, safety and your account. The How It Works button at the top of the page walks through an estimate step by step.";

function planPassage(plan: Plan): HelpPassage {
  const listPrice = plan.originalPricePence
    ? ` (list price ${formatGbp(plan.originalPricePence)}${plan.discountLabel ? `, ${plan.discountLabel}` : ''})`
    : '';
  return {
    id: `plan-${plan.id}`,
    title: `${plan.name} plan`,
    text: `The ${plan.name} plan costs ${formatGbp(plan.pricePence)} a month${listPrice} and gives ${plan.creditsPerMonth} credits each month, enough for ${analysesAvailable(plan.creditsPerMonth)} analyses.`,
    more: 'Unused credits do not carry over, and you can cancel anytime. Choose a plan on the home page or at Subscribe.',
    askedAs: `${plan.id} price cost how much monthly subscription subscribe pay pounds`,
  };
}

/** Every passage, worded for this server (with or without a vision model). */
export function helpPassages(options: HelpOptions): HelpPassage[] {
  const { visionModel } = options;
  const cap = options.passDailyCap ?? DEFAULT_PASS_DAILY_CAP;
  const cost = ANALYSIS_COST_CREDITS;
  const plans = PLAN_ORDER.map((id) => PLANS[id]);
  const pass = formatGbp(UNLIMITED_PASS_PRICE_PENCE);

  return [
    {
      id: 'assistant',
      title: 'What I can help with',
      text: 'I can answer questions about how estimates work, photo tips, credits and plans, the Unlimited pass, embedding the estimator on your website, feedback, safety and your account.',
      askedAs: 'hello hi hey help thanks thank assistant chat bot who are you what can you do',
    },
    {
      id: 'overview',
      title: 'How it works',
      text: visionModel
        ? 'Upload one photo of a tree, add the site details, and get its species, size, cutting, preparation and cleanup times and a cost at your hourly rate in under a minute.'
        : 'Upload one photo of a tree, give its species and size (typed, picked or measured on the photo), add the site details, and get cutting, preparation and cleanup times and a cost at your hourly rate in under a minute.',
      more: 'The How It Works button at the top of the page walks through each step.',
      askedAs: 'how does it work start use analyse analysis estimate getting started what is this tool',
    },
    {
      id: 'upload-photo',
      title: 'Upload a photo',
      text: visionModel
        ? 'Take a clear photo with the whole tree in frame, from about its own height away. A person or a door near the trunk helps judge its size.'
        : 'Take a clear photo with the whole tree in frame, from about its own height away, with a person or a door near the trunk. The photo is checked for quality only: it is not read for species or size.',
      askedAs: 'upload image picture file jpeg png webp',
    },
    {
      id: 'tree-size',
      title: "Give the tree's size",
      text: visionModel
        ? 'The AI model reads the species and size from the photo. Type them, pick a size or measure them on the photo to use yours instead: height in metres or feet, trunk in centimetres or inches.'
        : 'Pick the species, then type the height and trunk diameter, pick the nearest sizes, or measure them on the photo against the door or person. Type the height in metres or feet and the trunk in centimetres or inches. The estimate is worked out from these.',
      askedAs: 'height diameter trunk girth dbh species tall wide thick size units metric imperial metre meter meters cm centimetre centimeter ft foot feet inch inches type enter',
    },
    {
      id: 'measure-photo',
      title: 'Measuring on the photo',
      text: `Choose Measure on the photo, pick something of known height standing beside the trunk (${MEASURE_REFERENCES.map((r) => r.label.toLowerCase()).join(', ')}, or something else whose length you type), and tap its top and bottom. Then tap the top and base of the tree, and the trunk's two edges 1.5 m above the ground: the height and trunk diameter are worked out from the reference.`,
      more: 'The reference must stand as far from the camera as the tree, with the camera held level, or the sizes come out too big or too small. A size you type is used instead of a measured one.',
      askedAs: 'measure measuring measurement tap mark points reference scale door person eaves picture image work out calculate',
    },
    {
      id: 'site-details',
      title: 'Add the site details',
      text: 'Optionally answer the site questions: what is within falling distance, power lines, access for equipment and what should happen to the wood.',
      more: 'The photo cannot show these, and they decide the time and price more than the size does.',
      askedAs: 'site questions access gate building road stump grinding wood waste removal project details',
    },
    {
      id: 'get-estimate',
      title: 'Get your estimate',
      text: 'See the species, trunk diameter, height and where each came from, cutting, preparation and cleanup times, safety notes and a cost at your hourly rate. Without a size from anywhere you are asked for one, and no credits are used.',
      askedAs: 'results estimate time cost minutes hours price quote',
    },
    {
      id: 'credits',
      title: `${cost} credits per analysis`,
      text: `Each analysis uses ${cost} credits from your monthly plan. Unused credits do not carry over.`,
      more: 'The badge at the top shows your credits and how many analyses they cover. If an analysis fails, its credits are refunded.',
      askedAs: 'credits tokens balance how many analyses left run out refund',
    },
    {
      id: 'photo-tips',
      title: 'Photo tips',
      text: 'For a good photo: the whole tree in frame from the ground to its top, taken from about its own height away, in daylight, with a person or a door near the trunk for scale.',
      more: 'Blurred, dark or very small photos get a note asking for a retake. JPEG, PNG or WebP photos up to 10 MB work.',
      askedAs: 'photo picture good better tips blurry dark retake camera scale reference',
    },
    {
      id: 'accuracy',
      title: 'How accurate estimates are',
      text: 'An estimate is a range for planning and quoting, not a fixed price: times and cost are given low to high, with a confidence that says how sure it is. Low confidence, or a large tree near a building, road or power line, asks for a site visit before the price is confirmed.',
      more: 'Feedback after your jobs brings later estimates closer to your crew, and the Estimate Accuracy page, linked from History, shows how close they have been on your own work.',
      askedAs: 'accurate accuracy precise precision reliable reliability trust exact close correct right wrong error margin guess ballpark good',
    },
    {
      id: 'local-estimate',
      title: 'What an estimate can and cannot see',
      text: visionModel
        ? 'On this server an AI vision model reads the species and size from the photo, using a person or a door near the trunk for scale. A photo cannot show decay inside the trunk, what is behind the tree or how equipment gets in, so answer the site questions and check the sizes it read.'
        : 'This server has no AI vision model, so the photo is only checked for what its pixels show: resolution, blur, exposure and how much of it is tree. It cannot name the species or measure the tree: the estimate comes from the species and sizes you give or measure on the photo, and your site answers.',
      more: visionModel
        ? 'When confidence is low, or a large tree stands near a building, road or power line, the result recommends a site visit.'
        : 'Where something is missing it uses cautious defaults, says what it assumed in the factors, and keeps its confidence low. A self-hosted vision model can be connected by the server owner.',
      askedAs: 'ai model vision local species kind type sort variety name identify recognise detect limits',
    },
    {
      id: 'plans',
      title: 'What it costs: monthly plans',
      text: `Using TreeAnalyzer Pro costs ${cost} credits per analysis, from a monthly plan: ${plans.map((plan) => `${plan.name} ${formatGbp(plan.pricePence)} for ${plan.creditsPerMonth} credits`).join(', ')}.`,
      more: `Or buy a one-time ${pass} Unlimited pass for ${UNLIMITED_PASS_DAYS} days. Each paid month sets your balance to the plan's credits; unused credits do not carry over. Cancel anytime.`,
      askedAs: 'plans pricing prices cost costs use fee fees charges free trial expensive cheap afford subscription subscribe monthly which plan compare choose best busy lots often volume',
    },
    ...plans.map(planPassage),
    {
      id: 'unlimited-pass',
      title: 'Unlimited pass',
      text: `The one-time ${pass} payment, with no subscription, buys a ${UNLIMITED_PASS_DAYS}-day Unlimited pass: analyses use no credits for ${UNLIMITED_PASS_DAYS} days from payment, with a fair-use cap of ${cap} analyses a day.`,
      more: 'The credits badge then reads "Unlimited" with the end date. Buy it from Get Tokens at the top of the page.',
      askedAs: 'unlimited one-time one off once single payment pay go payg occasional without contract commitment pass get tokens checkout 29.99 fair use cap limit per day daily',
    },
    {
      id: 'cancel',
      title: 'Cancelling a subscription',
      text: 'You can cancel a subscription anytime. It ends at the end of the month you paid for, and your credits stay usable until then.',
      askedAs: 'cancel stop subscription unsubscribe end refund billing',
    },
    {
      id: 'hourly-rate',
      title: 'Hourly rate and AI settings',
      text: 'In Settings, set your hourly rate in pounds, per crew-hour (say how many people it pays for), and any custom instructions for the estimates. The price starts from the total time multiplied by your rate; with a rate of 0 no price is shown.',
      askedAs: 'settings hourly rate charge per hour crew-hour custom instructions configuration calculation',
    },
    {
      id: 'pricing-rules',
      title: 'Pricing rules',
      text: 'Under Pricing in Settings, add what you charge beyond the hours: a minimum charge, travel, waste disposal per tonne (priced from the green weight of the tree), and fixed prices for the stump grinder, an access platform (when a dismantle can be reached by a vehicle) and traffic management (when the tree could fall on a road or footpath). Each price lists its lines; a website estimator can have its own rules.',
      askedAs: 'pricing rules minimum charge call-out travel mileage waste disposal tonne tipping stump grinder access platform cherry picker mewp traffic management lights chapter 8 extras lines',
    },
    {
      id: 'embedding',
      title: 'Embedding the estimator on your website',
      text: `In Business Admin, create a business with a name, a web address slug, a locked hourly rate and optional instructions. Copy Embed gives an iframe (width 100%, height ${EMBED_IFRAME_HEIGHT}) to paste into your website; a script tag works too.`,
      more: 'Your customers cannot change the rate, the estimator shows "Powered by" your business name, and its analyses use your credits. You can list the sites allowed to show it and set a daily cap.',
      askedAs: 'embed widget website web page homepage own site iframe script html code business admin customers copy embed install wordpress wix squarespace shopify calculator tool add put',
    },
    {
      id: 'leads',
      title: 'Quote requests from your website',
      text: 'Under an embedded estimate, your customers can send "Request a quote" with their name, an e-mail or phone number and a note. You see these leads, with the estimate and photo, in Business Admin and get an e-mail for each.',
      askedAs: 'leads quote request requests customers visitors people enquiry enquiries inquiries contact details notification notified email website',
    },
    {
      id: 'feedback',
      title: 'Feedback and calibration',
      text: 'After a job, open the estimate and choose Provide Feedback to enter how long cutting, preparation and cleanup actually took. Your later estimates, and your embedded estimators, are then adjusted to match your crew.',
      more: 'The calibration grows as feedback builds up, and is kept for each kind of job (straight fells, section fells, dismantles), so a crew quick in the open and slow beside houses is estimated right for both. The results say what an estimate was calibrated from. A new account starts from the times other crews on this service have shared; you can stop sharing yours in Settings.',
      askedAs: 'feedback calibration calibrate actual times improve accuracy learn adjust',
    },
    {
      id: 'report',
      title: 'Download Report',
      text: 'On the results, Download Report makes a PDF quote with the photo, measurements, times, cost and the safety disclaimer.',
      askedAs: 'report pdf download print quote customer',
    },
    {
      id: 'vat',
      title: 'VAT on prices and quotes',
      text: `Choose how you charge VAT under Pricing in Settings (and for each website estimator): not VAT-registered, add VAT and show prices including it (what homeowners expect), or add VAT and show prices excluding it (trade customers). Your rates are always typed before VAT; VAT is ${VAT_STANDARD_RATE_PERCENT}%. The results, History, your website estimator, lead e-mails and PDF quotes then show the same figures and say "inc VAT" or "ex VAT"; the quote lists the total ex VAT, the VAT and the total inc VAT. Add your VAT number to the Company profile so it is printed on quotes.`,
      askedAs: 'vat tax inc ex inclusive exclusive including excluding plus registered hmrc',
    },
    {
      id: 'history',
      title: 'History',
      text: 'History lists your past analyses, newest first. Open one to see its results again, download its report or send feedback.',
      askedAs: 'history past previous old analyses saved find',
    },
    {
      id: 'password-reset',
      title: 'Forgotten password',
      text: 'On the sign-in page choose "Forgot password?", enter your e-mail address and follow the link we send. The link works once, within 1 hour.',
      more: 'Setting a new password signs you out everywhere else. If no e-mail arrives, check your spam folder or request another.',
      askedAs: 'forgot forgotten password reset change login sign in locked out cannot log in email link',
    },
    {
      id: 'account',
      title: 'Your account, data and privacy',
      text: 'Sign up from the sign-in page with your name, a username, e-mail and password. In Settings you can download all your data or delete your account.',
      more: visionModel
        ? 'Your photos and analyses are stored on this service and shown only to you; each photo is sent to the AI vision model this server uses to read it. Share my job times pools your job times without names or photos, and can be turned off in Settings. Delete my account removes the account, every analysis and photo, your businesses and their quote requests, and cannot be undone.'
        : 'Your photos and analyses are stored on this service and shown only to you. Share my job times pools your job times without names or photos, and can be turned off in Settings. Delete my account removes the account, every analysis and photo, your businesses and their quote requests, and cannot be undone.',
      askedAs: 'account register sign up create delete remove close erase export download data privacy private gdpr personal details information photos pictures images stored kept shared sold third party',
    },
    {
      id: 'safety-arborist',
      title: 'Consult a certified arborist',
      text: 'Always have a certified arborist assess the tree and the site before any felling or climbing work.',
      askedAs: 'safe safety danger dangerous risk risky hazard felling fell myself diy chainsaw climb climbing injury accident professional',
      safety: true,
    },
    {
      id: 'safety-power-lines',
      title: 'Power lines',
      text: `${POWER_LINE_CLEARANCE} Work near lines is for competent, authorised contractors only.`,
      more: 'The network operator owns the line (call 105 to reach yours): it can advise, make the line safe or switch it off for the work. Health and Safety Executive guidance is to ask it first for any tree work within 10 m of an overhead line.',
      askedAs: 'power lines electricity cables wires overhead electric clearance distance close near dno supplier pole voltage touching',
      safety: true,
    },
    {
      id: 'safety-weather',
      title: 'Weather',
      text: 'Do not work in winds above 25 mph, or in rain, ice or poor light.',
      askedAs: 'wind windy weather storm rain ice dark gusts mph',
      safety: true,
    },
    {
      id: 'safety-ppe',
      title: 'Protective equipment',
      text: 'Wear a helmet with visor, ear protection, chainsaw trousers, gloves and safety boots.',
      askedAs: 'ppe protective equipment gear clothing helmet boots gloves chainsaw trousers',
      safety: true,
    },
    {
      id: 'safety-before-you-start',
      title: 'Before you start',
      text: 'In the UK, check for a Tree Preservation Order or conservation area, and for nesting birds between March and August.',
      askedAs: 'tpo preservation order conservation area permission council legal birds nesting season law',
      safety: true,
    },
  ];
}

/** The How It Works dialog's steps, in order. */
export const HOW_IT_WORKS_STEPS = ['upload-photo', 'tree-size', 'site-details', 'get-estimate', 'credits'] as const;
/** The Safety Guide dialog's rows, in order. */
export const SAFETY_GUIDE_ROWS = ['safety-arborist', 'safety-power-lines', 'safety-weather', 'safety-ppe', 'safety-before-you-start'] as const;

export function howItWorksIntro(visionModel: boolean): string {
  return visionModel
    ? 'From one photo and the details you give to a time and cost estimate in under a minute.'
    : 'From the details you give or measure on your photo to a time and cost estimate in under a minute.';
}

export const SAFETY_GUIDE_INTRO = 'Estimates are for planning only. Tree work is dangerous: plan it with a professional.';

/** The passages with these ids, in that order (a missing id is a programming error). */
export function pickPassages(passages: HelpPassage[], ids: readonly string[]): HelpPassage[] {
  return ids.map((id) => {
    const passage = passages.find((p) => p.id === id);
    if (!passage) throw new Error(`no help passage ${id}`);
    return passage;
  });
}

/** A passage as the assistant says it: the dialog's text and the further detail. */
export function passageAnswer(passage: HelpPassage): string {
  return passage.more ? `${passage.text} ${passage.more}` : passage.text;
}
