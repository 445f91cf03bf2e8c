import { sql } from 'drizzle-orm';
import { CONTACT_METHODS, CONTACT_TIMES } from '../core/contact-preference';
import type { PhotoMeasurement } from '../core/photo-measure';
import { DEFAULT_QUOTE_ROUNDING_PENCE, type QuoteRoundingPence } from '../core/quote-settings';
import { VAT_MODES, type JobPrice, type PricingRules } from '../core/price';
import { UNIT_SYSTEMS } from '../core/units';
import { CANCELLATION_VIAS, JOB_ITEM_KINDS, JOB_STATUSES } from '../core/jobs';
import { QUOTE_ANSWER_KINDS, type QuoteContent } from '../core/quote-versions';
import type { StoredValueSources } from '../core/tree-details';
import { LOOKUP_STATUSES, RECORD_OUTCOMES, type LookupFindings } from '../core/protection';
import type { NoticeTreeEdit } from '../core/section-211';
import { MAIL_STATUSES, type StoredMail } from '../core/mail-outbox';
import { INVITABLE_ROLES, MEMBER_STATUSES, TEAM_ROLES } from '../core/team';
import type { StoredEquipment } from '../core/crews';
import { POSTPONE_REASONS } from '../core/schedule';
import { JOB_PHOTO_KINDS, WORK_EVENTS } from '../core/crew-day';
import type { ForecastPoint } from '../core/weather';
import { INVOICE_KINDS, INVOICE_LINE_KINDS, PAYMENT_METHODS, type BankDetails, type InvoiceParties } from '../core/invoices';
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * The database: every entity of docs/product.md with this product's additions
 * (roles, ownership columns, per-user settings, the credit ledger, processed
 * payment events, hashed session ids). Times are integer epoch milliseconds;
 * money is integer pence (the API shows "12.50" text).
 */
const createdAt = () => integer('created_at', { mode: 'timestamp_ms' }).notNull();
/**
 * Who in the team made or changed a row (docs/product.md, Team: `by`): the person's users row,
 * kept when they leave the team (their row stays, signed out for good); null on rows made before
 * teams, by a customer, or by Stripe.
 */
const by = (name: string) => integer(name).references(() => users.id, { onDelete: 'set null' });

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    /** Stored trimmed and lower-cased, so uniqueness is case-insensitive. */
    email: text('email').notNull(),
    /** The password hash (scrypt, PHC-style string), never the password. */
    password: text('password').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
    /**
     * Whether the account's job times count in the install's starting point for everyone's
     * estimates (server/analysis/calibration.ts pooledCalibration). On unless the
     * account turns it off in Settings; only sums over at least 3 accounts are ever used.
     */
    shareJobTimes: integer('share_job_times', { mode: 'boolean' }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_unique').on(t.email),
  ],
);

export const sessions = sqliteTable(
  'sessions',
  {
    /** SHA-256 (hex) of the random session id sealed in the cookie; the id itself is never stored. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: createdAt(),
  },
  // expires_at: the hourly prune of expired sessions (server/ops/housekeeping.ts).
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * A person's place in a team (docs/product.md, Team). The team is its account: the users row its
 * records are keyed by (jobs.user_id and the rest), which is the founder's and stays so when
 * ownership is handed on. One row per person: a users row with none is the owner of a team of
 * one (accounts made before teams, or by the CLI); a removed person's row stays, status removed,
 * and they cannot sign in, while what they did keeps their name.
 */
export const teamMembers = sqliteTable(
  'team_members',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: TEAM_ROLES }).notNull(),
    status: text('status', { enum: MEMBER_STATUSES }).notNull().default('active'),
    invitedBy: by('invited_by'),
    joinedAt: integer('joined_at', { mode: 'timestamp_ms' }).notNull(),
    /** The person's last request, to the hour (written when their session slides, and at sign-in). */
    lastSeenAt: integer('last_seen_at', { mode: 'timestamp_ms' }),
    removedAt: integer('removed_at', { mode: 'timestamp_ms' }),
    removedBy: by('removed_by'),
  },
  (t) => [
    index('team_members_account_idx').on(t.accountId),
    // One owner a team, whatever the concurrency of a hand-over.
    uniqueIndex('team_members_one_owner').on(t.accountId).where(sql`role = 'owner' AND status = 'active'`),
  ],
);

/**
 * An invitation to join a team (docs/product.md, Team): a single-use link /join/<token>, 256 random
 * bits of which only the SHA-256 is kept (CONVENTIONS 13), 7 days. A resend replaces the token
 * and the expiry on the same row; joining or withdrawing ends it.
 */
