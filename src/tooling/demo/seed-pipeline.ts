// The demo company's hiring pipeline: a few listings in several statuses, candidates, and
// applications that moved through the stages over the last six weeks, so a newcomer's first calls
// (lists, a candidate search, the analytics overview) answer something meaningful. Everything
// goes through the real services, with a clock set to each step's day, so history, timestamps and
// outbox events are exactly what the API itself would have produced.
import type { Principal, ServiceContext } from '../../shared/context.ts';
import { importCandidates, submitApplication, updateApplicationStatus } from '../../modules/applications/service.ts';
import type { ApplicationSource, ApplicationStage } from '../../modules/applications/stages.ts';
import type { CandidateInput } from '../../modules/candidates/schemas.ts';
import {
  archiveJobListing,
  closeJobListing,
  createJobListing,
  publishJobListing,
} from '../../modules/job-listings/service.ts';
import type { CreateJobListingInput } from '../../modules/job-listings/schemas.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Day 0 of the story is this many days ago; every step happens on a day before today. */
const STORY_DAYS = 45;

type ListingKey = 'backend' | 'designer' | 'analyst' | 'success' | 'intern' | 'office';

interface ListingPlan {
  input: CreateJobListingInput;
  created: number;
  published?: number;
  closed?: number;
  archived?: number;
}

const LISTINGS: Record<ListingKey, ListingPlan> = {
  backend: {
    created: 0,
    published: 0,
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
  designer: {
    created: 1,
    published: 2,
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
    created: 9,
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
  moves: Array<[day: number, stage: ApplicationStage, reason?: string]>;
}

const amara: Person = { firstName: 'Amara', lastName: 'Okafor', headline: 'Backend engineer, 7 years with Node.js', phone: '+49 30 1234567' };

const APPLICATIONS: ApplicationPlan[] = [
  {
    listing: 'backend',
    day: 1,
    person: amara,
    coverLetter: 'I have built payment APIs on PostgreSQL for five years and would love to do the same for hiring.',
    moves: [[3, 'IN_REVIEW'], [6, 'INTERVIEW'], [14, 'OFFER'], [18, 'HIRED', 'Accepted the offer']],
  },
  {
    listing: 'backend',
    day: 2,
    person: { firstName: 'Lars', lastName: 'Eriksen', headline: 'Full-stack developer (PHP, Vue)' },
    moves: [[4, 'IN_REVIEW'], [5, 'REJECTED', 'Looking for more PostgreSQL experience']],
  },
  {
    listing: 'backend',
    day: 5,
    person: { firstName: 'Priya', lastName: 'Patel', headline: 'Senior software engineer, distributed systems' },
    moves: [[7, 'IN_REVIEW'], [12, 'INTERVIEW'], [30, 'OFFER', 'Second hire for this role']],
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
    moves: [[8, 'WITHDRAWN', 'Accepted another offer']],
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
    moves: [[12, 'REJECTED', 'Role needs Dutch']],
  },
  { listing: 'success', day: 3, person: amara, moves: [[19, 'WITHDRAWN', 'Hired for another role']] },
  {
    listing: 'office',
    day: 5,
    person: { firstName: 'Ines', lastName: 'Almeida', headline: 'Office and events coordinator' },
    moves: [[15, 'REJECTED', 'Position cancelled']],
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
    moves: [[16, 'REJECTED', 'Not available part-time']],
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

export async function seedDemoPipeline(ctx: ServiceContext, companyId: string): Promise<DemoPipeline> {
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

  // Every action with its day; run in day order, so each happens after what it builds on.
  const actions: Array<{ day: number; run: () => Promise<void> }> = [];
  const listingIds = new Map<ListingKey, string>();
  const listingOf = (key: ListingKey) => listingIds.get(key)!;

  for (const [key, plan] of Object.entries(LISTINGS) as Array<[ListingKey, ListingPlan]>) {
    actions.push({
      day: plan.created,
      run: async () => {
        listingIds.set(key, (await createJobListing(on(plan.created), companyId, plan.input)).listing.id);
      },
    });
    const lifecycle: Array<[number | undefined, typeof publishJobListing]> = [
      [plan.published, publishJobListing],
      [plan.closed, closeJobListing],
      [plan.archived, archiveJobListing],
    ];
    for (const [day, change] of lifecycle) {
      if (day !== undefined) actions.push({ day, run: async () => void (await change(on(day), companyId, listingOf(key))) });
    }
  }

  const moveLater = (applicationId: () => string, moves: ApplicationPlan['moves']) => {
    for (const [day, status, reason] of moves) {
      actions.push({
        day,
        run: async () => void (await updateApplicationStatus(on(day), principal, applicationId(), { status, reason })),
      });
    }
  };

  for (const plan of APPLICATIONS) {
    let id = '';
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
      },
    });
    moveLater(() => id, plan.moves);
  }

  actions.push({ day: 0, run: async () => void (await importCandidates(on(0), principal, { candidates: TALENT_POOL })) });
  const imported = new Map<string, string>();
  actions.push({
    day: 12,
    run: async () => {
      const result = await importCandidates(on(12), principal, {
        jobListingId: listingOf('analyst'),
        candidates: ANALYST_IMPORT.map(({ moves: _moves, ...candidate }) => candidate),
      });
      for (const row of result.results) imported.set(row.email, row.applicationId!);
    },
  });
  for (const row of ANALYST_IMPORT) moveLater(() => imported.get(row.email)!, row.moves);

  // A stable sort keeps the listed order within a day (create before publish, submit before move).
  actions.sort((a, b) => a.day - b.day);
  for (const action of actions) await action.run();

  const people = new Set([...APPLICATIONS.map((plan) => email(plan.person)), ...ANALYST_IMPORT.map((c) => c.email), ...TALENT_POOL.map((c) => c.email)]);
  return {
    listings: Object.keys(LISTINGS).length,
    candidates: people.size,
    applications: APPLICATIONS.length + ANALYST_IMPORT.length,
  };
}
