// A hiring pipeline told as a story: a few listings in several statuses (two ACTIVE ones
// translated), candidates, applications that moved through every stage over the last six weeks,
// rejections and withdrawals with the company's reasons, and notes, so a newcomer's first calls and
// screens (lists, a candidate search, the overview, the pipeline's days in stage) show something
// meaningful. Used by the first start's demo company (src/tooling/demo) and by a person's "Explore
// with sample data" (service.ts). Everything goes through the real services, with a clock set to
// each step's day, so history, timestamps and outbox events are exactly what the API itself would
// have produced.
import type { Principal, ServiceContext } from '../../shared/context.ts';
import { importCandidates, submitApplication, updateApplicationStatus } from '../applications/service.ts';
import type { ApplicationSource, ApplicationStage } from '../applications/stages.ts';
import type { CandidateInput } from '../candidates/schemas.ts';
import { listRejectionReasons } from '../companies/service.ts';
import {
  approveJobListing,
  archiveJobListing,
  closeJobListing,
  createJobListing,
  publishJobListing,
  putJobListingTranslation,
} from '../job-listings/service.ts';
import type { CreateJobListingInput, PutTranslationInput } from '../job-listings/schemas.ts';
import { createNote } from '../notes/service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Day 0 of the story is this many days ago; every step happens on a day before today. */
const STORY_DAYS = 45;

type ListingKey = 'backend' | 'designer' | 'analyst' | 'success' | 'intern' | 'office';

interface ListingPlan {
  input: CreateJobListingInput;
  /** Human translations written on the day the listing is created. */
  translations?: Record<string, PutTranslationInput>;
  created: number;
  published?: number;
  closed?: number;
  archived?: number;
}

// In order of creation: the backend listing is made last on day 0, so it is the newest ACTIVE one
// (the one the dashboard's pipeline opens on) and the fullest.
const LISTINGS: Record<ListingKey, ListingPlan> = {
  designer: {
    created: 0,
    published: 2,
    translations: {
      fr: {
        position: 'Designer produit',
        jobDescription: "Façonnez la manière dont recruteurs et candidats utilisent notre produit, de la recherche à l'interface finale.",
      },
    },
    input: {
      position: 'Product Designer',
      positionType: 'FULL_TIME',
      workPlaceType: 'REMOTE',
      jobDescription: 'Shape how recruiters and candidates use our product, from research to polished UI.',
      skills: [{ value: 'Figma', type: 'SOFTWARE' }, { value: 'User research', type: 'SKILL' }],
      currency: 'EUR',
      salaryBase: 60000,
      paymentInterval: 'YEARLY',
      availableForEveryCountry: true,
    },
  },
  analyst: {
    created: 0,
    published: 10,
    input: {
      position: 'Data Analyst',
      positionType: 'PART_TIME',
      workPlaceType: 'ON_SITE',
      address: { city: 'Lisbon', country: 'PT' },
      jobDescription: 'Turn hiring data into dashboards and insight for our customers.',
      skills: [{ value: 'SQL', type: 'SKILL' }, { value: 'Python', type: 'SKILL' }],
      currency: 'EUR',
      salaryBase: 25,
      paymentInterval: 'HOURLY',
    },
  },
  success: {
    created: 0,
    published: 1,
    closed: 35,
    input: {
      position: 'Customer Success Manager',
      positionType: 'FULL_TIME',
      workPlaceType: 'HYBRID',
      address: { city: 'Amsterdam', country: 'NL' },
      jobDescription: 'Help our customers get the most out of the platform.',
    },
  },
  backend: {
    created: 0,
    published: 0,
    translations: {
      de: {
        position: 'Senior Backend-Entwickler (m/w/d)',
        jobDescription: 'Entwirf und betreibe die APIs hinter unserer Recruiting-Plattform: Node.js, TypeScript und PostgreSQL.',
        requirementsSummary: 'Mindestens 5 Jahre Erfahrung mit Backend-Diensten; sehr gutes SQL.',
      },
    },
    input: {
      position: 'Senior Backend Engineer',
      positionType: 'FULL_TIME',
      workPlaceType: 'HYBRID',
      address: { city: 'Berlin', country: 'DE' },
      jobDescription: 'Design and run the APIs behind our recruiting platform: Node.js, TypeScript and PostgreSQL.',
      requirementsSummary: '5+ years building backend services; strong SQL.',
      skills: [
        { value: 'TypeScript', type: 'SKILL', expertType: 'EXPERT' },
        { value: 'PostgreSQL', type: 'SKILL', expertType: 'ADVANCED' },
      ],
      currency: 'EUR',
      salaryBase: 75000,
      isSalaryMax: true,
      salaryMax: 95000,
      salaryType: 'GROSS',
      paymentInterval: 'YEARLY',
      benefits: ['30 days of holiday', 'Learning budget', 'Hybrid work'],
      hiringProcessSteps: [{ stepName: 'Intro call' }, { stepName: 'Technical interview' }, { stepName: 'Team day' }],
      yearsOfExperience: 5,
      numberOfPositionsOpened: 2,
    },
  },
  intern: {
    created: 42,
    input: {
      position: 'Marketing Intern',
      positionType: 'INTERNSHIP',
      workPlaceType: 'ON_SITE',
      address: { city: 'Berlin', country: 'DE' },
    },
  },
  office: {
    created: 0,
    published: 0,
    archived: 20,
    input: { position: 'Office Manager', positionType: 'PART_TIME', workPlaceType: 'ON_SITE' },
  },
};