export const teamInvitations = sqliteTable(
  'team_invitations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: INVITABLE_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: by('invited_by'),
    createdAt: createdAt(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
    /** The person the invitation made (their users row). */
    usedBy: by('used_by'),
    withdrawnAt: integer('withdrawn_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('team_invitations_account_idx').on(t.accountId),
    // One open invitation an address in a team.
    uniqueIndex('team_invitations_open_email').on(t.accountId, t.email).where(sql`used_at IS NULL AND withdrawn_at IS NULL`),
  ],
);

/** Every sign-in, per person (the admin log's record of who came in, when and from where). */
export const signIns = sqliteTable(
  'sign_ins',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The team account they signed in to. */
    accountId: integer('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The client's network (http/rate-limit.ts clientNetwork) and browser, cut to 200 characters. */
    address: text('address'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [index('sign_ins_account_idx').on(t.accountId, t.createdAt), index('sign_ins_user_idx').on(t.userId, t.createdAt)],
);

/**
 * A crew (docs/product.md, Schedule): some of the team's people with their kit, who are booked
 * together. Its day is whole minutes, since the schedule adds estimated crew minutes against it.
 * A deleted crew keeps its row (deleted_at): the past bookings made on it (jobs.crew_id) still say
 * which crew did the work, as the crews' past actual times need; it is gone from every list.
 */
export const crews = sqliteTable(
  'crews',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The team's account, as jobs.user_id. */
    accountId: integer('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** #rrggbb, or null for the board's own colour. */
    colour: text('colour'),
    dayMinutes: integer('day_minutes').notNull().default(480),
    /** The crew's kit as given (core/crews.ts StoredEquipment): a limit left out follows the defaults. */
    equipment: text('equipment', { mode: 'json' }).$type<StoredEquipment[]>().notNull().default(sql`'[]'`),
    createdBy: by('created_by'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    deletedAt: integer('deleted_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('crews_account_idx').on(t.accountId), check('crews_day_minutes', sql`${t.dayMinutes} BETWEEN 60 AND 960`)],
);

/** Who is in a crew: team members (a person may be in more than one crew). */
export const crewMembers = sqliteTable(
  'crew_members',
  {
    crewId: integer('crew_id')
      .notNull()
      .references(() => crews.id, { onDelete: 'cascade' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => teamMembers.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.crewId, t.memberId] }), index('crew_members_member_idx').on(t.memberId)],
);

export type CrewRow = typeof crews.$inferSelect;

export type TeamMemberRow = typeof teamMembers.$inferSelect;
export type TeamInvitationRow = typeof teamInvitations.$inferSelect;

export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the token sent by e-mail. */
    token: text('token').notNull().unique(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    used: integer('used', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId), index('password_reset_tokens_expires_idx').on(t.expiresAt)],
);

/** Per-user AI settings (one row per user; docs/product.md, Accounts). */
export const systemSettings = sqliteTable('system_settings', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: integer('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  aiInstructions: text('ai_instructions').notNull().default(''),
  hourlyRatePence: integer('hourly_rate_pence').notNull().default(0),
  /** The company profile printed on customer quotes (docs/analysis.md, Quotes). */
  tradingName: text('trading_name').notNull().default(''),
  companyPhone: text('company_phone').notNull().default(''),
  companyEmail: text('company_email').notNull().default(''),
  companyAddress: text('company_address').notNull().default(''),
  vatNumber: text('vat_number').notNull().default(''),
  quoteValidityDays: integer('quote_validity_days').notNull().default(30),
  /** Server-generated file name of the logo under DATA_DIR/logos, or null. */
  logoPath: text('logo_path'),
  /** Pricing rules beside the hourly rate (core/price.ts PricingRules); null means the defaults. */
  pricing: text('pricing', { mode: 'json' }).$type<PricingRules>(),
  /** The units sizes are shown and entered in (core/units.ts). */
  units: text('units', { enum: UNIT_SYSTEMS }).notNull().default('metric'),
  /** What the surgeon's quoted prices are rounded to: 100, 500 or 1000 pence (core/quote-settings.ts). */
  quoteRoundingPence: integer('quote_rounding_pence').$type<QuoteRoundingPence>().notNull().default(DEFAULT_QUOTE_ROUNDING_PENCE),
  /** The terms on the surgeon's quotes; null means the standard terms (core/quote-settings.ts DEFAULT_QUOTE_TERMS). */
  quoteTerms: text('quote_terms'),
  /** Days after sending when an unanswered quote's customer is reminded, once; 0 for never. */
  quoteReminderDays: integer('quote_reminder_days').notNull().default(5),
  /** The nesting season ("MM-DD" inclusive, core/protection.ts); null for the default, 1 March to 31 August. */
  nestingFrom: text('nesting_from'),
  nestingTo: text('nesting_to'),
  /** Getting paid (core/invoices.ts): the bank account invoices ask to be paid into, or null. */
  bankDetails: text('bank_details', { mode: 'json' }).$type<BankDetails>(),
  paymentTermsDays: integer('payment_terms_days').notNull().default(7),
  /** Ask a deposit of `percent` on jobs over `overPence`; null for none. */
  depositRule: text('deposit_rule', { mode: 'json' }).$type<{ percent: number; overPence: number }>(),
  invoicePrefix: text('invoice_prefix').notNull().default('INV-'),
  /** The next invoice's and credit note's sequence numbers, taken inside the issuing transaction. */
  nextInvoiceNumber: integer('next_invoice_number').notNull().default(1),
  nextCreditNoteNumber: integer('next_credit_note_number').notNull().default(1),
  invoiceReminderFirstDays: integer('invoice_reminder_first_days').notNull().default(3),
  invoiceReminderSecondDays: integer('invoice_reminder_second_days').notNull().default(7),
  salesAccountCode: text('sales_account_code').notNull().default('200'),
  /**
   * Statutory interest on late payment by business customers (Late Payment of Commercial Debts
   * (Interest) Act 1998): the Bank of England base rate to add 8% to; null for off, the default.
   */
  lateInterestBaseRatePercent: real('late_interest_base_rate_percent'),
  /**
   * The schedule (docs/product.md, Schedule; core/crews.ts): working days as ISO weekday numbers,
   * null for Monday to Friday; the climbing wind limit in m/s, the owner's, null for the default
   * (DEFAULT_CLIMBING_WIND_LIMIT_MS); the team's days off, "YYYY-MM-DD", sorted. Nulls rather than
   * the defaults written in, so an account that never chose follows a better default later.
   */
  workingDays: text('working_days', { mode: 'json' }).$type<number[]>(),
  climbingWindLimitMs: real('climbing_wind_limit_ms'),
  daysOff: text('days_off', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  /** Whose bank holidays the schedule keeps (core/settings.ts BANK_HOLIDAY_REGIONS); null for England and Wales. */
  bankHolidayRegion: text('bank_holiday_region', { enum: ['england-and-wales', 'scotland', 'northern-ireland'] }),
  /**
   * The team's A&E departments for the site check's emergency plan (docs/product.md, The crew's
   * day): each named, its postcode, and where it is, located once when saved; null for none yet.
   */
  hospitals: text('hospitals', { mode: 'json' }).$type<{ name: string; postcode: string; latitude: number; longitude: number }[]>(),
  createdAt: createdAt(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

export const businesses = sqliteTable(
  'businesses',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    hourlyRatePence: integer('hourly_rate_pence').notNull(),
    aiInstructions: text('ai_instructions'),
    /** JSON list of site origins allowed to embed; empty means any. */
    allowedOrigins: text('allowed_origins', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    /** Analyses the public estimator may run per UTC day (abuse guard for the owner's credits). */
    dailyCap: integer('daily_cap').notNull().default(50),
    /** #rrggbb applied inside the widget, or null for the default green. */
    accentColor: text('accent_color'),
    /** The estimator's pricing rules (core/price.ts PricingRules); null means the owner's Settings. */
    pricing: text('pricing', { mode: 'json' }).$type<PricingRules>(),
    /** The units the estimator asks and answers in (core/units.ts). */
    units: text('units', { enum: UNIT_SYSTEMS }).notNull().default('metric'),
    /** JSON list of the postcode districts and areas it covers (core/postcode.ts); empty means everywhere. */
    serviceDistricts: text('service_districts', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    /**
     * The UTC day (YYYY-MM-DD) the owner was last e-mailed that the estimator turned visitors away
     * (its daily cap or its rate): at most one such e-mail a day (server/businesses/limit-notice.ts).
     */
    limitNoticeDay: text('limit_notice_day'),
    createdBy: by('created_by'),
    createdAt: createdAt(),
  },
  (t) => [index('businesses_owner_idx').on(t.ownerId)],
);

/**
 * Embed analyses reserved per business and UTC day, counted up in the same transaction as
 * the owner's credits, so the daily cap holds under any concurrency (like the balance).
 */
export const embedUsage = sqliteTable(
  'embed_usage',
  {
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    /** YYYY-MM-DD, UTC. */
    day: text('day').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.day] }), check('embed_usage_count_nonnegative', sql`${t.count} >= 0`)],
);

/**
 * A business's estimator funnel per UTC day (docs/embedding.md, The funnel): counted on our server, no cookies, no
 * visitor data, only the numbers. Loads and photos are counted at most so often per address
 * (server/businesses/funnel.ts), estimates, needs-details answers and leads as they happen.
 */
export const embedFunnel = sqliteTable(
  'embed_funnel',
  {
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    /** YYYY-MM-DD, UTC. */
    day: text('day').notNull(),
    loads: integer('loads').notNull().default(0),
    photos: integer('photos').notNull().default(0),
    estimates: integer('estimates').notNull().default(0),
    needsDetails: integer('needs_details').notNull().default(0),
    leads: integer('leads').notNull().default(0),
    /** The trees in those leads, and trees added to a lead by sending it again (server/businesses/leads.ts). */
    trees: integer('trees').notNull().default(0),
    /** Visitors refused because the business's daily cap or its rate was reached. */
    turnedAway: integer('turned_away').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.day] })],
);

export const treeAnalyses = sqliteTable(
  'tree_analyses',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    businessId: integer('business_id').references(() => businesses.id, { onDelete: 'set null' }),
    imageUrl: text('image_url').notNull(),
    species: text('species'),
    diameter: integer('diameter'),
    height: integer('height'),
    woodDensity: text('wood_density'),
    cuttingTimeMin: integer('cutting_time_min'),
    cuttingTimeMax: integer('cutting_time_max'),
    prepTimeMin: integer('prep_time_min'),
    prepTimeMax: integer('prep_time_max'),
    cleanupTimeMin: integer('cleanup_time_min'),
    cleanupTimeMax: integer('cleanup_time_max'),
    factors: text('factors', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    safetyWarnings: text('safety_warnings', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    confidence: real('confidence'),
    provider: text('provider'),
    /** Who in the team ran it (null for a visitor's, from an embed). */
    runBy: by('run_by'),
    description: text('description'),
    siteDetails: text('site_details', { mode: 'json' }).$type<Record<string, unknown>>(),
    hourlyRatePence: integer('hourly_rate_pence').notNull().default(0),
    costMinPence: integer('cost_min_pence'),
    costMaxPence: integer('cost_max_pence'),
    /** Server-generated file name under DATA_DIR/uploads; never a client-supplied name. */
    imagePath: text('image_path'),
    method: text('method'),
    siteVisitReason: text('site_visit_reason'),
    /** The time model's uncalibrated component midpoints, what feedback is compared with. */
    baseTimes: text('base_times', { mode: 'json' }).$type<{ cutting: number; prep: number; cleanup: number }>(),
    /** The account's jobs with feedback behind the estimate's calibration; null when nothing calibrated it. */
    calibratedFromJobs: integer('calibrated_from_jobs'),
    /** Of those, the jobs of this analysis's kind (its method). */
    calibratedKindJobs: integer('calibrated_kind_jobs'),
    /** The sharing accounts behind the install's starting point, when it was used (at least 3), else null. */
    calibratedInstallAccounts: integer('calibrated_install_accounts'),
    actualCuttingTime: integer('actual_cutting_time'),
    actualPrepTime: integer('actual_prep_time'),
    actualCleanupTime: integer('actual_cleanup_time'),
    feedback: text('feedback'),
    /** Where species, height and diameter came from, and the sizes as typed (core/tree-details.ts StoredValueSources). */
    valueSources: text('value_sources', { mode: 'json' }).$type<StoredValueSources>(),
    /** The user's taps on the photo (core/photo-measure.ts PhotoMeasurement), drawn on results and the quote. */
    measurement: text('measurement', { mode: 'json' }).$type<PhotoMeasurement>(),
    /** 'dashboard', or 'embed' for a visitor's analysis on a business's site (paid by its owner). */
    source: text('source', { enum: ['dashboard', 'embed'] }).notNull().default('dashboard'),
    /** The price as worked out when the analysis was made (core/price.ts JobPrice); null without a rate or before pricing rules. */
    price: text('price', { mode: 'json' }).$type<JobPrice>(),
    /** Sizes that looked implausible and were confirmed by the user (core/plausibility.ts); null when none. */
    sizeWarnings: text('size_warnings', { mode: 'json' }).$type<string[]>(),
    /** The units the sizes were entered or are shown in (core/units.ts); null on older analyses. */
    units: text('units', { enum: UNIT_SYSTEMS }),
    createdAt: createdAt(),
  },
  (t) => [
    // The History list (newest first, cursor on created_at then id) and nothing more: id is
    // the rowid, which SQLite keeps as the last column of every index, so this index already
    // is (user_id, created_at, id) and serves the order and the cursor without a sort
    // (server/routes/history.test.ts checks the plan). A third column would only duplicate it.
    index('tree_analyses_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * A user's feedback so far, summed per component, so an analysis reads its calibration with
 * one primary-key lookup instead of every past analysis. Kept in the same
 * transaction as the feedback (server/analysis/feedback.ts); core/calibration.ts says why the
 * log ratios are summed as whole millionths. `jobs` is what "Calibrated from N of your jobs"
 * counts: analyses with a stored base estimate and at least one actual time.
 */
export const calibrationTotals = sqliteTable('calibration_totals', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  jobs: integer('jobs').notNull().default(0),
  cuttingObservations: integer('cutting_observations').notNull().default(0),
  cuttingLogRatioSum: integer('cutting_log_ratio_sum').notNull().default(0),
  prepObservations: integer('prep_observations').notNull().default(0),
  prepLogRatioSum: integer('prep_log_ratio_sum').notNull().default(0),
  cleanupObservations: integer('cleanup_observations').notNull().default(0),
  cleanupLogRatioSum: integer('cleanup_log_ratio_sum').notNull().default(0),
});

/**
 * The same totals per kind of job: the method the time model chose for the analysis
 * (core/calibration.ts says why the method). Kept in the same transaction as calibration_totals;
 * a user's rows sum to their calibration_totals row whenever every analysis has a method.
 */
export const calibrationKindTotals = sqliteTable(
  'calibration_kind_totals',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    jobs: integer('jobs').notNull().default(0),
    cuttingObservations: integer('cutting_observations').notNull().default(0),
    cuttingLogRatioSum: integer('cutting_log_ratio_sum').notNull().default(0),
    prepObservations: integer('prep_observations').notNull().default(0),
    prepLogRatioSum: integer('prep_log_ratio_sum').notNull().default(0),
    cleanupObservations: integer('cleanup_observations').notNull().default(0),
    cleanupLogRatioSum: integer('cleanup_log_ratio_sum').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.method] })],
);

/** A visitor's "Request a quote" from an embedded estimator (docs/product.md, Embed widget). Only the business's owner reads it. */
/**
 * The proof that a visitor saw an estimate (docs/embedding.md, Leads): a random 256-bit token is
 * answered with each visitor's estimate and only its SHA-256 is kept, tied to that analysis and
 * business; a quote request must bring it back before the expiry (24 hours). Analysis ids are
 * sequential, so the id alone proves nothing.
 */
export const estimateTokens = sqliteTable(
  'estimate_tokens',
  {
    analysisId: integer('analysis_id')
      .primaryKey()
      .references(() => treeAnalyses.id, { onDelete: 'cascade' }),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('estimate_tokens_expiry_idx').on(t.expiresAt)],
);

export const leads = sqliteTable(
  'leads',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    /** One lead per estimate; kept (as null) if the analysis goes. */
    analysisId: integer('analysis_id').references(() => treeAnalyses.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    note: text('note'),
    /** How and when the visitor would like to hear back (core/contact-preference.ts); null when not said. */
    contactMethod: text('contact_method', { enum: CONTACT_METHODS }),
    contactTime: text('contact_time', { enum: CONTACT_TIMES }),
    /** The job's postcode, normalised (core/postcode.ts); null on requests from before it was asked. */
    postcode: text('postcode'),
    address: text('address'),
    /** The postcode was outside the business's districts when the request came (still sent, marked). */
    outsideArea: integer('outside_area', { mode: 'boolean' }).notNull().default(false),
    contactedAt: integer('contacted_at', { mode: 'timestamp_ms' }),
    /** Who marked it contacted, or changed it last. */
    updatedBy: by('updated_by'),
    /**
     * When the owner was last e-mailed about this request ("New" or "Updated quote request"):
     * updates within 10 minutes of it are folded into one later e-mail (server/businesses/lead-mail.ts).
     */
    ownerMailedAt: integer('owner_mailed_at', { mode: 'timestamp_ms' }),
    /** An update came inside that window and the owner has not been told of it yet. */
    ownerMailPending: integer('owner_mail_pending', { mode: 'boolean' }).notNull().default(false),
    /** When the visitor was sent the acknowledgement of their request (null: not sent, or no e-mail). */
    acknowledgedAt: integer('acknowledged_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('leads_business_idx').on(t.businessId, t.createdAt),
    uniqueIndex('leads_analysis_unique').on(t.analysisId),
    // The hourly job's look for updates still to tell the owner of: the few pending rows only.
    index('leads_owner_mail_pending_idx').on(t.ownerMailPending).where(sql`owner_mail_pending = 1`),
  ],
);

/**
 * The trees of a quote request, in the visitor's order (docs/product.md, Embed widget: Several
 * trees, one request): every estimate of the visit, the first included (it is also
 * leads.analysis_id, the lead's primary). An estimate is in at most one lead; sent again in a
 * new request it moves to it. A deleted analysis leaves its place, as null.
 */
export const leadTrees = sqliteTable(
  'lead_trees',
  {
    leadId: integer('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    analysisId: integer('analysis_id').references(() => treeAnalyses.id, { onDelete: 'set null' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.position] }), uniqueIndex('lead_trees_analysis_unique').on(t.analysisId)],
);

/**
 * A job (docs/product.md, Jobs and quotes): one customer's quote from an account, grouping trees
 * (its analyses) and typed lines with the prices the surgeon sets. `vat_mode` is taken from the
 * pricing rules when the job is made, since the items' prices are written on that basis.
 */
export const jobs = sqliteTable(
  'jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The business whose website lead it came from, if any. */
    businessId: integer('business_id').references(() => businesses.id, { onDelete: 'set null' }),
    leadId: integer('lead_id').references(() => leads.id, { onDelete: 'set null' }),
    status: text('status', { enum: JOB_STATUSES }).notNull().default('draft'),
    customerName: text('customer_name').notNull(),
    customerEmail: text('customer_email'),
    customerPhone: text('customer_phone'),
    siteAddress: text('site_address'),
    vatMode: text('vat_mode', { enum: VAT_MODES }).notNull(),
    /**
     * The booking (docs/product.md, Jobs and quotes, Booking and done), UK wall clock as text
     * (core/job-booking.ts): the first day "YYYY-MM-DD", the start "HH:MM", how many days, a site
     * visit before it "YYYY-MM-DDTHH:MM", and a note for the customer. Null until booked.
     */
    bookedFor: text('booked_for'),
    bookedStart: text('booked_start'),
    bookedDays: integer('booked_days'),
    siteVisitAt: text('site_visit_at'),
    bookingNote: text('booking_note'),
    bookedAt: integer('booked_at', { mode: 'timestamp_ms' }),
    /** How many times the booking was changed: the calendar file's SEQUENCE, so a new date replaces the old one. */
    bookingSequence: integer('booking_sequence').notNull().default(0),
    /** The crew the booking is on (docs/product.md, Schedule); null for none (a team of one, or a booking made before crews). */
    crewId: integer('crew_id').references(() => crews.id, { onDelete: 'set null' }),
    /** For the crew's job sheet (docs/product.md, The crew's day): the office's what3words for the site ("///filled.count.soap") and how to get in. */
    what3words: text('what3words'),
    accessNotes: text('access_notes'),
    doneAt: integer('done_at', { mode: 'timestamp_ms' }),
    /**
     * The deposit this job asks when accepted, as a percentage of the accepted total, set on the job
     * before sending: null follows the Settings deposit rule, 0 asks none (core/card-payments.ts).
     */
    depositPercent: real('deposit_percent'),
    createdBy: by('created_by'),
    bookedBy: by('booked_by'),
    doneBy: by('done_by'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('jobs_user_idx').on(t.userId, t.createdAt), index('jobs_lead_idx').on(t.leadId), index('jobs_crew_idx').on(t.crewId, t.bookedFor)],
);

/** A job's trees and lines, in order; a price is in pence as the customer reads it (core/quote-totals.ts). */
export const jobItems = sqliteTable(
  'job_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    jobId: integer('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: JOB_ITEM_KINDS }).notNull(),
    /** A tree's analysis; null for a typed line, or once the analysis is deleted. */
    analysisId: integer('analysis_id').references(() => treeAnalyses.id, { onDelete: 'set null' }),
    description: text('description').notNull(),
    pricePence: integer('price_pence').notNull(),
    optional: integer('optional', { mode: 'boolean' }).notNull().default(false),
    position: integer('position').notNull(),
  },
  (t) => [index('job_items_job_idx').on(t.jobId, t.position), check('job_items_price_nonnegative', sql`${t.pricePence} >= 0`)],
);

/**
 * A quote as sent (docs/product.md, Jobs and quotes; CONVENTIONS 14): a version of a job, its
 * content frozen as JSON with its SHA-256, reached by the customer through a link whose random
 * token is kept only hashed. Sending a changed job makes a new version and marks the one before
 * replaced; a revoked or expired link opens nothing but says so.
 */
export const quoteVersions = sqliteTable(
  'quote_versions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    jobId: integer('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** The customer's copy as sent (core/quote-versions.ts QuoteContent). */
    content: text('content', { mode: 'json' }).$type<QuoteContent>().notNull(),
    contentHash: text('content_hash').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    sentTo: text('sent_to').notNull(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }).notNull(),
    sentBy: by('sent_by'),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    viewedAt: integer('viewed_at', { mode: 'timestamp_ms' }),
    remindedAt: integer('reminded_at', { mode: 'timestamp_ms' }),
    /** The one reminder's own link to the same version (only its hash), so the first link's token need not be kept. */
    reminderTokenHash: text('reminder_token_hash').unique(),
    /** The link sent when the surgeon asks the customer about an early start (only its hash): the same page, the newest ask's link. */
    earlyStartTokenHash: text('early_start_token_hash').unique(),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    replacedAt: integer('replaced_at', { mode: 'timestamp_ms' }),
  },
  (t) => [uniqueIndex('quote_versions_job_version').on(t.jobId, t.version)],
);

