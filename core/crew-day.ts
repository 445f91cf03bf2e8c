import { z } from 'zod';
import { plainText } from './plain-text';

/*
 * The crew's day on a phone (docs/product.md, The crew's day): the job sheet, the site check
 * before work (the risk assessment and the emergency plan), the timers, the finish and the
 * photos. The bodies and answers shared by the server, the crew's screens and the tests. None of
 * these answers carries money: no price, total, deposit or "£" (crews never see money).
 */

// ---------------------------------------------------------------- the job sheet

/** GET /api/jobs/{id}/sheet: what the crew needs on site, and nothing about money. */
export const jobSheetSchema = z.object({
  jobId: z.number().int(),
  reference: z.string(),
  customer: z.object({ name: z.string(), phone: z.string().nullable() }),
  siteAddress: z.string(),
  postcode: z.string().nullable(),
  /** From the postcode lookup; null when it could not be located. */
  location: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  /** https://www.openstreetmap.org/?mlat=…&mlon=…#map=18/…/…, or null without a location. */
  mapUrl: z.string().nullable(),
  /** ///filled.count.soap, when the office typed one. */
  what3words: z.string().nullable(),
  /** How to get in and what to mind (the office's words, the customer's answers on access). */
  accessNotes: z.string().nullable(),
  bookingNote: z.string().nullable(),
  booking: z.object({ date: z.string(), startTime: z.string(), days: z.number().int() }).nullable(),
  trees: z.array(
    z.object({
      itemId: z.number().int(),
      /** "Oak", or "Tree (species not identified)". */
      kind: z.string(),
      heightM: z.number().nullable(),
      trunkCm: z.number().nullable(),
      /** The work in words: the item's description as agreed. */
      work: z.string(),
      photoUrl: z.string().nullable(),
      /** The protected-tree state in words ("Conservation area: notice given 1 June 2026"), or null. */
      protection: z.string().nullable(),
      /** "Check for nesting birds before starting" when it applies, else null. */
      nestingCheck: z.string().nullable(),
    }),
  ),
  /** The typed lines' descriptions (no prices). */
  lines: z.array(z.object({ itemId: z.number().int(), description: z.string() })),
  crew: z
    .object({
      id: z.number().int(),
      name: z.string(),
      members: z.array(z.object({ id: z.number().int(), name: z.string() })),
      kit: z.array(z.object({ name: z.string(), kind: z.string(), windLimitMs: z.number().nullable() })),
    })
    .nullable(),
  /** Where the day's check stands (the full check is GET /site-check). */
  siteCheck: z.object({ complete: z.boolean(), missing: z.array(z.string()) }),
  work: z.lazy(() => workSummarySchema),
  status: z.enum(['booked', 'done']),
});
export type JobSheet = z.infer<typeof jobSheetSchema>;
/** GET /api/jobs/{id}/sheet answers `{ sheet }`. */
export const jobSheetResponseSchema = z.object({ sheet: jobSheetSchema });

export const SITE_NOTES_LIMITS = { accessNotes: 1000 } as const;
export const SITE_NOTES_MESSAGES = {
  accessNotes: `Say how to get in and what to mind in at most ${SITE_NOTES_LIMITS.accessNotes} characters`,
  empty: 'Send what3words or accessNotes to save (null clears one)',
} as const;

/** PATCH /api/jobs/{id}/site-notes (the owner and the office): the sheet's what3words and access notes, each kept when sent, null or "" clears it. */
export const siteNotesSchema = z
  .object({
    what3words: z
      .union([
        z.null(),
        z
          .string('Give what3words as three words with dots, for example ///filled.count.soap')
          .trim()
          .regex(/^((\/\/\/)?[A-Za-z]{1,30}\.[A-Za-z]{1,30}\.[A-Za-z]{1,30})?$/u, 'Give what3words as three words with dots, for example ///filled.count.soap'),
      ])
      .optional(),
    accessNotes: z.union([z.null(), z.string(SITE_NOTES_MESSAGES.accessNotes).overwrite(plainText).trim().max(SITE_NOTES_LIMITS.accessNotes, SITE_NOTES_MESSAGES.accessNotes)]).optional(),
  })
  .refine((v) => v.what3words !== undefined || v.accessNotes !== undefined, SITE_NOTES_MESSAGES.empty);