interface Person {
  firstName: string;
  lastName: string;
  headline: string;
  phone?: string;
}

function email(person: Person): string {
  return `${person.firstName}.${person.lastName}@example.com`.toLowerCase().replace(/[^a-z.@]/g, '');
}

interface ApplicationPlan {
  listing: ListingKey;
  day: number;
  person: Person;
  source?: ApplicationSource;
  coverLetter?: string;
  /** Each move: its day, the stage, a free-text reason, and one of the company's rejection reasons by name (a new company's defaults). */
  moves: Array<[day: number, stage: ApplicationStage, reason?: string, reasonName?: string]>;
  /** Notes written on the candidate: day and text. */
  notes?: Array<[day: number, body: string]>;
}

const amara: Person = { firstName: 'Amara', lastName: 'Okafor', headline: 'Backend engineer, 7 years with Node.js', phone: '+49 30 1234567' };

const APPLICATIONS: ApplicationPlan[] = [
  {
    listing: 'backend',
    day: 1,
    person: amara,
    coverLetter: 'I have built payment APIs on PostgreSQL for five years and would love to do the same for hiring.',
    moves: [[3, 'IN_REVIEW'], [6, 'INTERVIEW'], [14, 'OFFER'], [18, 'HIRED', 'Accepted the offer']],
    notes: [[6, 'Strong system design interview; clear about trade-offs. Team day next.']],
  },
  {
    listing: 'backend',
    day: 2,
    person: { firstName: 'Lars', lastName: 'Eriksen', headline: 'Full-stack developer (PHP, Vue)' },
    moves: [[4, 'IN_REVIEW'], [5, 'REJECTED', 'Looking for more PostgreSQL experience', 'Not enough experience']],
  },
  {
    listing: 'backend',
    day: 5,
    person: { firstName: 'Priya', lastName: 'Patel', headline: 'Senior software engineer, distributed systems' },
    moves: [[7, 'IN_REVIEW'], [12, 'INTERVIEW'], [30, 'OFFER', 'Second hire for this role']],
    notes: [[31, 'Offer sent: start date 1st of next month, waiting for her answer.']],
  },
  {
    listing: 'backend',
    day: 20,
    person: { firstName: 'Tomas', lastName: 'Silva', headline: 'Go and TypeScript engineer' },
    moves: [[25, 'IN_REVIEW'], [33, 'INTERVIEW']],
  },
  { listing: 'backend', day: 38, person: { firstName: 'Mei', lastName: 'Tanaka', headline: 'Backend developer, Java and Kotlin' }, moves: [] },
  {
    listing: 'backend',
    day: 40,
    source: 'REFERRAL',
    person: { firstName: 'Jamal', lastName: 'Haddad', headline: 'Platform engineer, Kubernetes and AWS' },
    moves: [[41, 'IN_REVIEW', 'Referred by Amara']],
  },
  {
    listing: 'designer',
    day: 3,
    person: { firstName: 'Elena', lastName: 'Rossi', headline: 'Product designer, B2B SaaS' },
    moves: [[5, 'IN_REVIEW'], [9, 'INTERVIEW'], [26, 'HIRED']],
  },
  {
    listing: 'designer',
    day: 4,
    person: { firstName: 'Noah', lastName: 'Becker', headline: 'UX/UI designer' },
    moves: [[8, 'WITHDRAWN', 'Accepted another offer', 'Accepted another offer']],
  },
  {
    listing: 'designer',
    day: 30,
    source: 'JOB_BOARD',
    person: { firstName: 'Sara', lastName: 'Lopez', headline: 'Interaction designer and illustrator' },
    moves: [[34, 'IN_REVIEW']],
  },
  { listing: 'designer', day: 43, person: { firstName: 'Kenji', lastName: 'Nakamura', headline: 'Visual designer' }, moves: [] },
  {
    listing: 'analyst',
    day: 28,
    source: 'CAREER_SITE',
    person: { firstName: 'Felix', lastName: 'Weber', headline: 'BI analyst, Power BI and SQL' },
    moves: [[32, 'IN_REVIEW']],
  },
  {
    listing: 'success',
    day: 2,
    person: { firstName: 'Grace', lastName: 'Martin', headline: 'Customer success lead, SaaS onboarding' },
    moves: [[10, 'INTERVIEW'], [22, 'HIRED']],
  },
  {
    listing: 'success',
    day: 6,
    person: { firstName: 'Omar', lastName: 'Khan', headline: 'Account manager' },
    moves: [[12, 'REJECTED', 'Role needs Dutch', 'Skills mismatch']],
  },
  { listing: 'success', day: 3, person: amara, moves: [[19, 'WITHDRAWN', 'Hired for another role', 'Withdrew']] },
  {
    listing: 'office',
    day: 5,
    person: { firstName: 'Ines', lastName: 'Almeida', headline: 'Office and events coordinator' },
    moves: [[15, 'REJECTED', 'Position cancelled', 'Position filled']],
  },
  // The last weeks: the active listings' pipelines fill up, so every stage has cards.
  {
    listing: 'backend',
    day: 29,
    source: 'JOB_BOARD',
    person: { firstName: 'Chloe', lastName: 'Dubois', headline: 'Backend engineer, Python and Go' },
    moves: [[31, 'IN_REVIEW'], [36, 'INTERVIEW']],
    notes: [[36, 'Good first call. Asked about on-call; send her the rota.']],
  },
  {
    listing: 'backend',
    day: 31,
    person: { firstName: 'Ahmed', lastName: 'Mansour', headline: 'Site reliability engineer' },
    moves: [[34, 'IN_REVIEW'], [39, 'REJECTED', 'Needs more application development', 'Skills mismatch']],
  },
  { listing: 'backend', day: 42, source: 'CAREER_SITE', person: { firstName: 'Sofia', lastName: 'Novak', headline: 'Junior developer, TypeScript' }, moves: [] },
  { listing: 'backend', day: 44, person: { firstName: 'Lucas', lastName: 'Moreau', headline: 'Node.js developer, 4 years' }, moves: [] },
  {
    listing: 'designer',
    day: 27,
    source: 'REFERRAL',
    person: { firstName: 'Anna', lastName: 'Kowalski', headline: 'Senior product designer, design systems' },
    moves: [[29, 'IN_REVIEW'], [33, 'INTERVIEW'], [40, 'OFFER']],
    notes: [[40, 'Portfolio review went very well; the team wants her. Offer out today.']],
  },
  {
    listing: 'designer',
    day: 35,
    person: { firstName: 'Ben', lastName: 'Carter', headline: 'UI designer, mobile apps' },
    moves: [[37, 'IN_REVIEW'], [41, 'REJECTED', 'Too junior for this role', 'Not enough experience']],
  },
  { listing: 'designer', day: 41, source: 'CAREER_SITE', person: { firstName: 'Maria', lastName: 'Garcia', headline: 'UX researcher moving into design' }, moves: [[43, 'IN_REVIEW']] },
  {
    listing: 'analyst',
    day: 37,
    person: { firstName: 'Jonas', lastName: 'Berg', headline: 'Analytics engineer, dbt and SQL' },
    moves: [[39, 'IN_REVIEW'], [42, 'INTERVIEW']],
  },
];