/**
 * The customer's answer to a version: accepted (with the evidence: the name typed, the optional
 * items chosen, the early-start request, the content hash, the address and the browser),
 * declined (a reason) or a change asked for (a message). One acceptance a version.
 */
export const quoteAnswers = sqliteTable(
  'quote_answers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    versionId: integer('version_id')
      .notNull()
      .references(() => quoteVersions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: QUOTE_ANSWER_KINDS }).notNull(),
    name: text('name'),
    message: text('message'),
    optionalItemIds: text('optional_item_ids', { mode: 'json' }).$type<number[]>(),
    startEarly: integer('start_early', { mode: 'boolean' }),
    contentHash: text('content_hash').notNull(),
    address: text('address').notNull(),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [index('quote_answers_version_idx').on(t.versionId)],
);

/**
 * The cancellation of an accepted quote (docs/product.md, Jobs and quotes: cancelling): online by
 * the customer from their page (the name typed, the address and browser, as for an acceptance)
 * or recorded by the surgeon (the day they were told and how, a note). `content_hash` is the
 * accepted copy's, so the cancellation names what it cancels. One a job.
 */
export const quoteCancellations = sqliteTable('quote_cancellations', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  jobId: integer('job_id')
    .notNull()
    .unique()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  /** The accepted version it cancels. */
  versionId: integer('version_id')
    .notNull()
    .references(() => quoteVersions.id, { onDelete: 'cascade' }),
  via: text('via', { enum: CANCELLATION_VIAS }).notNull(),
  /** The UK day the business was told, "YYYY-MM-DD". */
  receivedOn: text('received_on').notNull(),
  name: text('name'),
  note: text('note'),
  withinPeriod: integer('within_period', { mode: 'boolean' }).notNull(),
  contentHash: text('content_hash').notNull(),
  address: text('address'),
  userAgent: text('user_agent'),
  /** The surgeon who recorded it; null when the customer cancelled online. */
  recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/**
 * An early start inside a consumer's 14-day cancellation period (docs/product.md, Jobs and
 * quotes: the cancellation period and early starts): the surgeon asked (when, who; the link went
 * by e-mail), then the customer's express request from their quote page as evidence (the name
 * typed, the words they agreed to, when, the address and browser). One a job.
 */
export const earlyStartRequests = sqliteTable('early_start_requests', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  jobId: integer('job_id')
    .notNull()
    .unique()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  /** The accepted version the early start is of. */
  versionId: integer('version_id')
    .notNull()
    .references(() => quoteVersions.id, { onDelete: 'cascade' }),
  askedAt: integer('asked_at', { mode: 'timestamp_ms' }).notNull(),
  askedBy: integer('asked_by').references(() => users.id, { onDelete: 'set null' }),
  requestedAt: integer('requested_at', { mode: 'timestamp_ms' }),
  name: text('name'),
  /** The request's words as the page showed them (core/cancellation-period.ts EARLY_START_REQUEST_TEXT). */
  wording: text('wording'),
  address: text('address'),
  userAgent: text('user_agent'),
});