export type SiteNotesInput = z.input<typeof siteNotesSchema>;
export const siteNotesResponseSchema = z.object({ siteNotes: z.object({ what3words: z.string().nullable(), accessNotes: z.string().nullable() }) });

// ---------------------------------------------------------------- the site check

export const SITE_HAZARD_KEYS = ['overhead_lines', 'roads_public', 'buildings', 'ground', 'other_trees', 'weather', 'wildlife', 'underground', 'other'] as const;
export type SiteHazardKey = (typeof SITE_HAZARD_KEYS)[number];

export const SITE_HAZARD_LABELS: Record<SiteHazardKey, string> = {
  overhead_lines: 'Overhead lines',
  roads_public: 'Roads and the public',
  buildings: 'Buildings and structures',
  ground: 'Ground: slopes, soft or uneven',
  other_trees: 'Other trees: dead wood, hung-up branches',
  weather: 'Weather: wind, rain, ice, heat',
  wildlife: 'Wildlife: nesting birds, bats, wasps',
  underground: 'Underground services',
  other: 'Anything else',
};

export const SITE_CHECK_LIMITS = { controls: 1000, meetingPoint: 300, vehicleAccess: 300, signalNote: 300, reason: 500, hospitals: 20, hospitalName: 100 } as const;

export const SITE_CHECK_MESSAGES = {
  hazards: `Answer each hazard once: ${SITE_HAZARD_KEYS.join(', ')}`,
  controls: `Say in words how the hazard is controlled (at most ${SITE_CHECK_LIMITS.controls} characters)`,
  meetingPoint: `Say where everyone meets in an emergency (at most ${SITE_CHECK_LIMITS.meetingPoint} characters)`,
  vehicleAccess: `Say how an ambulance reaches the site (at most ${SITE_CHECK_LIMITS.vehicleAccess} characters)`,
  aerialRescuer: 'Choose the aerial rescuer from the crew on site',
  what3words: 'Give what3words as three words with dots, for example ///filled.count.soap',
  signalNote: `Say where the nearest phone signal is (at most ${SITE_CHECK_LIMITS.signalNote} characters)`,
  emergency: 'Give the emergency plan: the meeting point, the vehicle access and the aerial rescuer',
  missing: 'The site check must be complete and signed by everyone on site before work starts.',
  reason: `Say why work starts without a complete site check (at most ${SITE_CHECK_LIMITS.reason} characters)`,
} as const;

const words = (max: number, message: string) => z.string(message).overwrite(plainText).trim().min(1, message).max(max, message);

export const siteHazardSchema = z
  .object({
    key: z.enum(SITE_HAZARD_KEYS, { error: SITE_CHECK_MESSAGES.hazards }),
    present: z.boolean(SITE_CHECK_MESSAGES.hazards),
    controls: z.string(SITE_CHECK_MESSAGES.controls).overwrite(plainText).trim().max(SITE_CHECK_LIMITS.controls, SITE_CHECK_MESSAGES.controls).optional(),
  })
  .refine((h) => !h.present || (h.controls ?? '').length > 0, { message: SITE_CHECK_MESSAGES.controls, path: ['controls'] });
export type SiteHazard = z.output<typeof siteHazardSchema>;