/** Imported on day 12 into the Data Analyst pipeline, then moved. */
const ANALYST_IMPORT: Array<CandidateInput & { moves: ApplicationPlan['moves'] }> = [
  {
    firstName: 'Olga',
    lastName: 'Ivanova',
    email: 'olga.ivanova@example.com',
    headline: 'Data analyst, SQL and Python',
    location: 'Lisbon, PT',
    skills: ['SQL', 'Python', 'Tableau'],
    links: ['https://www.linkedin.com/in/example-olga'],
    moves: [[15, 'IN_REVIEW'], [20, 'INTERVIEW']],
  },
  {
    firstName: 'Rafael',
    lastName: 'Costa',
    email: 'rafael.costa@example.com',
    headline: 'Junior analyst',
    location: 'Porto, PT',
    skills: ['Excel', 'SQL'],
    moves: [[16, 'REJECTED', 'Not available part-time', 'Other']],
  },
  {
    firstName: 'Hana',
    lastName: 'Kato',
    email: 'hana.kato@example.com',
    headline: 'Statistician',
    location: 'Lisbon, PT',
    skills: ['R', 'Statistics', 'SQL'],
    moves: [],
  },
];

/** Imported on day 0 without a listing: the talent pool. */
const TALENT_POOL: CandidateInput[] = [
  { firstName: 'Yuki', lastName: 'Suzuki', email: 'yuki.suzuki@example.com', headline: 'Frontend engineer, React', location: 'Remote', skills: ['React', 'TypeScript', 'CSS'] },
  { firstName: 'Daniel', lastName: 'Schmidt', email: 'daniel.schmidt@example.com', headline: 'Engineering manager', location: 'Munich, DE', skills: ['Leadership', 'Java', 'Scrum'] },
  { firstName: 'Laila', lastName: 'Singh', email: 'laila.singh@example.com', headline: 'Technical recruiter', location: 'London, GB', skills: ['Recruiting', 'Sourcing'] },
];