/**
 * A booked job's moves (docs/product.md, Schedule: moving a booking): each change of its dates or
 * its crew, by hand (PATCH /api/jobs/{id}/booking, or booking again) or by a postponed day, with
 * what it was and what it became, why (the postponed day's reason; null for a move by hand), who
 * moved it and whether the customer was e-mailed. The job row holds the booking as it is now.
 */
export const bookingMoves = sqliteTable(
  'booking_moves',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    jobId: integer('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    /** The team's account, as jobs.user_id. */
    accountId: integer('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fromDate: text('from_date').notNull(),
    toDate: text('to_date').notNull(),
    fromStart: text('from_start').notNull(),
    toStart: text('to_start').notNull(),
    fromDays: integer('from_days').notNull(),
    toDays: integer('to_days').notNull(),
    fromCrewId: integer('from_crew_id').references(() => crews.id, { onDelete: 'set null' }),
    toCrewId: integer('to_crew_id').references(() => crews.id, { onDelete: 'set null' }),
    /** A postponed day's reason (core/schedule.ts POSTPONE_REASONS); null for a move by hand. */
    reason: text('reason', { enum: POSTPONE_REASONS }),
    note: text('note'),
    movedBy: by('moved_by'),
    movedAt: integer('moved_at', { mode: 'timestamp_ms' }).notNull(),
    customerNotified: integer('customer_notified', { mode: 'boolean' }).notNull(),
  },
  (t) => [index('booking_moves_job_idx').on(t.jobId, t.movedAt)],
);

/**
 * The crew's taps on a job's timer (docs/product.md, The crew's day, Timers and the finish), as
 * sent: `at` is the phone's moment of the tap, `received_at` the server's. Each is sent once per
 * `client_id` (the phone's id for it), so a phone sending again after losing signal counts once.
 * The timer is worked out from all of them sorted by `at` (core/work-timer.ts), never from the
 * order they arrived in. `reason`: why work started without a complete site check, when it did.
 */
export const workEvents = sqliteTable(
  'work_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    jobId: integer('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    /** The team's account, as jobs.user_id. */
    accountId: integer('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who tapped it: their team_members row, null once they are gone. */
    memberId: integer('member_id').references(() => teamMembers.id, { onDelete: 'set null' }),
    event: text('event', { enum: WORK_EVENTS }).notNull(),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
    clientId: text('client_id').notNull(),
    reason: text('reason'),
    by: by('by'),
    receivedAt: integer('received_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('work_events_client_idx').on(t.jobId, t.clientId), index('work_events_job_idx').on(t.jobId, t.at)],
);

/**
 * A job finished from the crew's phone (docs/product.md, The crew's day): the minutes on site
 * turned into the trees' actual times (kept on their analyses, as "Mark as done" keeps them), the
 * crew's note, and the owner's correction of the times afterwards, named.
 */
export const jobFinishes = sqliteTable('job_finishes', {
  jobId: integer('job_id')
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  accountId: integer('account_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  minutesOnSite: integer('minutes_on_site').notNull(),
  /** Whether the crew gave each tree's minutes rather than the timer's split. */
  givenPerTree: integer('given_per_tree', { mode: 'boolean' }).notNull(),
  note: text('note'),
  finishedBy: by('finished_by'),
  finishedAt: integer('finished_at', { mode: 'timestamp_ms' }).notNull(),
  correctedBy: by('corrected_by'),
  correctedAt: integer('corrected_at', { mode: 'timestamp_ms' }),
});

/**
 * Before and after photos of a job from the crew's phones (docs/product.md, The crew's day,
 * Photos): clean JPEGs in the photo store under `uploads/<image_name>`, served only through the
 * job's own route, which checks who may see the job.
 */
export const jobPhotos = sqliteTable(
  'job_photos',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    jobId: integer('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: JOB_PHOTO_KINDS }).notNull(),
    imageName: text('image_name').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    takenBy: by('taken_by'),
    createdAt: createdAt(),
  },
  (t) => [index('job_photos_job_idx').on(t.jobId, t.id)],
);

/**
 * An invoice of a job's accepted quote (docs/product.md, Getting paid): a draft while it can
 * change, then issued with a number from the account's sequence and never changed again (a
 * mistake is corrected by a credit note). `parties` is frozen when issued.
 */
export const invoices = sqliteTable(
  'invoices',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    jobId: integer('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    /** The accepted version it invoices. */
    versionId: integer('version_id')
      .notNull()
      .references(() => quoteVersions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: INVOICE_KINDS }).notNull(),
    /** A deposit asked as a percentage of the accepted total (two decimals), else null. */
    depositPercent: real('deposit_percent'),
    vatMode: text('vat_mode', { enum: VAT_MODES }).notNull(),
    vatRatePercent: integer('vat_rate_percent').notNull(),
    netPence: integer('net_pence').notNull(),
    vatPence: integer('vat_pence').notNull(),
    grossPence: integer('gross_pence').notNull(),
    /** Set together when issued: "INV-0001", its place in the sequence, the UK days. */
    number: text('number'),
    sequence: integer('sequence'),
    issuedAt: integer('issued_at', { mode: 'timestamp_ms' }),
    issuedOn: text('issued_on'),
    dueOn: text('due_on'),
    parties: text('parties', { mode: 'json' }).$type<InvoiceParties>(),
    sentTo: text('sent_to'),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
    /** Who drafted it, issued it and last sent it. */
    createdBy: by('created_by'),
    issuedBy: by('issued_by'),
    sentBy: by('sent_by'),
    viewedAt: integer('viewed_at', { mode: 'timestamp_ms' }),
    /** The overdue reminders sent (at most two). */
    firstReminderAt: integer('first_reminder_at', { mode: 'timestamp_ms' }),
    secondReminderAt: integer('second_reminder_at', { mode: 'timestamp_ms' }),
    /**
     * The links were withdrawn (a wrong address): nothing about the invoice goes to the customer
     * (receipts and reminders wait in invoice_held_mail) until it is sent again to an address the
     * surgeon confirms, which clears this.
     */
    linksWithdrawnAt: integer('links_withdrawn_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('invoices_user_idx').on(t.userId, t.createdAt),
    index('invoices_job_idx').on(t.jobId),
    // No number is used twice in an account.
    uniqueIndex('invoices_user_number').on(t.userId, t.number),
    check('invoices_issued_whole', sql`(${t.number} IS NULL) = (${t.issuedOn} IS NULL)`),
  ],
);

/**
 * The customer's links to an invoice (/invoice/<token>): one for each e-mail that carries one
 * (the invoice, a receipt, a reminder), each only the SHA-256 of its random token. All open the
 * same invoice until the surgeon withdraws them.
 */
export const invoiceLinks = sqliteTable(
  'invoice_links',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** Withdrawn by the surgeon: the link opens nothing but says so. A later send makes a new link. */
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [index('invoice_links_invoice_idx').on(t.invoiceId)],
);

/** An invoice's lines in order, each with its money worked out (core/invoice-money.ts). */
export const invoiceLines = sqliteTable(
  'invoice_lines',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    kind: text('kind', { enum: INVOICE_LINE_KINDS }).notNull(),
    description: text('description').notNull(),
    note: text('note'),
    quantity: integer('quantity').notNull().default(1),
    /** The price as the quote shows it (gross for a VAT-inclusive quote, net otherwise). */
    unitPence: integer('unit_pence').notNull(),
    netPence: integer('net_pence').notNull(),
    vatPence: integer('vat_pence').notNull(),
    grossPence: integer('gross_pence').notNull(),
    /** For a deposit taken off: the deposit invoice it takes off. */
    depositInvoiceId: integer('deposit_invoice_id').references(() => invoices.id, { onDelete: 'cascade' }),
  },
  (t) => [index('invoice_lines_invoice_idx').on(t.invoiceId, t.position)],
);

/** Money received against an invoice; a removed payment keeps its row, with who removed it and why. */
export const invoicePayments = sqliteTable(
  'invoice_payments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    amountPence: integer('amount_pence').notNull(),
    paidOn: text('paid_on').notNull(),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    reference: text('reference'),
    recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    removedAt: integer('removed_at', { mode: 'timestamp_ms' }),
    removedReason: text('removed_reason'),
    /** What has been refunded of it (the sum of its payment_refunds), so what it still pays is amount - refunded. */
    refundedPence: integer('refunded_pence').notNull().default(0),
    /** A card payment's PaymentIntent ("pi_..."; "demo_pi_..." from the demo) and the account it was taken on. */
    providerPaymentId: text('provider_payment_id'),
    providerAccount: text('provider_account'),
    createdAt: createdAt(),
  },
  (t) => [
    index('invoice_payments_invoice_idx').on(t.invoiceId),
    uniqueIndex('invoice_payments_provider_payment').on(t.providerPaymentId),
    check('invoice_payments_positive', sql`${t.amountPence} > 0`),
  ],
);

/**
 * A refund of a payment (docs/product.md, Card payments): through Stripe on the account the card
 * payment was taken on, or recorded for a bank transfer; each makes a credit note of the same amount.
 */
export const paymentRefunds = sqliteTable(
  'payment_refunds',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => invoicePayments.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    creditNoteId: integer('credit_note_id').references(() => creditNotes.id, { onDelete: 'set null' }),
    amountPence: integer('amount_pence').notNull(),
    reason: text('reason').notNull(),
    /** Stripe's refund ("re_..."), "demo_re_..." from the demo, null for a bank transfer's refund recorded by hand. */
    providerRefundId: text('provider_refund_id'),
    recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('payment_refunds_payment_idx').on(t.paymentId), index('payment_refunds_invoice_idx').on(t.invoiceId), check('payment_refunds_positive', sql`${t.amountPence} > 0`)],
);

/**
 * A card payment's dispute (a chargeback) as Stripe reports it (card-payments/disputes.ts): open
 * until closed won (nothing changes) or lost (the disputed amount recorded as a refund, with its
 * credit note). One row per Stripe dispute, whichever of its events came first.
 */
export const paymentDisputes = sqliteTable(
  'payment_disputes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => invoicePayments.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    /** Stripe's dispute ("dp_..."). */
    providerDisputeId: text('provider_dispute_id').notNull().unique(),
    amountPence: integer('amount_pence').notNull(),
    /** Stripe's reason ("fraudulent", "product_not_received"...). */
    reason: text('reason').notNull(),
    status: text('status', { enum: ['open', 'won', 'lost'] }).notNull(),
    /** Stripe's evidence_details.due_by: the business must respond in its Stripe dashboard by then. */
    evidenceDueBy: integer('evidence_due_by', { mode: 'timestamp_ms' }),
    closedAt: integer('closed_at', { mode: 'timestamp_ms' }),
    /** Lost: the refund (and through it the credit note) that records the money taken back. */
    refundId: integer('refund_id').references(() => paymentRefunds.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('payment_disputes_invoice_idx').on(t.invoiceId), check('payment_disputes_positive', sql`${t.amountPence} > 0`)],
);

/**
 * Customer e-mail about an invoice whose links were withdrawn (invoices/held-mail.ts): a receipt,
 * a reminder or a credit note (a refund's too) that would have gone to the withdrawn address, kept
 * until the invoice is sent again to an address the surgeon confirms, then sent there and deleted.
 */
export const invoiceHeldMail = sqliteTable(
  'invoice_held_mail',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['receipt', 'reminder', 'credit_note'] }).notNull(),
    /** A receipt's payment. */
    paymentId: integer('payment_id').references(() => invoicePayments.id, { onDelete: 'cascade' }),
    /** A reminder's place: the first or the second. */
    reminder: text('reminder', { enum: ['first', 'second'] }),
    /** A credit note's e-mail: the credit note. */
    creditNoteId: integer('credit_note_id').references(() => creditNotes.id, { onDelete: 'cascade' }),
    /** A refund's credit note: the refund it came with (its e-mail says what went back). */
    refundId: integer('refund_id').references(() => paymentRefunds.id, { onDelete: 'cascade' }),
    /** A refund's card as Stripe described it then (brand and last 4), when known: it is not kept anywhere else. */
    card: text('card', { mode: 'json' }).$type<{ brand: string; last4: string }>(),
    createdAt: createdAt(),
  },
  (t) => [index('invoice_held_mail_invoice_idx').on(t.invoiceId)],
);