export const siteEmergencyInputSchema = z.object(
  {
    meetingPoint: words(SITE_CHECK_LIMITS.meetingPoint, SITE_CHECK_MESSAGES.meetingPoint),
    vehicleAccess: words(SITE_CHECK_LIMITS.vehicleAccess, SITE_CHECK_MESSAGES.vehicleAccess),
    /** A team member's id (team_members.id) on the job's crew. */
    aerialRescuerId: z.number(SITE_CHECK_MESSAGES.aerialRescuer).int(SITE_CHECK_MESSAGES.aerialRescuer).positive(SITE_CHECK_MESSAGES.aerialRescuer),
    what3words: z
      .string(SITE_CHECK_MESSAGES.what3words)
      .trim()
      .regex(/^(\/\/\/)?[a-z]{1,30}\.[a-z]{1,30}\.[a-z]{1,30}$/u, SITE_CHECK_MESSAGES.what3words)
      .optional(),
    signalNote: z.string(SITE_CHECK_MESSAGES.signalNote).overwrite(plainText).trim().max(SITE_CHECK_LIMITS.signalNote, SITE_CHECK_MESSAGES.signalNote).optional(),
  },
  SITE_CHECK_MESSAGES.emergency,
);

/** PUT /api/jobs/{id}/site-check: every hazard answered once, and the emergency plan. */
export const siteCheckPutSchema = z.object({
  hazards: z
    .array(siteHazardSchema, SITE_CHECK_MESSAGES.hazards)
    .length(SITE_HAZARD_KEYS.length, SITE_CHECK_MESSAGES.hazards)
    .refine((list) => new Set(list.map((h) => h.key)).size === SITE_HAZARD_KEYS.length, SITE_CHECK_MESSAGES.hazards),
  emergency: siteEmergencyInputSchema,
});
export type SiteCheckPut = z.output<typeof siteCheckPutSchema>;

export const nearestHospitalSchema = z.object({ name: z.string(), postcode: z.string(), distanceKm: z.number() });