export interface DemoPipeline {
  listings: number;
  candidates: number;
  applications: number;
}

/** What the story made: its counts and the ids of its listings and candidates. */
export interface PipelineStory extends DemoPipeline {
  jobListingIds: string[];
  candidateIds: string[];
}

/** Every e-mail address the story's candidates have. */
export function storyEmails(): string[] {
  return [...new Set([...APPLICATIONS.map((plan) => email(plan.person)), ...ANALYST_IMPORT.map((c) => c.email), ...TALENT_POOL.map((c) => c.email)])];
}

/**
 * Tells the story in the company: moves by the system (no person or key), notes by `noteAuthor`
 * (none given: no notes). Rejections give the company's reason of the plan's name when it has
 * one, else its first active reason of that kind (so a company that asks for a reason still fills).
 */
export async function tellPipelineStory(ctx: ServiceContext, companyId: string, options: { noteAuthor?: Principal } = {}): Promise<PipelineStory> {
  const start = ctx.clock.now().getTime() - STORY_DAYS * DAY_MS;
  // Steps of one day are spread over working hours, in the order they are listed.
  const stepsOfDay = new Map<number, number>();
  const on = (day: number): ServiceContext => {
    const step = stepsOfDay.get(day) ?? 0;
    stepsOfDay.set(day, step + 1);
    const at = new Date(start + day * DAY_MS + (9 * 60 + step * 7) * 60_000);
    return { ...ctx, clock: { now: () => at } };
  };
  const principal: Principal = { companyId, scopes: [], apiKeyId: null };
  // The company's active reasons (a new company has 14; a hundred is more than any has).
  const reasons = (await listRejectionReasons(ctx, companyId, { page: 0, size: 100, active: true })).data;
  const reasonFor = (stage: ApplicationStage, name: string | undefined): string | undefined => {
    const kind = stage === 'REJECTED' ? 'REJECTION' : stage === 'WITHDRAWN' ? 'WITHDRAWAL' : undefined;
    if (!kind || name === undefined) return undefined;
    const ofKind = reasons.filter((reason) => reason.kind === kind);
    return (ofKind.find((reason) => reason.name === name) ?? ofKind[0])?.id;
  };
  const candidateIds = new Set<string>();

  // Every action with its day; run in day order, so each happens after what it builds on.
  const actions: Array<{ day: number; run: () => Promise<void> }> = [];
  const listingIds = new Map<ListingKey, string>();
  const listingOf = (key: ListingKey) => listingIds.get(key)!;

  for (const [key, plan] of Object.entries(LISTINGS) as Array<[ListingKey, ListingPlan]>) {
    actions.push({
      day: plan.created,
      run: async () => {
        // The story's texts are English whatever the company's default language (so its translations never name the source language).
        const id = (await createJobListing(on(plan.created), companyId, { language: 'en', ...plan.input })).listing.id;
        listingIds.set(key, id);
        for (const [language, texts] of Object.entries(plan.translations ?? {})) {
          await putJobListingTranslation(on(plan.created), companyId, id, language, texts);
        }
      },
    });
    // A company that reviews listings: publishing waits for review, and the story approves it.
    const publish: typeof publishJobListing = async (dayCtx, company, id) => {
      const published = await publishJobListing(dayCtx, company, id);
      return published.listing.status === 'UNDER_REVIEW' ? approveJobListing(dayCtx, company, id) : published;
    };
    const lifecycle: Array<[number | undefined, typeof publishJobListing]> = [
      [plan.published, publish],
      [plan.closed, closeJobListing],
      [plan.archived, archiveJobListing],
    ];
    for (const [day, change] of lifecycle) {
      if (day !== undefined) actions.push({ day, run: async () => void (await change(on(day), companyId, listingOf(key))) });
    }
  }

  const moveLater = (applicationId: () => string, moves: ApplicationPlan['moves']) => {
    for (const [day, status, reason, reasonName] of moves) {
      const reasonId = reasonFor(status, reasonName);
      actions.push({
        day,
        run: async () => void (await updateApplicationStatus(on(day), principal, applicationId(), { status, reason, ...(reasonId ? { reasonId } : {}) })),
      });
    }
  };

  for (const plan of APPLICATIONS) {
    let id = '';
    let candidateId = '';
    actions.push({
      day: plan.day,
      run: async () => {
        const { firstName, lastName, headline, phone } = plan.person;
        const { application } = await submitApplication(on(plan.day), principal, {
          jobListingId: listingOf(plan.listing),
          candidate: { firstName, lastName, email: email(plan.person), headline, ...(phone ? { phone } : {}) },
          source: plan.source ?? 'EXTERNAL',
          ...(plan.coverLetter ? { coverLetter: plan.coverLetter } : {}),
        });
        id = application.id;
        candidateId = application.candidate.id;
        candidateIds.add(candidateId);
      },
    });
    moveLater(() => id, plan.moves);
    const author = options.noteAuthor;
    for (const [day, body] of author ? (plan.notes ?? []) : []) {
      actions.push({ day, run: async () => void (await createNote(on(day), author!, candidateId, { body, applicationId: id })) });
    }
  }

  actions.push({
    day: 0,
    run: async () => {
      for (const row of (await importCandidates(on(0), principal, { candidates: TALENT_POOL })).results) candidateIds.add(row.candidateId);
    },
  });
  const imported = new Map<string, string>();
  actions.push({
    day: 12,
    run: async () => {
      const result = await importCandidates(on(12), principal, {
        jobListingId: listingOf('analyst'),
        candidates: ANALYST_IMPORT.map(({ moves: _moves, ...candidate }) => candidate),
      });
      for (const row of result.results) {
        imported.set(row.email, row.applicationId!);
        candidateIds.add(row.candidateId);
      }
    },
  });
  for (const row of ANALYST_IMPORT) moveLater(() => imported.get(row.email)!, row.moves);

  // A stable sort keeps the listed order within a day (create before publish, submit before move).
  actions.sort((a, b) => a.day - b.day);
  for (const action of actions) await action.run();

  return {
    listings: Object.keys(LISTINGS).length,
    candidates: storyEmails().length,
    applications: APPLICATIONS.length + ANALYST_IMPORT.length,
    jobListingIds: [...listingIds.values()],
    candidateIds: [...candidateIds],
  };
}