/** A business's own Stripe account under Connect: the id, and what Stripe last said of it. */
export const paymentAccounts = sqliteTable('payment_accounts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  accountId: text('account_id').notNull().unique(),
  detailsSubmitted: integer('details_submitted', { mode: 'boolean' }).notNull().default(false),
  chargesEnabled: integer('charges_enabled', { mode: 'boolean' }).notNull().default(false),
  /** Stripe's requirements.currently_due, e.g. ["external_account"]. */
  requirements: text('requirements', { mode: 'json' }).$type<string[]>().notNull(),
  createdAt: createdAt(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/**
 * A card payment started for an invoice (a Checkout Session, or the demo's page): what it was
 * for, the amount and fee the server decided, and the account it runs on, so the event that pays
 * it is checked against what was asked, not against what the event says.
 */
export const cardCheckouts = sqliteTable(
  'card_checkouts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['demo', 'own', 'connect'] }).notNull(),
    sessionId: text('session_id').notNull().unique(),
    account: text('account'),
    amountPence: integer('amount_pence').notNull(),
    applicationFeePence: integer('application_fee_pence').notNull().default(0),
    url: text('url').notNull(),
    /** Where the customer comes back to: the invoice page, or the quote page for a deposit paid on acceptance. */
    returnPath: text('return_path').notNull(),
    status: text('status', { enum: ['open', 'paid', 'problem'] }).notNull().default('open'),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    paidAt: integer('paid_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [index('card_checkouts_invoice_idx').on(t.invoiceId)],
);

/**
 * A card payment that arrived and could not be taken as it came (a wrong amount, an invoice
 * already paid or credited, an account that is not the business's): kept and shown to the owner
 * as needing a refund until they mark it dealt with; never dropped.
 */
export const cardPaymentProblems = sqliteTable(
  'card_payment_problems',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The business it concerns, when the event leads to one; null shows it only in the admin log. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    eventId: text('event_id').notNull(),
    sessionId: text('session_id'),
    paymentIntentId: text('payment_intent_id'),
    account: text('account'),
    amountPence: integer('amount_pence').notNull(),
    currency: text('currency').notNull(),
    reason: text('reason', { enum: ['wrong_amount', 'already_settled', 'more_than_owed', 'wrong_account', 'unknown_payment'] }).notNull(),
    createdAt: createdAt(),
    resolvedAt: integer('resolved_at', { mode: 'timestamp_ms' }),
    resolvedNote: text('resolved_note'),
  },
  (t) => [index('card_payment_problems_user_idx').on(t.userId, t.createdAt)],
);

/** A credit note against an issued invoice: numbered from its own sequence ("CN-0001"), never changed. */
export const creditNotes = sqliteTable(
  'credit_notes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    sequence: integer('sequence').notNull(),
    issuedOn: text('issued_on').notNull(),
    reason: text('reason').notNull(),
    netPence: integer('net_pence').notNull(),
    vatPence: integer('vat_pence').notNull(),
    grossPence: integer('gross_pence').notNull(),
    issuedBy: by('issued_by'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('credit_notes_user_number').on(t.userId, t.number), index('credit_notes_invoice_idx').on(t.invoiceId)],
);

export const userTokens = sqliteTable('user_tokens', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: integer('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The running balance; always equal to the sum of this user's credit_ledger rows. */
  tokensRemaining: integer('tokens_remaining').notNull().default(0),
  tokensTotal: integer('tokens_total').notNull().default(0),
  subscriptionType: text('subscription_type', { enum: ['lite', 'standard', 'pro'] }),
  subscriptionStatus: text('subscription_status'),
  lastRefillDate: integer('last_refill_date', { mode: 'timestamp_ms' }),
  nextRefillDate: integer('next_refill_date', { mode: 'timestamp_ms' }),
  cancelAt: integer('cancel_at', { mode: 'timestamp_ms' }),
  passEndsAt: integer('pass_ends_at', { mode: 'timestamp_ms' }),
  stripeCustomerId: text('stripe_customer_id'),
  stripeSubscriptionId: text('stripe_subscription_id'),
  stripePaymentIntentId: text('stripe_payment_intent_id'),
  createdAt: createdAt(),
}, (t) => [check('user_tokens_balance_nonnegative', sql`${t.tokensRemaining} >= 0`)]);

/** Every balance change (docs/product.md, Credits and payments): who, delta, reason, reference, time. */
export const creditLedger = sqliteTable(
  'credit_ledger',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    reason: text('reason').notNull(),
    reference: text('reference'),
    /** Who in the team spent or bought them (null: a visitor's analysis, a plan's refill, the CLI). */
    byUserId: by('by_user_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_ledger_user_idx').on(t.userId),
    // The pass's daily fair-use count (passAnalysesToday) runs inside the reservation's
    // write transaction: without this it scans the user's whole ledger (18.7 ms at 50k rows).
    index('credit_ledger_user_reason_time_idx').on(t.userId, t.reason, t.createdAt),
  ],
);

/**
 * An analysis paid for and not yet finished (so a crash cannot keep credits): written in the same transaction as the
 * payment, deleted in the same transaction as the finished analysis or the refund. A row left
 * behind means the process died in between; at start every one is refunded and its photo
 * removed (server/analysis/reservations.ts).
 */
export const analysisReservations = sqliteTable('analysis_reservations', {
  /** The ledger reference of the payment. */
  reference: text('reference').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  payment: text('payment', { enum: ['credits', 'pass'] }).notNull(),
  /** For a visitor's analysis: the business whose daily slot it took, and that UTC day. */
  businessId: integer('business_id').references(() => businesses.id, { onDelete: 'cascade' }),
  day: text('day'),
  /** The photo's stored name, which may or may not have been written yet. */
  imageName: text('image_name').notNull(),
  createdAt: createdAt(),
});

/** Payment events and intents already applied, so none is applied twice. */
export const processedPaymentEvents = sqliteTable(
  'processed_payment_events',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  // created_at: the prune of old webhook event ids (server/ops/housekeeping.ts).
  (t) => [index('processed_payment_events_created_idx').on(t.createdAt)],
);

/**
 * A job's protected trees (core/protection.ts): the lookup of its postcode, the surgeon's record
 * and a booking confirmed before the earliest start. One row per job, keyed by the job, not by
 * postcode: a lookup is cheap, the answer is the job's evidence of what was checked and when (a
 * shared row would change under a job when another job's lookup refreshed it), and the row goes
 * with the job. Made on the first lookup or record.
 */
export const jobProtection = sqliteTable('job_protection', {
  jobId: integer('job_id')
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  /** found, none_found, not_checked (nothing asked), failed (asked again later). */
  lookupStatus: text('lookup_status', { enum: LOOKUP_STATUSES }).notNull().default('not_checked'),
  /** The postcode looked up, normalised; null when the job has none. */
  postcode: text('postcode'),
  /** What the planning data found (null until found or none found). */
  findings: text('findings', { mode: 'json' }).$type<LookupFindings>(),
  /** Why a lookup failed, for the operator: "unknown_postcode", "unavailable". */
  lookupProblem: text('lookup_problem'),
  checkedAt: integer('checked_at', { mode: 'timestamp_ms' }),
  /** The services asked, as their addresses. */
  source: text('source'),
  /** The surgeon's record: the outcome and its date "YYYY-MM-DD", a reference and a note. */
  outcome: text('outcome', { enum: RECORD_OUTCOMES }),
  outcomeOn: text('outcome_on'),
  outcomeReference: text('outcome_reference'),
  outcomeNote: text('outcome_note'),
  recordedAt: integer('recorded_at', { mode: 'timestamp_ms' }),
  /** The reason the surgeon gave to book before the earliest start, and when. */
  confirmReason: text('confirm_reason'),
  confirmedAt: integer('confirmed_at', { mode: 'timestamp_ms' }),
  /**
   * The section 211 notice as the surgeon corrected it, one entry per job line (core/section-211.ts
   * NoticeTreeEdit: species, where it stands, a description, the work, the trunk as typed), and
   * when; null while the notice is as drafted from the estimates.
   */
  noticeTrees: text('notice_trees', { mode: 'json' }).$type<NoticeTreeEdit[]>(),
  noticeSavedAt: integer('notice_saved_at', { mode: 'timestamp_ms' }),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

export type UserRow = typeof users.$inferSelect;

/**
 * Every outgoing e-mail, written in the same transaction as the change it reports (CONVENTIONS 18)
 * and delivered by the worker (server/mail/outbox-worker.ts), tried again with growing delays for
 * 48 hours, across restarts. `message` holds the whole message as JSON (server/mail/outbox.ts says
 * why not raw RFC 822), and is emptied once the mail server has taken it: a reset link or a
 * customer's details are not kept once delivered.
 */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The account whose action caused it, who sees it in Settings; null: the install's own mail, shown to admins. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** What it is, for the log and the operator: "quote Q-000012 v2", "password reset". */
    label: text('label').notNull(),
    /** The Message-ID header, fixed when written: every try is the same message to the receiving server. */
    messageId: text('message_id').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    message: text('message', { mode: 'json' }).$type<StoredMail>(),
    status: text('status', { enum: MAIL_STATUSES }).notNull(),
    tries: integer('tries').notNull().default(0),
    /** Why the last try failed, in words for the account owner (server/mail/send-errors.ts). */
    lastError: text('last_error'),
    /** When a waiting message is next tried. */
    nextTryAt: integer('next_try_at', { mode: 'timestamp_ms' }).notNull(),
    /** After this a failed try gives the message up: 48 hours after it was written, or after "Send again". */
    giveUpAt: integer('give_up_at', { mode: 'timestamp_ms' }).notNull(),
    /** Who holds it while sending or composing, and until when: a random token, so two workers never both send it. */
    claim: text('claim'),
    claimedUntil: integer('claimed_until', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('mail_outbox_message_id_unique').on(t.messageId),
    // The worker's look for what is due: only the rows not yet sent or given up.
    index('mail_outbox_due_idx').on(t.status, t.nextTryAt),
    index('mail_outbox_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Postcodes' centres as the postcode service gave them (server/weather/site-location.ts), kept so
 * the schedule does not ask for a postcode on every read: asked again after 90 days, or a day after
 * the service did not know the postcode (latitude and longitude null). At most a bounded number of
 * rows: the oldest are dropped.
 */
export const postcodeLocations = sqliteTable('postcode_locations', {
  /** Normalised: upper case, one space before the inward code ("BS8 4AA"). */
  postcode: text('postcode').primaryKey(),
  latitude: real('latitude'),
  longitude: real('longitude'),
  lookedUpAt: integer('looked_up_at', { mode: 'timestamp_ms' }).notNull(),
});

/**
 * MET Norway's forecasts kept per location (server/weather/forecasts.ts), as its terms ask: used
 * until `expires_at` (the answer's Expires), then asked again with If-Modified-Since (the answer's
 * Last-Modified), a 304 keeping the series. `location` is "lat,lon" as sent, at most 4 decimals.
 * Only the figures the schedule reads are kept (core/weather.ts ForecastPoint), not the whole
 * answer; rows not fetched for two days are dropped, and at most a bounded number are kept.
 */
export const weatherForecasts = sqliteTable(
  'weather_forecasts',
  {
    location: text('location').primaryKey(),
    latitude: real('latitude').notNull(),
    longitude: real('longitude').notNull(),
    series: text('series', { mode: 'json' }).$type<ForecastPoint[]>().notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    /** The Last-Modified header as sent, sent back unchanged in If-Modified-Since; null when none came. */
    lastModified: text('last_modified'),
    fetchedAt: integer('fetched_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('weather_forecasts_fetched_idx').on(t.fetchedAt)],
);

/**
 * The site check before work (docs/product.md, The crew's day): a job's risk assessment and
 * emergency plan for one UK day (a multi-day job is checked each day), the findings as given
 * (every hazard answered, core/crew-day.ts), and what the server worked out for the plan: the
 * site's postcode and position and the nearest A&E of the team's list, as they were when saved.
 */
export const siteChecks = sqliteTable(
  'site_checks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    jobId: integer('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    date: text('date').notNull(),
    hazards: text('hazards', { mode: 'json' }).$type<{ key: string; present: boolean; controls: string | null }[]>().notNull(),
    emergency: text('emergency', { mode: 'json' })
      .$type<{ meetingPoint: string; vehicleAccess: string; aerialRescuerId: number; aerialRescuerName: string; what3words: string | null; signalNote: string | null }>()
      .notNull(),
    postcode: text('postcode'),
    latitude: real('latitude'),
    longitude: real('longitude'),
    nearestHospital: text('nearest_hospital', { mode: 'json' }).$type<{ name: string; postcode: string; distanceKm: number }>(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    updatedBy: by('updated_by'),
  },
  (t) => [uniqueIndex('site_checks_job_date_unique').on(t.jobId, t.date)],
);

/** Who signed a site check with their own sign-in, and when; their name kept as it was (they may leave the team). */
export const siteCheckSignatures = sqliteTable(
  'site_check_signatures',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    checkId: integer('check_id')
      .notNull()
      .references(() => siteChecks.id, { onDelete: 'cascade' }),
    memberId: integer('member_id').notNull(),
    name: text('name').notNull(),
    signedAt: integer('signed_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('site_check_signatures_once').on(t.checkId, t.memberId)],
);