/** GET and PUT /api/jobs/{id}/site-check answer `{ siteCheck }`. */
export const siteCheckSchema = z.object({
  jobId: z.number().int(),
  /** The UK day the check is for (a multi-day job is checked each day). */
  date: z.string(),
  hazards: z.array(z.object({ key: z.enum(SITE_HAZARD_KEYS), present: z.boolean(), controls: z.string().nullable() })),
  emergency: z
    .object({
      meetingPoint: z.string(),
      vehicleAccess: z.string(),
      aerialRescuer: z.object({ id: z.number().int(), name: z.string() }),
      what3words: z.string().nullable(),
      signalNote: z.string().nullable(),
      /** Worked out by the server: the site's postcode and position, and the nearest A&E of the team's list. */
      postcode: z.string().nullable(),
      latitude: z.number().nullable(),
      longitude: z.number().nullable(),
      nearestHospital: nearestHospitalSchema.nullable(),
    })
    .nullable(),
  signatures: z.array(z.object({ memberId: z.number().int(), name: z.string(), signedAt: z.string() })),
  /** Complete: every hazard answered, the plan given, and signed by at least two people on site (AFAG 401). */
  complete: z.boolean(),
  /** What is missing, in words, for the screen and the 409. */
  missing: z.array(z.string()),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type SiteCheck = z.infer<typeof siteCheckSchema>;
export const siteCheckResponseSchema = z.object({ siteCheck: siteCheckSchema });

/** PATCH /api/system-settings { hospitals }: the team's list of A&E departments, each located once by its postcode. */
export const hospitalsSchema = z
  .array(
    z.object({
      name: words(SITE_CHECK_LIMITS.hospitalName, `Give each hospital a name of at most ${SITE_CHECK_LIMITS.hospitalName} characters`),
      postcode: z.string('Give each hospital a UK postcode').trim().min(5, 'Give each hospital a UK postcode').max(10, 'Give each hospital a UK postcode'),
    }),
  )
  .max(SITE_CHECK_LIMITS.hospitals, `At most ${SITE_CHECK_LIMITS.hospitals} hospitals`);

// ---------------------------------------------------------------- timers and the finish

export const WORK_EVENTS = ['start', 'pause', 'resume', 'stop'] as const;
export type WorkEvent = (typeof WORK_EVENTS)[number];

/** How far ahead of the server's clock a phone's `at` may be (phones' clocks drift). */
export const WORK_CLOCK_SKEW_MINUTES = 5;

export const WORK_MESSAGES = {
  event: 'event is start, pause, resume or stop',
  at: 'at is the moment it was tapped, as an ISO date-time',
  clientId: 'clientId is the phone\u2019s own id for the event: 8 to 64 letters, digits, "-" or "_"',
  future: `That time is in the future by more than ${WORK_CLOCK_SKEW_MINUTES} minutes: check the phone\u2019s clock.`,
  beforeBooking: 'That time is before the booking\u2019s first day.',
  notBooked: 'This job is not booked, so work on it cannot be timed.',
  reason: SITE_CHECK_MESSAGES.reason,
} as const;

/** POST /api/jobs/{id}/work. `reason` lets the lead start without a complete site check (kept, shown to the owner). */
export const workEventSchema = z.object({
  event: z.enum(WORK_EVENTS, { error: WORK_MESSAGES.event }),
  at: z.iso.datetime({ offset: true, error: WORK_MESSAGES.at }),
  clientId: z.string(WORK_MESSAGES.clientId).regex(/^[A-Za-z0-9_-]{8,64}$/, WORK_MESSAGES.clientId),
  reason: z.string(WORK_MESSAGES.reason).overwrite(plainText).trim().min(1, WORK_MESSAGES.reason).max(SITE_CHECK_LIMITS.reason, WORK_MESSAGES.reason).optional(),
});
export type WorkEventInput = z.input<typeof workEventSchema>;

/** The timer's running minutes on site: pauses left out, replays counted once; one timer a day. */
export const workSummarySchema = z.object({
  minutesOnSite: z.number().int(),
  /** Whether the timer is running now (started or resumed, not paused or stopped). */
  state: z.enum(['not_started', 'running', 'paused', 'stopped']),
  days: z.array(z.object({ date: z.string(), minutesOnSite: z.number().int() })),
  /** Started without a complete site check: the lead's reason and who gave it. */
  startedWithoutCheck: z.object({ reason: z.string(), by: z.string(), at: z.string() }).nullable(),
});
export type WorkSummary = z.infer<typeof workSummarySchema>;

/** POST /api/jobs/{id}/finish: crew-minutes on site become the trees' actual times (split by the estimate's shares unless given per tree). */
export const finishSchema = z.object({
  actuals: z
    .array(z.object({ itemId: z.number().int().positive(), minutes: z.number('minutes are whole minutes from 0 to 100000').int().min(0).max(100_000) }))
    .max(50)
    .optional(),
  note: z.string().overwrite(plainText).trim().max(1000, 'The note must be at most 1000 characters').optional(),
});
export type FinishInput = z.input<typeof finishSchema>;

/** The finish's answer: the job's status, whether the customer was e-mailed that the work is finished, and the timer as it ended. */
export const finishResponseSchema = z.object({ status: z.literal('done'), emailed: z.boolean(), work: workSummarySchema });

/**
 * A finished job's record on the job's answer (owner and office): the minutes on site it was
 * finished with, who finished it and when, the crew's note, and the owner's correction of the
 * times, named. Each tree's actual times beside it.
 */
export const jobFinishSchema = z.object({
  minutesOnSite: z.number().int(),
  givenPerTree: z.boolean(),
  note: z.string().nullable(),
  finishedBy: z.string().nullable(),
  finishedAt: z.string(),
  correctedBy: z.string().nullable(),
  correctedAt: z.string().nullable(),
});
export const treeActualsSchema = z.object({ itemId: z.number().int(), cuttingTime: z.number().int().nullable(), prepTime: z.number().int().nullable(), cleanupTime: z.number().int().nullable() });

// ---------------------------------------------------------------- photos

export const JOB_PHOTO_KINDS = ['before', 'after'] as const;
export type JobPhotoKind = (typeof JOB_PHOTO_KINDS)[number];
export const jobPhotoSchema = z.object({ id: z.number().int(), kind: z.enum(JOB_PHOTO_KINDS), url: z.string(), takenBy: z.string(), at: z.string() });
export type JobPhoto = z.infer<typeof jobPhotoSchema>;
export const jobPhotosResponseSchema = z.object({ photos: z.array(jobPhotoSchema) });
